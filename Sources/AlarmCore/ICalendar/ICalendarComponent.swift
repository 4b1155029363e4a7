// SPDX-License-Identifier: Apache-2.0
/// A component of an iCalendar file (`VCALENDAR`, `VEVENT`, `VTODO`,
/// `VALARM`, …): its properties in file order and the components nested in
/// it. ``parse(_:maxBytes:)`` reads a whole file into its calendars; the
/// readers built on it (holiday calendars, alarms and reminders) then take
/// what they need.
public struct ICalendarComponent: Hashable, Sendable {
    /// In capitals.
    public let name: String
    /// The physical line of its `BEGIN`.
    public let line: Int
    public var properties: [ICalendarProperty]
    public var components: [ICalendarComponent]

    public init(name: String, line: Int = 0, properties: [ICalendarProperty] = [], components: [ICalendarComponent] = []) {
        self.name = name
        self.line = line
        self.properties = properties
        self.components = components
    }

    /// The first property called `name`.
    public subscript(name: String) -> ICalendarProperty? { properties.first { $0.name == name } }

    /// Every property called `name`.
    public func all(_ name: String) -> [ICalendarProperty] { properties.filter { $0.name == name } }

    /// The one property called `name`, or `nil`; a second one is refused
    /// (RFC 5545 allows most properties once per component).
    public func single(_ name: String) throws(ICalendarError) -> ICalendarProperty? {
        let found = all(name)
        if found.count > 1 { throw found[1].refused("must be given only once in a \(self.name)") }
        return found.first
    }

    /// The deepest nesting read, `VCALENDAR` counting as one: calendars nest
    /// three or four deep (`VCALENDAR`, `VEVENT`, `VALARM`; `VTIMEZONE`,
    /// `STANDARD`), and a limit keeps a file of nested `BEGIN`s from costing
    /// more than its length.
    public static let maxDepth = 16
    /// The most components (nested ones included) and properties in one
    /// file: a file of the largest size ``ICalendarItems`` reads, in lines
    /// as short as they come, stays within memory a few times its size.
    public static let maxComponents = 1_000_000
    public static let maxProperties = 2_000_000

    /// Reads every `VCALENDAR` in `text` (a file may hold several, read in
    /// turn). `BEGIN`/`END` must pair up inside `BEGIN:VCALENDAR …
    /// END:VCALENDAR`, and a component may not be nested in one of its own
    /// kind — that is almost always a missing `END`, which is reported at the
    /// line that shows it, naming the `BEGIN` it left open. A file over
    /// `maxBytes` is refused before it is read; nesting deeper than
    /// ``maxDepth``, more than ``maxComponents`` components or
    /// ``maxProperties`` properties, and the limits of
    /// ``ICalendarProperty`` are refused at the line that passes them. One
    /// pass, one line in memory at a time besides what is kept.
    public static func parse(_ text: String, maxBytes: Int) throws(ICalendarError) -> [ICalendarComponent] {
        guard text.utf8.count <= maxBytes else {
            throw ICalendarError(property: "", value: nil, requirement: "the file must be at most \(maxBytes >> 20) MiB, got \(text.utf8.count) bytes")
        }
        var open: [ICalendarComponent] = []
        var calendars: [ICalendarComponent] = []
        var componentCount = 0
        var propertyCount = 0
        try ICalendarProperty.forEachUnfoldedLine(text) { (number, bytes) throws(ICalendarError) in
            let property = try ICalendarProperty.parse(bytes, line: number)
            switch property.name {
            case "BEGIN":
                let name = property.value.uppercased()
                guard !name.isEmpty else { throw property.refused("must name a component like VEVENT") }
                guard !open.isEmpty || name == "VCALENDAR" else {
                    throw property.refused("must be inside a VCALENDAR (the file must begin with BEGIN:VCALENDAR)")
                }
                guard open.count < maxDepth else {
                    throw property.refused("must not nest components more than \(maxDepth) deep (BEGIN:VCALENDAR counts as one)")
                }
                guard componentCount < maxComponents else {
                    throw property.refused("must not make more than \(maxComponents) components in a file")
                }
                if let outer = open.first(where: { $0.name == name }) {
                    throw property.refused("must come after END:\(name) for the BEGIN:\(name) at line \(outer.line)")
                }
                componentCount += 1
                open.append(ICalendarComponent(name: name, line: property.line))
            case "END":
                let name = property.value.uppercased()
                guard let innermost = open.last else { throw property.refused("must match a BEGIN before it, and nothing is open") }
                guard innermost.name == name else {
                    throw property.refused(open.contains(where: { $0.name == name })
                        ? "must come after END:\(innermost.name) for the BEGIN:\(innermost.name) at line \(innermost.line)"
                        : "must match a BEGIN before it; the innermost open one is BEGIN:\(innermost.name) at line \(innermost.line)")
                }
                let done = open.removeLast()
                if open.isEmpty { calendars.append(done) } else { open[open.count - 1].components.append(done) }
            default:
                guard !open.isEmpty else { throw property.refused("must be inside a VCALENDAR (BEGIN:VCALENDAR … END:VCALENDAR)") }
                guard propertyCount < maxProperties else {
                    throw property.refused("must not make more than \(maxProperties) properties in a file")
                }
                propertyCount += 1
                open[open.count - 1].properties.append(property)
            }
        }
        if let unclosed = open.last {
            throw ICalendarError(line: unclosed.line, property: "BEGIN", value: unclosed.name, requirement: "has no END:\(unclosed.name)")
        }
        guard !calendars.isEmpty else {
            throw ICalendarError(property: "", value: nil, requirement: N_("the file must hold a VCALENDAR (BEGIN:VCALENDAR … END:VCALENDAR)"))
        }
        return calendars
    }
}

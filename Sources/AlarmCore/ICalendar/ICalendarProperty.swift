// SPDX-License-Identifier: Apache-2.0
/// One content line of an iCalendar (RFC 5545 §3.1) file, unfolded:
/// `NAME;PARAM=x;OTHER="a:b":value`, with the physical line it starts on so
/// that an error can point an editor at it.
public struct ICalendarProperty: Hashable, Sendable {
    public let line: Int
    /// In capitals (names are case-insensitive).
    public let name: String
    /// Parameter names in capitals, values as written (quotes removed; a list
    /// `a,b` stays one string).
    public let parameters: [String: String]
    /// The raw value: escapes in a `TEXT` value are still there
    /// (``text`` undoes them).
    public let value: String

    public init(line: Int = 0, name: String, parameters: [String: String] = [:], value: String) {
        self.line = line
        self.name = name
        self.parameters = parameters
        self.value = value
    }

    /// The value read as `TEXT` (§3.3.11): `\n` and `\N` are line breaks,
    /// `\\`, `\;` and `\,` the characters themselves. A backslash before
    /// anything else is kept as written, as most readers do; a bare carriage
    /// return (which TEXT may not hold) is read as the line break it meant.
    public var text: String {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\r") }) else { return value }
        var out = ""
        var escaped = false
        for character in value {
            if character == "\r" || character == "\r\n" {
                if escaped { out.append("\\") }
                out.append("\n")
                escaped = false
            } else if escaped {
                switch character {
                case "n", "N": out.append("\n")
                case "\\", ";", ",": out.append(character)
                default: out.append("\\"); out.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        if escaped { out.append("\\") }
        return out
    }

    /// A problem with this property's value, placed at its line.
    func refused(_ requirement: String) -> ICalendarError {
        ICalendarError(line: line, property: name, value: value, requirement: requirement)
    }

    // MARK: Reading lines

    /// The longest logical line read (after unfolding): RFC 5545 sets no
    /// limit, and the longest in practice, an inline `ATTACH`, is far
    /// shorter.
    public static let maxLineBytes = 1 << 20
    /// The most parameters on one property.
    public static let maxParameters = 64
    /// The longest property or parameter name.
    public static let maxNameBytes = 256
    /// How much of a malformed line an error quotes.
    static let quotedBytes = 200

    /// Calls `body` with each of the file's logical lines as bytes, unfolded
    /// (§3.1: a line break followed by a space or tab continues the line),
    /// with the physical line it starts on; blank lines are dropped. Bytes
    /// rather than Characters: "\r\n" is one Character that a search for
    /// "\n" would not see. One pass, holding one logical line; a line
    /// longer than ``maxLineBytes`` is refused at its first physical line.
    static func forEachUnfoldedLine(_ text: String, _ body: (_ number: Int, _ bytes: [UInt8]) throws(ICalendarError) -> Void) throws(ICalendarError) {
        let bytes = Array(text.utf8)
        var position = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var pending: [UInt8] = []
        var pendingNumber = 0
        var number = 0
        func tooLong(_ line: Int, _ start: ArraySlice<UInt8>) -> ICalendarError {
            let name = start.prefix { isNameByte($0) }.prefix(64)
            return ICalendarError(line: line, property: String(decoding: name, as: UTF8.self).uppercased(), value: nil,
                                  requirement: "must be at most \(maxLineBytes >> 20) MiB long once unfolded")
        }
        while position < bytes.endIndex {
            let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            number += 1
            var line = bytes[position..<end]
            position = end + 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), pendingNumber != 0 {
                guard pending.count + line.count - 1 <= maxLineBytes else { throw tooLong(pendingNumber, pending[...]) }
                pending += line.dropFirst()
            } else if !line.isEmpty {
                if pendingNumber != 0 { try body(pendingNumber, pending) }
                guard line.count <= maxLineBytes else { throw tooLong(number, line) }
                pending = Array(line)
                pendingNumber = number
            }
        }
        if pendingNumber != 0 { try body(pendingNumber, pending) }
    }

    /// A byte of a property or parameter name (§3.1: letters, digits, `-`).
    static func isNameByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
    }

    /// Splits a content line into its name, parameters and value. A quoted
    /// parameter value may hold `:`, `;` and `,`.
    static func parse(_ bytes: [UInt8], line: Int) throws(ICalendarError) -> ICalendarProperty {
        func malformed() -> ICalendarError {
            // A long line is quoted by its start, which is enough to find it.
            let shown = bytes.count > quotedBytes ? String(decoding: bytes.prefix(quotedBytes), as: UTF8.self) + "…" : String(decoding: bytes, as: UTF8.self)
            return ICalendarError(line: line, property: "", value: shown, requirement: N_("must look like NAME:value or NAME;PARAMETER=x:value"))
        }
        let nameEnd = bytes.firstIndex { !isNameByte($0) } ?? bytes.endIndex
        guard nameEnd > 0, nameEnd <= maxNameBytes, nameEnd < bytes.endIndex else { throw malformed() }
        var parameters: [String: String] = [:]
        var index = nameEnd
        var parameterCount = 0
        while bytes[index] == UInt8(ascii: ";") {
            parameterCount += 1
            guard parameterCount <= maxParameters else {
                throw ICalendarError(line: line, property: String(decoding: bytes[..<nameEnd], as: UTF8.self).uppercased(), value: nil,
                                     requirement: "must have at most \(maxParameters) parameters")
            }
            let nameStart = index + 1
            guard let equals = bytes[nameStart...].firstIndex(where: { !isNameByte($0) }), equals > nameStart,
                  equals - nameStart <= maxNameBytes, bytes[equals] == UInt8(ascii: "=") else { throw malformed() }
            let parameterName = String(decoding: bytes[nameStart..<equals], as: UTF8.self).uppercased()
            var value: [UInt8] = []
            var quoted = false
            index = equals + 1
            while index < bytes.endIndex {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    quoted.toggle()
                } else if !quoted, byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":") {
                    break
                } else {
                    value.append(byte)
                }
                index += 1
            }
            guard index < bytes.endIndex else { throw malformed() }
            parameters[parameterName] = String(decoding: value, as: UTF8.self)
        }
        guard bytes[index] == UInt8(ascii: ":") else { throw malformed() }
        return ICalendarProperty(line: line, name: String(decoding: bytes[..<nameEnd], as: UTF8.self).uppercased(), parameters: parameters,
                                 value: String(decoding: bytes[(index + 1)...], as: UTF8.self))
    }
}

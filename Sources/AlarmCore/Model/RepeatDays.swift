// SPDX-License-Identifier: Apache-2.0
/// The weekdays an alarm repeats on. Empty means a one-shot alarm ("Never").
///
/// Stored as a 7-bit mask (bit `n` = `Weekday(rawValue: n)`), which keeps the
/// next-fire hot path to one shift and one AND.
public struct RepeatDays: OptionSet, Hashable, Sendable, Codable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x7F }

    public init(_ day: Weekday) { self.init(rawValue: 1 << UInt8(day.rawValue)) }

    public init<S: Sequence>(_ days: S) where S.Element == Weekday {
        self.init(rawValue: days.reduce(0) { $0 | 1 << UInt8($1.rawValue) })
    }

    public static let never: RepeatDays = []
    public static let weekdays = RepeatDays([.monday, .tuesday, .wednesday, .thursday, .friday])
    public static let weekends = RepeatDays([.saturday, .sunday])
    public static let everyDay = RepeatDays(Weekday.allCases)

    public func contains(_ day: Weekday) -> Bool { rawValue & (1 << UInt8(day.rawValue)) != 0 }

    /// The days in week order (Monday first).
    public var days: [Weekday] { Weekday.weekOrder.filter(contains) }

    /// Wire and storage form: lowercase three-letter names in week order.
    public var codes: [String] { days.map(\.code) }

    /// Display text as on a phone's alarm screen: `Never`, `Every day`,
    /// `Weekdays` (exactly Mon–Fri), `Weekends` (exactly Sat and Sun), otherwise
    /// the short names in week order (`Mon, Wed, Fri`). The wire and the
    /// journal's form; people read `text(in:)`.
    public var displayText: String { text(in: .source) }

    /// `displayText` in a language: 永不, 每天, 平日, 假日, `週一、週三`.
    public func text(in l: some Localization) -> String {
        switch self {
        case .never: return l.L("Never")
        case .everyDay: return l.L("Every day")
        case .weekdays: return l.L("Weekdays")
        case .weekends: return l.L("Weekends")
        default: return l.list(days.map(l.weekday))
        }
    }

    /// Parses a repeat-day specification.
    ///
    /// Accepts comma-separated items, each a day name (short or full, any case),
    /// a range (`mon-fri`, systemd's `Mon..Fri` or `mon to fri`, wrapping across
    /// the week end as in `fri-mon`), or one of `weekdays` (`weekday`, `workdays`),
    /// `weekends` (`weekend`), `daily`, `every-day`, `everyday`, `never`, `none`.
    /// Spaces around items are ignored. Throws a `ValidationError` naming `field`.
    public static func parse(_ spec: String, field: String = "days") throws(ValidationError) -> RepeatDays {
        let trimmed = spec.trimmingSpaces()
        guard !trimmed.isEmpty else {
            throw .text(field, N_("must name days (e.g. mon,wed or weekdays)"), got: spec)
        }
        var result: RepeatDays = []
        for rawItem in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let item = String(rawItem).trimmingSpaces().lowercased()
            switch item {
            case "weekdays", "weekday", "workdays": result.formUnion(.weekdays)
            case "weekends", "weekend": result.formUnion(.weekends)
            case "daily", "every-day", "everyday", "every day": result.formUnion(.everyDay)
            case "never", "none": continue
            default:
                // `mon-fri`, systemd's `Mon..Fri`, or `mon to fri` as said.
                var range = item.replacing("..", with: "-")
                for word in [" to ", " through ", " thru "] { range = range.replacing(word, with: "-") }
                let bounds = range.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = Weekday(name: String(bounds[0])),
                      let last = bounds.count == 2 ? Weekday(name: String(bounds[1])) : first
                else {
                    throw unknownItem(String(rawItem), bounds: bounds, in: spec, field: field)
                }
                result.formUnion(RepeatDays.range(first, through: last))
            }
        }
        return result
    }

    /// Every day from `first` to `last`, both in, across the end of the week
    /// when `last` comes before it (`fri` through `mon`).
    public static func range(_ first: Weekday, through last: Weekday) -> RepeatDays {
        var days = RepeatDays([first]), day = first
        while day != last {
            day = Weekday.allCases[(day.rawValue + 1) % 7]
            days.insert(RepeatDays([day]))
        }
        return days
    }

    static let dayNames = N_("must be day names (mon or monday), ranges like mon-fri or Mon..Fri, weekdays, weekends, daily or never")
    static let dayNamesUnknown = N_("must be day names (mon or monday), ranges like mon-fri or Mon..Fri, weekdays, weekends, daily or never; unknown item %s")

    /// The error for an item that names no day: the item named when there is
    /// more to the value than it, and the day or word a misspelt one
    /// probably is (`mnday`, `wekdays`).
    private static func unknownItem(_ item: String, bounds: [Substring], in spec: String, field: String) -> ValidationError {
        // The end of a range is a day; an item alone may be a word for days too.
        let days = Weekday.weekOrder.flatMap { [$0.code, $0.fullName.lowercased()] }
        let words = bounds.count == 2 ? days : days + ["weekdays", "weekends", "daily", "never"]
        let guess = bounds.lazy.map { String($0).lowercased() }.first { Weekday(name: $0) == nil }.flatMap { Spelling.near($0, among: words).first }
        let requirement = item.count == spec.count ? dayNames : MessageFormat.fill(dayNamesUnknown, [ValidationError.quoted(item)])
        return ValidationError(field: field, requirement: requirement, value: ValidationError.quoted(spec, guess: guess))
    }

    /// Builds the set from wire codes (`["mon","tue"]`), rejecting unknown or repeated names.
    public static func fromCodes(_ codes: [String], field: String = "days") throws(ValidationError) -> RepeatDays {
        var result: RepeatDays = []
        for code in codes {
            guard let day = Weekday.byCode[code] else {
                throw .text(field, N_("must contain lowercase three-letter day names (mon … sun)"), got: code)
            }
            guard !result.contains(day) else { throw .text(field, N_("must not name a day twice"), got: code) }
            result.insert(RepeatDays(day))
        }
        return result
    }
}

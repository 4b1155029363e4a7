/// A local wall-clock time of day with minute precision, as an alarm is set.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    // Two bytes rather than two Ints: a daemon keeps a million of these in memory.
    private let storedHour: UInt8
    private let storedMinute: UInt8

    public var hour: Int { Int(storedHour) }
    public var minute: Int { Int(storedMinute) }

    /// Validates `hour` (0–23) and `minute` (0–59).
    public init(hour: Int, minute: Int) throws(ValidationError) {
        guard (0...23).contains(hour) else { throw ValidationError(field: "hour", requirement: "must be 0–23", value: String(hour)) }
        guard (0...59).contains(minute) else { throw ValidationError(field: "minute", requirement: "must be 0–59", value: String(minute)) }
        storedHour = UInt8(hour)
        storedMinute = UInt8(minute)
    }

    private init(unchecked hour: UInt8, _ minute: UInt8) {
        storedHour = hour
        storedMinute = minute
    }

    /// 09:00, when an all-day reminder rings unless `[Reminders] AllDayAt=` says otherwise.
    public static let nineAM = TimeOfDay(unchecked: 9, 0)

    /// Seconds after local midnight.
    public var secondsIntoDay: Int { hour * 3600 + minute * 60 }

    /// `07:30` — the canonical 24-hour form used on the wire and in lists.
    public var description: String { TimeOfDay.twoDigits(hour) + ":" + TimeOfDay.twoDigits(minute) }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.secondsIntoDay < rhs.secondsIntoDay }

    /// Parses `7:30`, `07:30`, `19:05`, `7:30pm`, `7:30 PM`, `7pm`, `12am` (midnight).
    public static func parse(_ text: String, field: String = "time") throws(ValidationError) -> TimeOfDay {
        // Built only on failure: quoting the text costs more than parsing it.
        var invalid: ValidationError { .text(field, "must be a time like 07:30, 19:05 or 7:30pm", got: text) }
        var body = Substring(text.trimmingSpaces().lowercased())
        var meridiem: Character?
        if body.hasSuffix("am") || body.hasSuffix("pm") {
            meridiem = body[body.index(body.endIndex, offsetBy: -2)]
            body = body.dropLast(2)
            while body.last == " " { body.removeLast() }
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2,
              let hour = Self.digits(parts[0], allowed: 1...2),
              parts.count == 2 || meridiem != nil
        else { throw invalid }
        let minute: Int
        if parts.count == 2 {
            guard let parsed = Self.digits(parts[1], allowed: 2...2) else { throw invalid }
            minute = parsed
        } else {
            minute = 0
        }
        var hour24 = hour
        if let meridiem {
            guard (1...12).contains(hour) else {
                throw ValidationError.text(field, "must use an hour of 1–12 with am/pm", got: text)
            }
            hour24 = hour % 12 + (meridiem == "p" ? 12 : 0)
        }
        guard (0...23).contains(hour24) else { throw ValidationError.text(field, "must have an hour of 0–23", got: text) }
        guard (0...59).contains(minute) else { throw ValidationError.text(field, "must have minutes of 00–59", got: text) }
        return try TimeOfDay(hour: hour24, minute: minute)
    }

    /// Parses an all-ASCII-digit run whose length lies in `allowed`.
    static func digits(_ text: Substring, allowed: ClosedRange<Int>) -> Int? {
        guard allowed.contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return text.utf8.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}

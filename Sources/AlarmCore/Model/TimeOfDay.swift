// SPDX-License-Identifier: Apache-2.0
/// A local wall-clock time of day with minute precision, as an alarm is set.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    // Two bytes rather than two Ints: a daemon keeps a million of these in memory.
    private let storedHour: UInt8
    private let storedMinute: UInt8

    public var hour: Int { Int(storedHour) }
    public var minute: Int { Int(storedMinute) }

    /// Validates `hour` (0–23) and `minute` (0–59).
    public init(hour: Int, minute: Int) throws(ValidationError) {
        guard (0...23).contains(hour) else { throw ValidationError(field: "hour", requirement: N_("must be 0–23"), value: String(hour)) }
        guard (0...59).contains(minute) else { throw ValidationError(field: "minute", requirement: N_("must be 0–59"), value: String(minute)) }
        storedHour = UInt8(hour)
        storedMinute = UInt8(minute)
    }

    private init(unchecked hour: UInt8, _ minute: UInt8) {
        storedHour = hour
        storedMinute = minute
    }

    /// 09:00, when an all-day reminder rings unless `[Reminders] AllDayAt=` says otherwise.
    public static let nineAM = TimeOfDay(unchecked: 9, 0)
    /// 00:00, where a day named alone begins.
    public static let midnight = TimeOfDay(unchecked: 0, 0)

    /// Seconds after local midnight.
    public var secondsIntoDay: Int { hour * 3600 + minute * 60 }

    /// `07:30` — the canonical 24-hour form used on the wire and in lists.
    public var description: String { TimeOfDay.twoDigits(hour) + ":" + TimeOfDay.twoDigits(minute) }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.secondsIntoDay < rhs.secondsIntoDay }

    /// What ``parse(_:field:)`` takes, every form listed (a catalog message).
    public static let requirement = N_("must be a time of day: 7, 0730, 7:30, 7.30, 19:05, 7am, 7:30 pm, noon, midnight, morning (8:00), afternoon (13:00), evening (18:00) or night (20:00)")

    /// The wire's own form, `07:30` exactly, read without the general
    /// parser's trimming and folding: a document of 100,000 alarms holds as
    /// many. `nil` for anything else, which the general parser then reads.
    private static func canonical(_ text: String) -> TimeOfDay? {
        var text = text
        return text.withUTF8 { bytes -> TimeOfDay? in
            guard bytes.count == 5, bytes[2] == UInt8(ascii: ":") else { return nil }
            func digit(_ byte: UInt8) -> UInt8? { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? byte - UInt8(ascii: "0") : nil }
            guard let h1 = digit(bytes[0]), let h2 = digit(bytes[1]), let m1 = digit(bytes[3]), let m2 = digit(bytes[4]) else { return nil }
            let hour = h1 * 10 + h2, minute = m1 * 10 + m2
            guard hour <= 23, minute <= 59 else { return nil }
            return TimeOfDay(unchecked: hour, minute)
        }
    }

    /// Parses a time of day as people type it: `7` (07:00), `0730`, `730`,
    /// `7:30`, `07:30`, `7.30`, `19:05`, `7am`, `7:30pm`, `7:30 PM`,
    /// `7 a.m.`, `12am` (midnight), `noon`, `midnight`; a part of the day
    /// alone: `morning` 08:00, `afternoon` 13:00, `evening` 18:00, `night`
    /// 20:00 (and 早上, 下午, 晚上 …). A bare number is an
    /// hour (1–2 digits) or hours and minutes (3–4 digits), on a 24-hour
    /// clock unless am/pm follows.
    public static func parse(_ text: String, field: String = "time") throws(ValidationError) -> TimeOfDay {
        // Built only on failure: quoting the text costs more than parsing it.
        var invalid: ValidationError { .text(field, requirement, got: text) }
        if let canonical = Self.canonical(text) { return canonical }
        var body = Substring(text.trimmingSpaces().lowercased())
        switch body {
        case "noon", "中午": return TimeOfDay(unchecked: 12, 0)
        case "midnight", "午夜": return TimeOfDay(unchecked: 0, 0)
        // A part of the day said alone, at the hours a phone's reminders
        // give it: "buy milk tomorrow evening".
        case "morning", "早上", "上午": return TimeOfDay(unchecked: 8, 0)
        case "afternoon", "下午": return TimeOfDay(unchecked: 13, 0)
        case "evening", "傍晚", "晚上": return TimeOfDay(unchecked: 18, 0)
        case "night", "tonight": return TimeOfDay(unchecked: 20, 0)
        default: break
        }
        var meridiem: Character?
        for (suffix, letter) in [("a.m.", "a"), ("p.m.", "p"), ("am", "a"), ("pm", "p")] as [(String, Character)] where body.hasSuffix(suffix) {
            meridiem = letter
            body = body.dropLast(suffix.count)
            while body.last == " " { body.removeLast() }
            break
        }
        let parts = body.split(omittingEmptySubsequences: false) { $0 == ":" || $0 == "." }
        let hour: Int, minute: Int
        switch parts.count {
        case 1:
            // 7, 07, 730, 0730.
            guard let digits = Self.digits(parts[0], allowed: 1...4) else { throw invalid }
            (hour, minute) = parts[0].count <= 2 ? (digits, 0) : (digits / 100, digits % 100)
        case 2:
            guard let h = Self.digits(parts[0], allowed: 1...2), let m = Self.digits(parts[1], allowed: 2...2) else { throw invalid }
            (hour, minute) = (h, m)
        default:
            throw invalid
        }
        var hour24 = hour
        if let meridiem {
            guard (1...12).contains(hour) else {
                throw ValidationError.text(field, N_("must use an hour of 1–12 with am/pm"), got: text)
            }
            hour24 = hour % 12 + (meridiem == "p" ? 12 : 0)
        }
        guard (0...23).contains(hour24) else { throw ValidationError.text(field, N_("must have an hour of 0–23"), got: text) }
        guard (0...59).contains(minute) else { throw ValidationError.text(field, N_("must have minutes of 00–59"), got: text) }
        return try TimeOfDay(hour: hour24, minute: minute)
    }

    /// Parses an all-ASCII-digit run whose length lies in `allowed`.
    static func digits(_ text: Substring, allowed: ClosedRange<Int>) -> Int? {
        guard allowed.contains(text.utf8.count), text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return text.utf8.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}

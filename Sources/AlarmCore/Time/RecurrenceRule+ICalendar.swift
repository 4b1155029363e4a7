// SPDX-License-Identifier: Apache-2.0
/// RFC 5545's text form of a rule, the `RRULE` property's value: how
/// calendars exported by other programs (a country's holidays) say what
/// recurs, and a form people can copy between tools.
///
/// Only the parts the engine implements are read; any other part is refused
/// by name rather than dropped, because a rule read without its `BYSETPOS`
/// or `BYWEEKNO` would give other days than the calendar meant — silently
/// wrong days are worse than a clear refusal.
extension RecurrenceRule {
    /// Reads an `RRULE` value (`FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU,-1FR`)
    /// that starts on day `start` (the event's `DTSTART` date).
    ///
    /// Part names and values are read in any case and any order (RFC 5545
    /// §3.3.10 asks for `FREQ` first only of writers). `UNTIL` may be a date
    /// or a date-time, of which the date is taken (the zone is not applied:
    /// the engine works on local dates). `WKST` is read but only `MO`, the
    /// engine's week start, is accepted where the week start changes the
    /// days (a weekly rule with `INTERVAL` above 1 and `BYDAY`); elsewhere
    /// it cannot, so `WKST=SU` from a calendar program is let through.
    /// `RSCALE=GREGORIAN` and `SKIP=OMIT` (RFC 7529) are the engine's own
    /// behaviour and are accepted too. The rule is then validated, so what
    /// this returns is in the subset ``validate()`` checks, and a rule whose
    /// days of the month none of its months has is refused
    /// (``validateDaysExist()``).
    ///
    /// Errors name the `RRULE` property and its whole value, with no line:
    /// the caller knows where the value came from (``ICalendarError/line``).
    public init(icalendarValue text: String, start: Int64) throws(ICalendarError) {
        func refuse(_ requirement: String) -> ICalendarError {
            ICalendarError(property: "RRULE", value: text, requirement: requirement)
        }
        /// The comma-separated items of `value`, each read by `parse`; the
        /// first it cannot read is refused with `requirement`.
        func list<Item>(_ value: Substring, _ requirement: String, _ parse: (Substring) -> Item?) throws(ICalendarError) -> [Item] {
            var items: [Item] = []
            for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let parsed = parse(item) else { throw refuse("\(requirement), got \(ValidationError.quoted(String(item)))") }
                items.append(parsed)
            }
            return items
        }
        var frequency: Frequency?
        var interval = 1
        var byDay: [DayOfWeek] = []
        var byMonthDay: [Int] = []
        var byMonth: [Int] = []
        var until: Int64?
        var count: Int?
        var weekStart: Weekday?
        var seen: Set<String> = []
        for part in text.split(separator: ";") {
            guard let equals = part.firstIndex(of: "=") else {
                throw refuse("each part must look like NAME=value, got \(ValidationError.quoted(String(part)))")
            }
            let name = part[..<equals].uppercased()
            let value = part[part.index(after: equals)...]
            guard seen.insert(name).inserted else { throw refuse("\(name) must be given only once") }
            switch name {
            case "FREQ":
                guard let known = Frequency(rawValue: value.lowercased()) else {
                    throw refuse("FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY")
                }
                frequency = known
            case "INTERVAL":
                guard let number = Self.unsignedNumber(value) else { throw refuse("INTERVAL must be a whole number, got \(ValidationError.quoted(String(value)))") }
                interval = number
            case "BYDAY":
                byDay = try list(value, "BYDAY must list weekdays like MO, 2TU or -1FR", Self.dayOfWeek)
            case "BYMONTHDAY":
                byMonthDay = try list(value, "BYMONTHDAY must list days of the month like 1 or -1", Self.signedNumber)
            case "BYMONTH":
                byMonth = try list(value, "BYMONTH must list months like 1 or 12", Self.unsignedNumber)
            case "UNTIL":
                guard let date = Self.icalendarDate(value) else {
                    throw refuse("UNTIL must be a date like 20301231 or a date-time like 20301231T235959Z, got \(ValidationError.quoted(String(value)))")
                }
                until = date.day
            case "COUNT":
                guard let number = Self.unsignedNumber(value) else { throw refuse("COUNT must be a whole number, got \(ValidationError.quoted(String(value)))") }
                count = number
            case "WKST":
                guard value.count == 2, let index = Self.icalendarWeekdays.firstIndex(of: value.uppercased()) else {
                    throw refuse("WKST must be a weekday like MO, got \(ValidationError.quoted(String(value)))")
                }
                weekStart = Weekday(rawValue: index)
            case "RSCALE":
                guard value.uppercased() == "GREGORIAN" else { throw refuse("RSCALE must be GREGORIAN") }
            case "SKIP":
                guard value.uppercased() == "OMIT" else { throw refuse("SKIP must be OMIT (a day a month lacks is passed over)") }
            case "BYSETPOS", "BYYEARDAY", "BYWEEKNO", "BYHOUR", "BYMINUTE", "BYSECOND":
                throw refuse("\(name) is not supported (only FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, UNTIL, COUNT and WKST are)")
            default:
                throw refuse("\(ValidationError.quoted(name)) is not an RRULE part")
            }
        }
        guard let frequency else { throw refuse("FREQ must be given") }
        if until != nil, count != nil { throw refuse("UNTIL and COUNT must not both be given") }
        if let weekStart, weekStart != .monday, frequency == .weekly, interval > 1, !byDay.isEmpty {
            throw refuse("WKST must be MO in a weekly rule with INTERVAL and BYDAY (weeks start on Monday here)")
        }
        let end: End? = until.map { .until($0) } ?? count.map { .count($0) }
        self.init(frequency, interval: interval, byDay: byDay, byMonthDay: byMonthDay, byMonth: byMonth, start: start, end: end)
        do {
            try validate()
            try validateDaysExist()
        } catch {
            throw refuse(Self.icalendarRequirement(error, byDay: byDay))
        }
    }

    /// The canonical `RRULE` value: `FREQ` first, then `INTERVAL` (when not
    /// 1), `BYDAY`, `BYMONTHDAY`, `BYMONTH`, and `UNTIL` (as a date) or
    /// `COUNT`. ``init(icalendarValue:start:)`` reads it back to this rule.
    /// The start and the exceptions are not part of an `RRULE`: a calendar
    /// writes them as `DTSTART` and `EXDATE`.
    public var icalendarValue: String {
        var parts = ["FREQ=" + frequency.rawValue.uppercased()]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if !byDay.isEmpty {
            parts.append("BYDAY=" + byDay.map { ($0.ordinal.map(String.init) ?? "") + Self.icalendarWeekdays[$0.weekday.rawValue] }.joined(separator: ","))
        }
        if !byMonthDay.isEmpty { parts.append("BYMONTHDAY=" + byMonthDay.map(String.init).joined(separator: ",")) }
        if !byMonth.isEmpty { parts.append("BYMONTH=" + byMonth.map(String.init).joined(separator: ",")) }
        switch end {
        case .until(let day)?: parts.append("UNTIL=" + Self.icalendarDateText(day))
        case .count(let count)?: parts.append("COUNT=\(count)")
        case nil: break
        }
        return parts.joined(separator: ";")
    }

    // MARK: Dates, shared with HolidayCalendar

    /// A `DATE` (`20261225`) or `DATE-TIME` (`20261225T090000`, `Z` for UTC)
    /// value: its day number and, for a date-time, the seconds into that day.
    /// Its zone (the `Z` or a `TZID` parameter) is not applied: holidays and
    /// rule days are local dates, and a calendar's all-day events are
    /// written as local midnights. `nil` for any other text, or a day that
    /// does not exist (`20260230`).
    static func icalendarDate(_ text: Substring) -> (day: Int64, seconds: Int64?)? {
        let bytes = Array(text.utf8)
        let isDateTime = (bytes.count == 15 || (bytes.count == 16 && bytes[15] == UInt8(ascii: "Z"))) && bytes[8] == UInt8(ascii: "T")
        guard bytes.count == 8 || isDateTime else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let dayNumber = CivilTime.dayNumber(isoDate: String(decoding: bytes[0..<8], as: UTF8.self), basic: true) else { return nil }
        guard isDateTime else { return (dayNumber, nil) }
        // A leap second (60) is allowed by RFC 5545; it is taken as 59.
        guard let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
              hour < 24, minute < 60, second <= 60 else { return nil }
        return (dayNumber, Int64(hour * 3600 + minute * 60 + min(second, 59)))
    }

    /// `20261225`.
    public static func icalendarDateText(_ day: Int64) -> String {
        let date = CivilTime.date(dayNumber: day)
        return LocalDateTime.pad(date.year, 4) + LocalDateTime.pad(date.month, 2) + LocalDateTime.pad(date.day, 2)
    }

    // MARK: Parts

    /// RFC 5545's weekday codes, indexed by ``Weekday/rawValue``.
    static let icalendarWeekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// `MO`, `2TU`, `+1WE`, `-1FR`. The ordinal's range is left to
    /// ``validate()``, which says what it must be.
    private static func dayOfWeek(_ text: Substring) -> DayOfWeek? {
        guard text.count >= 2, let index = icalendarWeekdays.firstIndex(of: text.suffix(2).uppercased()) else { return nil }
        let prefix = text.dropLast(2)
        guard !prefix.isEmpty else { return DayOfWeek(Weekday(rawValue: index)!) }
        guard let ordinal = signedNumber(prefix) else { return nil }
        return DayOfWeek(Weekday(rawValue: index)!, ordinal: ordinal)
    }

    /// Digits only, at most 6 of them (larger numbers are refused by range
    /// anyway, and this keeps them from overflowing).
    private static func unsignedNumber(_ text: Substring) -> Int? {
        guard (1...6).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// Digits with an optional `+` or `-`.
    private static func signedNumber(_ text: Substring) -> Int? {
        guard let first = text.first else { return nil }
        if first == "+" || first == "-" {
            guard let magnitude = unsignedNumber(text.dropFirst()) else { return nil }
            return first == "-" ? -magnitude : magnitude
        }
        return unsignedNumber(text)
    }

    /// ``validate()``'s message, with the field named as the `RRULE` part
    /// it came from (`COUNT`, not the wire's `times`), and a weekday in
    /// RRULE form (`6MO`, not `6 mon`).
    private static func icalendarRequirement(_ error: ValidationError, byDay: [DayOfWeek]) -> String {
        let parts = ["interval": "INTERVAL", "byDay": "BYDAY", "byMonthDay": "BYMONTHDAY", "byMonth": "BYMONTH",
                     "times": "COUNT", "until": "UNTIL", "exceptions": "EXDATE"]
        var value = error.value
        if error.field == "byDay", let day = byDay.first(where: { "\($0.ordinal ?? 0) \($0.weekday.code)" == error.value }) {
            value = String(day.ordinal ?? 0) + icalendarWeekdays[day.weekday.rawValue]
        }
        return "\(parts[error.field] ?? error.field) \(error.requirement), got \(value)"
    }
}

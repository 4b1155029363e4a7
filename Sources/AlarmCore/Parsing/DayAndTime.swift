// SPDX-License-Identifier: Apache-2.0
/// A day, a time of day, or both, as people type them for an alarm or a
/// reminder: `7:30`, `tomorrow 7am`, `fri 9:00`, `9:00 fri`, `next tue at
/// 2pm`, `dec 24 9am`, `1st of month`, `2026-12-24 9:00`, `today`, and in
/// Traditional Chinese `明天早上7點`, `下週二下午2點`, `週五 9:00`. Only day
/// forms that read the same in every locale: words, weekday and month names
/// and ISO dates (`12/05` is May in one country and December in the next).
/// ``SpokenWords`` cuts the text into its tokens.
///
/// Pure: ``resolve(now:rules:)`` turns it into a local day and time with the
/// clock and zone the caller passes.
public struct DayAndTime: Hashable, Sendable {
    public enum Day: Hashable, Sendable {
        case today
        case tomorrow
        case yesterday
        /// 後天.
        case dayAfterTomorrow
        /// The next such weekday: today if the time is still ahead (the
        /// last one, looking back).
        case weekday(Weekday)
        /// `next tue`: the first such weekday after today, never today (the
        /// last one before today, looking back).
        case nextWeekday(Weekday)
        /// 下週二: that weekday in the week after this one (weeks start on Monday).
        case nextWeek(Weekday)
        /// `dec 24`: the next such date whose time is ahead, this year or a
        /// later one (the last one whose time has come, looking back).
        case monthDay(month: Int, day: Int)
        /// `1st`, `15th of the month`: the next month's day of that number
        /// whose time is ahead; months without it are passed over.
        case dayOfMonth(Int)
        /// A day number.
        case date(Int64)
    }

    public var day: Day?
    public var time: TimeOfDay?

    public init(day: Day? = nil, time: TimeOfDay? = nil) {
        self.day = day
        self.time = time
    }

    /// What ``parse(_:field:requireTime:)`` takes, every form listed, and
    /// the same where a time is required (catalog messages).
    static let requirement = N_("must be a time (7:30, 7am, noon, 下午2點), a day (tomorrow, fri, next tue, dec 24, 1st, 2026-12-24, 明天), or both (tomorrow 7:30, next tue at 2pm)")
    static let timeRequirement = N_("must be a time, or a day and a time: a time (7:30, 7am, noon, 下午2點), a day (tomorrow, fri, next tue, dec 24, 1st, 2026-12-24, 明天), or both (tomorrow 7:30, next tue at 2pm)")

    /// The longest text looked at: nothing people type is longer.
    static let maxLength = 64

    /// Parses `text`; at most one day and one time, in either order,
    /// separated by spaces (`7:30 pm` is one time). `requireTime` refuses a
    /// day alone (an alarm needs a time; a reminder's day alone is all-day).
    public static func parse(_ text: String, field: String, requireTime: Bool = false) throws(ValidationError) -> DayAndTime {
        var invalid: ValidationError { .text(field, requireTime ? timeRequirement : requirement, got: text) }
        guard text.utf8.count <= maxLength else { throw invalid }
        let tokens = SpokenWords.tokens(Self.splittingISODateTime(text))
        guard (1...2).contains(tokens.count) else { throw invalid }
        var result = DayAndTime()
        var timeError: ValidationError?
        for token in tokens {
            let day: Day?, word: String
            switch token {
            case .next(let weekday): (day, word) = (.nextWeekday(weekday), "")
            case .monthDay(let month, let dayOfMonth): (day, word) = (.monthDay(month: month, day: dayOfMonth), "")
            case .word(let text): (day, word) = (Self.day(text), text)
            }
            if let day {
                guard result.day == nil else { throw invalid }
                result.day = day
                continue
            }
            guard result.time == nil else { throw invalid }
            if let time = SpokenWords.chineseTime(word) {
                result.time = time
                continue
            }
            do { result.time = try TimeOfDay.parse(word, field: field) } catch {
                // A time with its own mistake (25:00) gets its own reason.
                // It quotes the word as it was typed, not as read (lower case).
                if word.first?.isNumber == true, word.contains(where: { $0 == ":" || $0 == "." }) || word.hasSuffix("m") {
                    let typed = Self.splittingISODateTime(text).split(separator: " ").first { $0.lowercased() == word }.map(String.init) ?? word
                    timeError = .text(error.field, error.requirement, got: typed)
                }
                throw timeError ?? invalid
            }
        }
        if requireTime, result.time == nil { throw invalid }
        return result
    }

    /// `2026-12-24T07:00`, as ISO 8601 writes a local date and time, read
    /// as `2026-12-24 07:00`; any other text as it is.
    static func splittingISODateTime(_ text: String) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.count > 11, utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: "t"), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(utf8[11]),
              CivilTime.dayNumber(isoDate: String(decoding: utf8[..<10], as: UTF8.self)) != nil else { return text }
        return String(decoding: utf8[..<10], as: UTF8.self) + " " + String(decoding: utf8[11...], as: UTF8.self)
    }

    /// `in 25 min`: the local day and minute `seconds` after `now` in
    /// `rules`' zone, at the nearest minute and never one already begun.
    public static func minute(after seconds: Int64, from now: Int64, rules: ZoneRules) -> (day: Int64, time: TimeOfDay) {
        func wallMinutes(_ instant: Int64, rounding: Int64) -> Int64 {
            CivilTime.floorDiv(instant + Int64(rules.offset(at: instant)) + rounding, 60)
        }
        let minutes = max(wallMinutes(now + seconds, rounding: 30), wallMinutes(now, rounding: 0) + 1)
        let minuteOfDay = Int(CivilTime.floorMod(minutes, 1440))
        return (CivilTime.floorDiv(minutes, 1440), (try? TimeOfDay(hour: minuteOfDay / 60, minute: minuteOfDay % 60)) ?? .midnight)
    }

    /// `today`, `tomorrow`, `fri`, `friday`, `1st`, `2026-12-24`, `明天`,
    /// `週五`; `nil` for anything else.
    static func day(_ word: String) -> Day? {
        switch word {
        case "today": return .today
        // With the slips people make typing it.
        case "tomorrow", "tmrw", "tmr", "tomorow", "tommorow", "tommorrow", "tomorrw": return .tomorrow
        case "yesterday": return .yesterday
        default:
            if let weekday = Weekday(name: word) { return .weekday(weekday) }
            if let number = SpokenWords.ordinal(word) { return .dayOfMonth(number) }
            if let day = SpokenWords.chineseDay(word) { return day }
            return CivilTime.dayNumber(isoDate: word).map(Day.date)
        }
    }

    /// The local day (a day number) this names, seen from `now` in `rules`'
    /// zone, with `time` (or `allDay`, for a day alone) deciding whether
    /// today still counts for a time alone or a weekday: a time already
    /// passed today means tomorrow; a weekday means the next one whose
    /// time is still ahead. A date or `today` is that day even when it has
    /// passed: whether the past is allowed is the caller's to say.
    /// `lookingBack` (`history --since mon`) turns the search around: a time
    /// alone is today once it has come, else yesterday; a weekday is the
    /// last one whose time has come.
    public func resolveDay(now: Int64, rules: ZoneRules, allDay: TimeOfDay, lookingBack: Bool = false) -> Int64 {
        let today = rules.localDay(at: now)
        let seconds = Int64((time ?? allDay).secondsIntoDay)
        func ahead(_ day: Int64) -> Bool { rules.instant(forWall: day * CivilTime.secondsPerDay + seconds) > now }
        switch day {
        case nil:
            if lookingBack { return ahead(today) ? today - 1 : today }
            return ahead(today) ? today : today + 1
        case .today?:
            return today
        case .tomorrow?:
            return today + 1
        case .yesterday?:
            return today - 1
        case .dayAfterTomorrow?:
            return today + 2
        case .nextWeekday(let weekday)?:
            if lookingBack {
                let offset = Int64((CivilTime.weekday(dayNumber: today).weekPosition - weekday.weekPosition + 7) % 7)
                return today - (offset == 0 ? 7 : offset)
            }
            let offset = Int64((weekday.weekPosition - CivilTime.weekday(dayNumber: today).weekPosition + 7) % 7)
            return today + (offset == 0 ? 7 : offset)
        case .nextWeek(let weekday)?:
            let monday = today - Int64(CivilTime.weekday(dayNumber: today).weekPosition)
            return monday + 7 + Int64(weekday.weekPosition)
        case .monthDay(let month, let dayOfMonth)?:
            // Feb 29 comes round within eight years; every other date within one.
            let year = CivilTime.date(dayNumber: today).year
            let years = lookingBack ? Array((year - 8...year).reversed()) : Array(year...year + 8)
            for year in years where dayOfMonth <= CivilTime.daysInMonth(year: year, month: month) {
                let candidate = CivilTime.dayNumber(year: year, month: month, day: dayOfMonth)
                if lookingBack ? candidate <= today && !ahead(candidate) : candidate >= today && ahead(candidate) { return candidate }
            }
            return today
        case .dayOfMonth(let number)?:
            // Every day number up to 31 comes round within a few months.
            let (year, month, _) = CivilTime.date(dayNumber: today)
            for step in 0...12 {
                let index = year * 12 + (month - 1) + (lookingBack ? -step : step)
                let (candidateYear, candidateMonth) = (index / 12, index % 12 + 1)
                guard number <= CivilTime.daysInMonth(year: candidateYear, month: candidateMonth) else { continue }
                let candidate = CivilTime.dayNumber(year: candidateYear, month: candidateMonth, day: number)
                if lookingBack ? candidate <= today && !ahead(candidate) : candidate >= today && ahead(candidate) { return candidate }
            }
            return today
        case .weekday(let weekday)?:
            if lookingBack {
                // The last such weekday whose time has come: today, or up to a week ago.
                let offset = Int64((CivilTime.weekday(dayNumber: today).weekPosition - weekday.weekPosition + 7) % 7)
                let candidate = today - offset
                return offset == 0 && ahead(candidate) ? candidate - 7 : candidate
            }
            let offset = Int64((weekday.weekPosition - CivilTime.weekday(dayNumber: today).weekPosition + 7) % 7)
            let candidate = today + offset
            return offset == 0 && !ahead(candidate) ? candidate + 7 : candidate
        case .date(let date)?:
            return date
        }
    }
}

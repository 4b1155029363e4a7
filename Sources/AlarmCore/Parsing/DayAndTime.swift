// SPDX-License-Identifier: Apache-2.0
/// A day, a time of day, or both, as people type them for an alarm or a
/// reminder: `7:30`, `tomorrow 7am`, `fri 9:00`, `9:00 fri`,
/// `2026-12-24 9:00`, `today`. Only day forms that read the same in every
/// locale: words, weekday names and ISO dates (`12/05` is May in one country
/// and December in the next).
///
/// Pure: ``resolve(now:rules:)`` turns it into a local day and time with the
/// clock and zone the caller passes.
public struct DayAndTime: Hashable, Sendable {
    public enum Day: Hashable, Sendable {
        case today
        case tomorrow
        case yesterday
        /// The next such weekday: today if the time is still ahead (the
        /// last one, looking back).
        case weekday(Weekday)
        /// A day number.
        case date(Int64)
    }

    public var day: Day?
    public var time: TimeOfDay?

    public init(day: Day? = nil, time: TimeOfDay? = nil) {
        self.day = day
        self.time = time
    }

    /// Every form, for messages that list them.
    public static let forms = "a time (" + TimeOfDay.forms + "), a day (today, tomorrow, yesterday, a weekday such as fri, "
        + "or YYYY-MM-DD), or both in either order (tomorrow 7:30, 9:00 fri, 2026-12-24 9:00)"

    /// The longest text looked at: nothing people type is longer.
    static let maxLength = 64

    /// Parses `text`; at most one day and one time, in either order,
    /// separated by spaces (`7:30 pm` is one time). `requireTime` refuses a
    /// day alone (an alarm needs a time; a reminder's day alone is all-day).
    public static func parse(_ text: String, field: String, requireTime: Bool = false) throws(ValidationError) -> DayAndTime {
        var invalid: ValidationError { .text(field, N_("must be ") + (requireTime ? "a time, or a day and a time: " + forms : forms), got: text) }
        guard text.utf8.count <= maxLength else { throw invalid }
        var words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        // `7:30 pm`, `7 a.m.`: the meridiem belongs to the time before it.
        var index = 1
        while index < words.count {
            if ["am", "pm", "a.m.", "p.m."].contains(words[index]) {
                words[index - 1] += words[index]
                words.remove(at: index)
            } else {
                index += 1
            }
        }
        guard (1...2).contains(words.count) else { throw invalid }
        var result = DayAndTime()
        var timeError: ValidationError?
        for word in words {
            if let day = Self.day(word) {
                guard result.day == nil else { throw invalid }
                result.day = day
                continue
            }
            guard result.time == nil else { throw invalid }
            do { result.time = try TimeOfDay.parse(word, field: field) } catch {
                // A time with its own mistake (25:00) gets its own reason.
                if word.first?.isNumber == true, word.contains(where: { $0 == ":" || $0 == "." }) || word.hasSuffix("m") { timeError = error }
                throw timeError ?? invalid
            }
        }
        if requireTime, result.time == nil { throw invalid }
        return result
    }

    /// `today`, `tomorrow`, `fri`, `friday`, `2026-12-24`; `nil` for anything else.
    static func day(_ word: String) -> Day? {
        switch word {
        case "today": return .today
        case "tomorrow", "tmrw": return .tomorrow
        case "yesterday": return .yesterday
        default:
            if let weekday = Weekday(name: word) { return .weekday(weekday) }
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

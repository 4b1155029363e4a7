// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// The calendar options `add`, `edit`, `preview` and `remind add/edit`
/// share, read into a ``RecurrenceRule``: a date, every N days or weeks,
/// monthly, yearly, from a start, until a day or for a number of times,
/// minus exceptions. Checked here, so a mistake is a usage error naming the
/// option, its value and the forms it takes.
enum RuleOptions {
    static let date = Option("date", "YYYY-MM-DD", .date, N_("once, on that date"), fills: "fields.rule.starting")
    static let every = Option("every", "INTERVAL", .interval, N_("INTERVAL: every N days (3d), or every N weeks (2w) on the --days given (default: the start's weekday)"))
    static let monthly = Option("monthly", "SPEC", .text,
                                N_("monthly: on a day (15), the last day (-1), or a weekday (2nd-tue, last-fri; 1st–4th, last); months without day 29–31 are skipped"))
    static let yearly = Option("yearly", "MM-DD", .text, N_("yearly on that day (12-24)"))
    static let starting = Option("starting", "YYYY-MM-DD", .date, N_("the first day it may ring, and where --every counts from (default: today)"))
    static let until = Option("until", "YYYY-MM-DD", .date, N_("the last day it may ring"))
    static let times = Option("times", "N", .number, N_("ring this many times in all (1–9999), then stop"))
    static let except = Option("except", "DATES", .date, N_("not on these dates: YYYY-MM-DD, comma-separated"))

    /// The rule's options, in the order help lists them.
    static let options = [date, every, monthly, yearly, starting, until, times, except]
    /// A reminder's: its due time gives the day and the start, unless
    /// `--starting` says otherwise (`--on` is its `--date`).
    static let reminderOptions = [every, monthly, yearly, starting, until, times, except]
    static let reminderFrequencies = Alternatives(every, monthly, yearly)

    static let frequencies = Alternatives(every, date, monthly, yearly)
    static let ends = Alternatives(until, times)

    /// The rule the options describe: `nil` when none of them was given (the
    /// repeat is `--days` alone, or nothing); otherwise a rule, with `days`
    /// (from `--days`) as its weekdays. `today` is the default start.
    static func rule(_ arguments: ParsedArguments, days: RepeatDays?, today: Int64) throws(CLIError) -> RecurrenceRule? {
        let declared = options.filter(arguments.spec.declares)
        guard arguments.hasAny(declared) else { return nil }
        try arguments.exclusive(arguments.spec.declares(date) ? frequencies : reminderFrequencies)
        try arguments.exclusive(ends)
        let start = try arguments.spec.declares(starting) ? day(arguments, starting, today: today) ?? today : today
        var rule: RecurrenceRule
        if arguments.spec.declares(date), let text = arguments.value(date) {
            for option in [starting, until, times, every] where arguments.hasAny([option]) {
                throw .usage(Lf("--date is one day; --%s cannot be used with it", option.name))
            }
            if days.map({ !$0.isEmpty }) ?? false { throw .usage(L("--date is one day; --days cannot be used with it")) }
            rule = .once(on: try dayNumber(text, option: date, today: today))
        } else if let text = arguments.value(every) {
            rule = try everyRule(text, days: days ?? [], start: start)
        } else if let text = arguments.value(monthly) {
            try noDays(days, monthly)
            rule = RecurrenceRule(.monthly, start: start)
            try monthlyDay(text, into: &rule)
        } else if let text = arguments.value(yearly) {
            try noDays(days, yearly)
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let month = Int(parts[0]), let day = Int(parts[1]), parts[0].count == 2, parts[1].count == 2,
                  (1...12).contains(month), (1...CivilTime.daysInMonth(year: 2000, month: month)).contains(day)
            else { throw .usage(Lf("--yearly must be a day of the year as MM-DD, like 12-24, got %s", inQuotes(text))) }
            rule = RecurrenceRule(.yearly, byMonthDay: [day], byMonth: [month], start: start)
        } else if let days, !days.isEmpty {
            // --days with --starting, --until, --times or --except: weekly.
            rule = .weekly(on: days, start: start)
        } else {
            let shapes = declared.filter { ![date, every, monthly, yearly].contains($0) }.map { "--" + $0.name }
            throw .usage(Lf("%s shape a repeat: give --days, --every, --monthly or --yearly with them", shapes.joined(separator: ", ")))
        }
        if let last = try day(arguments, until, today: today) {
            guard last >= rule.start else {
                throw .usage(Lf("--until must not be before the start (%1$s), got %2$s", RecurrenceRule.dateText(rule.start), RecurrenceRule.dateText(last)))
            }
            rule.end = .until(last)
        }
        if let count = try arguments.integer(times, in: RecurrenceRule.countRange) { rule.end = .count(count) }
        if let text = arguments.value(except) {
            let dates = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0.filter { $0 != " " }) }
            guard dates.count <= RecurrenceRule.maxExceptions else {
                throw .usage(Lf("--except takes at most %1$s dates, got %2$s", RecurrenceRule.maxExceptions, dates.count))
            }
            for text in dates {
                guard let day = CivilTime.dayNumber(isoDate: text) else { throw dateError(except, text) }
                rule.exceptions.insert(day)
            }
        }
        do {
            try rule.validate()
            try rule.validateDaysExist()
        } catch { throw .usage(Lf("the repeat is not valid: %1$s %2$s, got %3$s", error.field, error.requirement, error.value)) }
        return rule
    }

    /// `3d` or `2w` (also `3 days`, `2 weeks`, `1day`, and `day`, `week`,
    /// `other week` as people say them after "every").
    private static func everyRule(_ text: String, days: RepeatDays, start: Int64) throws(CLIError) -> RecurrenceRule {
        var lower = text.lowercased().filter { $0 != " " }
        if lower.hasPrefix("other"), lower.dropFirst(5).first?.isLetter == true { lower = "2" + lower.dropFirst(5) }
        let digits = lower.prefix { $0.isASCIIDigit }
        let unit = lower.dropFirst(digits.count)
        let usage = CLIError.usage(Lf("--every must be a number of days or weeks, 1–999, like 3d or 2w, got %s", inQuotes(text)))
        guard let count = digits.isEmpty ? 1 : Int(digits), RecurrenceRule.intervalRange.contains(count) else { throw usage }
        switch unit {
        case "d", "day", "days":
            guard days.isEmpty else {
                throw .usage(Lf("--every %s counts days; --days goes with weeks (--every 2w --days mon,thu)", text))
            }
            return RecurrenceRule(.daily, interval: count, start: start)
        case "w", "week", "weeks":
            return .weekly(on: days, every: count, start: start)
        default:
            throw usage
        }
    }

    /// `15`, `-1`, `2nd-tue`, `last-fri`.
    private static func monthlyDay(_ text: String, into rule: inout RecurrenceRule) throws(CLIError) {
        let usage = CLIError.usage(Lf("--monthly must be a day of the month (1–31), -1 for the last day, or a weekday in the month like 2nd-tue or last-fri (1st, 2nd, 3rd, 4th, last), got %s", inQuotes(text)))
        let lower = text.lowercased()
        if let day = Int(lower) {
            guard (1...31).contains(day) || day == -1 else { throw usage }
            rule.byMonthDay = [day]
            return
        }
        let parts = lower.split(separator: "-", maxSplits: 1)
        let ordinals = ["1st": 1, "first": 1, "2nd": 2, "second": 2, "3rd": 3, "third": 3, "4th": 4, "fourth": 4, "last": -1]
        guard parts.count == 2, let ordinal = ordinals[String(parts[0])], let weekday = Weekday(name: String(parts[1])) else { throw usage }
        rule.byDay = [.init(weekday, ordinal: ordinal)]
    }

    private static func noDays(_ days: RepeatDays?, _ option: Option) throws(CLIError) {
        if let days, !days.isEmpty {
            throw .usage(Lf("--%s names its own day; --days goes with --every 2w (or alone, for every week)", option.name))
        }
    }

    private static func day(_ arguments: ParsedArguments, _ option: Option, today: Int64) throws(CLIError) -> Int64? {
        guard let text = arguments.value(option) else { return nil }
        return try dayNumber(text, option: option, today: today)
    }

    /// A day as `--date`, `--starting` and `--until` take it: YYYY-MM-DD,
    /// or a day in words as TIME takes one (`dec 24`, `tomorrow`, `fri`,
    /// `明天`), the next such day from `today` on.
    static func dayNumber(_ text: String, option: Option, today: Int64) throws(CLIError) -> Int64 {
        if let day = CivilTime.dayNumber(isoDate: text) { return day }
        guard let when = try? DayAndTime.parse(text, field: "--" + option.name), when.time == nil, when.day != nil else { throw dateError(option, text) }
        return when.resolveDay(now: today * CivilTime.secondsPerDay, rules: Zone.utc.rules, allDay: .midnight)
    }

    static func dateError(_ option: Option, _ text: String) -> CLIError {
        .usage(Lf("--%1$s must be a date as YYYY-MM-DD (2026-12-24) or a day in words (dec 24, tomorrow), got %2$s", option.name, inQuotes(text)))
    }

    /// Today in `zone`, as a day number.
    static func today(_ now: Date, in zone: Zone) -> Int64 {
        zone.rules.localDay(at: now.epochSecondsFloor)
    }
}

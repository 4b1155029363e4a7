// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// `alarmctl preview`: the next firings of a schedule, computed locally with the
/// daemon's own time rules, so it works with no daemon running.
enum PreviewCommand {
    static let command = Command(spec: spec, run: run)

    static let days = Option("days", "SPEC", .days, N_("repeat days: mon,wed,fri  mon-fri  weekdays  weekends  daily  never (default)"))
    static let count = Option("count", "N", .number, N_("how many firings to show, 1–1000 (default 5)"))
    static let from = Option("from", "WHEN", .instant, N_("start after WHEN: 2026-03-07T12:00:00Z, …-05:00, YYYY-MM-DD HH:MM (local), tomorrow, fri 9:00; a day alone from its midnight"))
    static let tz = Option("tz", "ZONE", .zone, N_("IANA time zone such as Europe/Berlin (default: the system zone, or TZ)"))
    static let json = Option(flag: "json", N_("print a JSON array of {local, utc, weekday, shifted}, plus {…, skipped} for passed-over days"))
    static let holidays = Option("holidays", "FILE", .file, N_("pass over the days this iCalendar file lists, as --skip-holidays does with [Alarms] Holidays="))
    /// `--starting` as add has it, but for its default: a preview starts at `--from`.
    static let starting = Option("starting", "YYYY-MM-DD", .date, N_("the first day it may ring, and where --every counts from (default: the --from day)"))
    /// How many passed-over days a preview shows at most, besides its firings.
    static let maxSkipped = 1000

    static let spec = CommandSpec(
        name: "preview",
        summary: N_("Show when an alarm at TIME would fire, without creating it (no daemon needed)."),
        details: N_("""
            Reads TIME as add does, as if it were --from: with a day (fri 9:00) or a moment
            from then (in 20 min) it is a one-off alarm. Uses the same rules as alarmd: a time
            skipped by a DST change fires just after the gap, a time that happens twice fires
            once, at its first occurrence. Takes the calendar options of add; --starting
            defaults to the --from day. A monthly rule on day 29-31 skips months without that
            day (RFC 5545). Days passed over by --except or --holidays are listed too, marked
            skipped.
            """),
        positionals: [Positional("TIME", .timeOfDay, repeated: true)],
        options: [days] + RuleOptions.options.map { $0.name == starting.name ? starting : $0 } + [holidays, count, from, tz, json],
        alternatives: [RuleOptions.frequencies, RuleOptions.ends],
        examples: [
            "alarmctl preview 7:30 --days weekdays",
            "alarmctl preview 9:00 --monthly 31 --count 6",
            "alarmctl preview 7:00 --days weekdays --holidays /usr/share/holidays/tw.ics --json",
            "alarmctl preview 2:30am --days daily --tz America/New_York --from 2026-03-07",
            "alarmctl preview 6:45pm --days daily --count 3 --json",
            "alarmctl preview 9:30 saturdays",
            "alarmctl preview fri 9:00 --from 2026-12-24",
        ]
    )

    static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CLIError) {
        let count = try arguments.integer(Self.count, in: 1...1000, default: 5)
        var zone = context.systemZone
        if let name = arguments.value(Self.tz) { zone = try Self.zone(named: name) }
        let rules = zone.rules
        var from = context.now
        if let text = arguments.value(Self.from) {
            from = try WhenParser.instant(text, option: "--from", now: context.now, zone: zone)
        }
        // TIME exactly as add reads it, seen from --from: `7:30`, `下午2點`,
        // a repeat in words (`9:30 saturdays`), or a one-off alarm on a day
        // (`tomorrow 7:00`) or from now (`in 20 min`).
        var fields = AlarmFields()
        if let spec = arguments.value(Self.days) {
            do { fields.days = try RepeatDays.parse(spec, field: "--days") } catch { throw .invalid(error) }
        }
        let time = try AlarmFieldOptions.readTime(arguments.positionals.spaced, field: "TIME", into: &fields, arguments, zone: zone, now: from)
        let days = fields.days ?? .never
        // The rule TIME said (a repeat in words, a day) or the options' rule.
        let recurrence: RecurrenceRule?
        if case let said?? = fields.rule {
            recurrence = said
        } else {
            recurrence = try RuleOptions.rule(arguments, days: days, today: RuleOptions.today(from, in: zone))
        }
        var calendar = HolidayCalendar.empty
        if let path = arguments.value(Self.holidays) {
            // As the daemon does: a file that does not parse counts no days,
            // and says so.
            let (loaded, problems) = HolidayCalendar.load([path], home: nil) { path in try? FileIO.read(path) }
            for problem in problems { context.standardError("alarmctl: " + Lf("warning: %s; its days do not count as holidays", problem) + "\n") }
            calendar = loaded
        }
        // Walk the rule without its exceptions and holidays, marking the
        // days they take out, so the preview shows what passes over what.
        let alarm = Alarm(time: time, days: recurrence == nil ? days : .never, recurrence: recurrence.map { rule in
            var plain = rule
            plain.exceptions = []
            return plain
        }, created: from)
        let exceptions = recurrence?.exceptions ?? []
        var fires: [Fire] = []
        var cursor = from
        var skippedCount = 0
        // A one-shot alarm rings once, at the first; add makes one of a time alone.
        let wanted = alarm.isOneShot ? 1 : count
        while fires.count - skippedCount < wanted, skippedCount < Self.maxSkipped,
              let next = alarm.nextFire(after: cursor, in: zone) {
            cursor = next
            let instant = next.epochSecondsFloor
            let local = rules.localDateTime(at: instant)
            let day = CivilTime.dayNumber(year: local.year, month: local.month, day: local.day)
            let skipped: String? = exceptions.contains(day) ? "exception" : calendar.contains(day) ? "holiday" : nil
            if skipped != nil { skippedCount += 1 }
            fires.append(Fire(instant: instant, local: local, shifted: local.hour != time.hour || local.minute != time.minute, skipped: skipped))
        }
        if arguments.flag(Self.json) {
            context.standardOutput(JSONValue.array(fires.map(\.json)).jsonText + "\n")
        } else {
            var lines = fires.map { $0.humanLine(requested: time) }
            if let rule = recurrence {
                lines.insert(rule.text(in: userLanguage) + (rule.skippedMonthsNote.map { Lf(" (%s, as RFC 5545 says)", L($0)) } ?? ""), at: 0)
            }
            context.standardOutput(lines.joined(separator: "\n") + "\n")
        }
    }

    /// The zone `--tz` names, or a usage error that quotes it.
    static func zone(named name: String) throws(CLIError) -> Zone {
        guard let zone = ZoneName.zone(name) else {
            throw .usage(Lf("--tz must be an IANA time zone such as Europe/Berlin, got %s", inQuotes(name)))
        }
        return zone
    }

    struct Fire {
        let instant: Int64
        let local: LocalDateTime
        /// The requested wall time did not exist that day (DST gap).
        let shifted: Bool
        /// Why the day is passed over (`exception`, `holiday`), if it is.
        var skipped: String? = nil

        /// `2026-03-08 Sun 03:30 -04:00`, plus a note when a DST gap moved it.
        func humanLine(requested: TimeOfDay) -> String {
            var line = userLanguage.dateWeekdayTime(local) + " " + local.offsetText
            if shifted { line += "  " + Lf("(%s does not exist that day: DST gap)", userLanguage.time(requested)) }
            if let skipped { line += "  " + Lf("skipped (%s)", skipped == "holiday" ? L("holiday") : L("exception")) }
            return line
        }

        var json: JSONValue {
            let utc = LocalDateTime(localSeconds: instant, utcOffset: 0)
            var object: JSONObject = [
                "local": .string(local.description),
                "utc": .string(utc.dateText + "T" + utc.timeText + "Z"),
                "weekday": .string(local.weekday.code),
                "shifted": .bool(shifted),
            ]
            if let skipped { object["skipped"] = .string(skipped) }
            return .object(object)
        }
    }
}

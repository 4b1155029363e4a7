// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// `skip` and `unskip`: an alarm's next occurrence, or chosen days. Chosen
/// days are the repeat's exceptions (what `--except` sets): a repeat by
/// `--days` becomes the same weekly repeat with them, and a later `edit
/// --days` keeps them.
enum SkipCommands {
    private static let alarmID = Positional("ID", .alarmID)
    private static let days = Positional("DAYS", .date, optional: true, repeated: true)

    static let skip = command(name: "skip", skip: true)
    static let unskip = command(name: "unskip", skip: false)

    private static func command(name: String, skip: Bool) -> Command {
        Command(
            spec: CommandSpec(
                name: name,
                summary: skip ? N_("Pass over an alarm's next occurrence, or chosen days, silently.")
                    : N_("Undo skip: let the next occurrence, or the days given, ring."),
                details: skip ? N_("""
                    Without DAYS the next occurrence passes; the alarm rings again at the one after,
                    and the skip clears itself once used. DAYS are days (2026-12-24, tomorrow, fri,
                    dec 24), ranges (2026-12-07..2026-12-11, dec 14 to dec 18, dec 14-18), next week
                    or days of it (mon-fri next week, 下週), comma-separated: each occurrence on
                    them passes, and the alarm rings as usual around them.
                    Days it does not ring on are said and left alone.
                    """) : N_("Without DAYS, the next occurrence and every skipped day ring again; with DAYS, those days ring again."),
                positionals: [alarmID, days], options: [.json, .socket],
                examples: skip ? ["alarmctl skip 1a2b3c4d", "alarmctl skip work tomorrow", "alarmctl skip work 2026-12-24..2026-12-31"]
                    : ["alarmctl unskip 1a2b3c4d", "alarmctl unskip work 2026-12-24"]
            ),
            run: { arguments, context throws(CLIError) in
                let daemon = DaemonConnection(arguments, context)
                let (id, words) = leadingName(arguments.positionals, alarm: true, daemon: daemon)
                guard !words.isEmpty else {
                    // Skipped already, or nothing to undo: said so, and nothing written.
                    let before = try daemon.alarm(id)
                    let skippedDays = before.skippedDays(from: RuleOptions.today(context.now, in: zone(of: before, context)))
                    if skip ? before.skipNext : !before.skipNext && skippedDays.isEmpty {
                        return try AlarmCommands.report(Answer(before),
                                                        verb: skip ? N_("Already skipping the next occurrence of alarm") : N_("Nothing skipped for alarm"),
                                                        arguments, context).get()
                    }
                    // unskip alone undoes every skip: the next occurrence's and the skipped days to come.
                    var answer = Answer(before)
                    if skip || before.skipNext {
                        answer = try daemon.call(SkipNext.self, .init(id: before.id, skip: skip), subject: N_("alarm"))
                    }
                    if !skip, !skippedDays.isEmpty {
                        answer = try change(AlarmView(try answer.read().alarm), skipping: skippedDays, skip: false, daemon, context)
                    }
                    return try AlarmCommands.report(answer, verb: skip ? N_("Skipping the next occurrence of alarm") : N_("No longer skipping alarm"),
                                                    arguments, context).get()
                }
                // Read once before asking the daemon, so a mistake is a usage error
                // whatever it holds; a weekday then depends on the alarm's time.
                let text = words.spaced
                _ = try Self.days(text, field: "DAYS", alarm: nil, context: context)
                let view = try daemon.alarm(id)
                let days = try Self.days(text, field: "DAYS", alarm: view, context: context)
                if skip {
                    // Only days it rings on are skipped (``change`` leaves the others); they are said.
                    let rule = try repeatRule(of: view, today: RuleOptions.today(context.now, in: zone(of: view, context)))
                    let quiet = days.filter { !rule.rings(on: $0) }
                    if !quiet.isEmpty {
                        let time = TimeText(context)
                        let listed = userLanguage.list(quiet.sorted().prefix(7).map(time.dayText))
                        guard quiet.count < days.count else {
                            throw .daemon(Lf("alarm %1$s does not ring on %2$s; nothing to skip", inQuotes(view.label), listed))
                        }
                        context.emit(Lf("Alarm %1$s does not ring on %2$s anyway.", inQuotes(view.label), listed + (quiet.count > 7 ? " …" : "")))
                    }
                }
                let answer = try change(view, skipping: days, skip: skip, daemon, context)
                try AlarmCommands.report(answer, verb: skip ? N_("Skipping chosen days of alarm") : N_("No longer skipping those days of alarm"),
                                         arguments, context).get()
                // The line above says the first runs of days; all of them, when it cut some.
                let format = ItemFormat(context), changed = AlarmView(try answer.read().alarm)
                if !arguments.flag(.json), let skipped = format.skippedDays(changed), skipped != format.skippedDays(changed, runs: ItemFormat.skippedRunsShown) {
                    context.emit(Lf("Days skipped: %s", skipped))
                }
            }
        )
    }

    /// The alarm with those of `days` it rings on added to its repeat's
    /// exceptions (`skip`), or `days` taken from them; exceptions already
    /// past are dropped.
    static func change(_ alarm: AlarmView, skipping days: Set<Int64>, skip: Bool, _ daemon: DaemonConnection,
                       _ context: CommandContext) throws(CLIError) -> Answer<AlarmReply> {
        let today = RuleOptions.today(context.now, in: zone(of: alarm, context))
        var rule = try repeatRule(of: alarm, today: today)
        if skip { rule.exceptions.formUnion(days.filter { rule.rings(on: $0) }) } else { rule.exceptions.subtract(days) }
        rule.exceptions = rule.exceptions.filter { $0 >= today }
        guard rule.exceptions.count <= RecurrenceRule.maxExceptions else {
            throw .usage(Lf("an alarm skips at most %1$s days, and this would be %2$s", RecurrenceRule.maxExceptions, rule.exceptions.count))
        }
        var fields = AlarmFields()
        fields.rule = .some(rule)
        return try daemon.call(UpdateAlarm.self, .init(id: alarm.id, fields: fields), subject: N_("alarm"))
    }

    /// `edit --days` on an alarm with skipped days to come: the same weekly
    /// repeat on the new days, its skipped days kept (`unskip` rings them
    /// again). Any other repeat, or none skipped, is `fields` as they are.
    static func keepingSkippedDays(_ fields: AlarmFields, days: RepeatDays, of id: String, _ daemon: DaemonConnection,
                                   _ context: CommandContext) throws(CLIError) -> AlarmFields {
        let alarm = try daemon.alarm(id)
        guard let object = alarm.reply.object[Wire.Alarm.rule]?.objectValue, !object.isEmpty,
              let old = try? Wire.Rule.parse(Parameters(object)), old.frequency == .weekly, old.interval == 1, old.end == nil
        else { return fields }
        let today = RuleOptions.today(context.now, in: zone(of: alarm, context))
        var rule = RecurrenceRule.weekly(on: days, start: old.start)
        rule.exceptions = old.exceptions.filter { $0 >= today }
        guard !rule.exceptions.isEmpty else { return fields }
        var kept = fields
        kept.days = nil
        kept.rule = .some(rule)
        return kept
    }

    /// The alarm's repeat as a rule: its own, or its `--days` as a weekly
    /// rule from today. A one-off alarm has no days to pass over.
    static func repeatRule(of alarm: AlarmView, today: Int64) throws(CLIError) -> RecurrenceRule {
        if let object = alarm.reply.object[Wire.Alarm.rule]?.objectValue, !object.isEmpty {
            do { return try Wire.Rule.parse(Parameters(object)) } catch { throw .daemon(error.description) }
        }
        let days = (try? RepeatDays.fromCodes(alarm.reply.strings(Wire.Alarm.days))) ?? []
        guard !days.isEmpty else {
            throw .usage(Lf("alarm %s rings once: skip it without days, or switch it off", shortID(alarm.id)))
        }
        return .weekly(on: days, start: today)
    }

    /// Where the alarm rings: its own zone, or the system's.
    static func zone(of alarm: AlarmView, _ context: CommandContext) -> Zone {
        alarm.zone(system: context.systemZone)
    }

    /// A day, as `pause --from` and `--until` take it (`mon`, `jan 5`,
    /// `2027-01-05`, `明天`): a weekday is the next one, today included.
    /// `timeAllowed` takes a day with a time too (`--from` is an instant
    /// elsewhere), and keeps its day.
    static func day(_ text: String, field: String, timeAllowed: Bool = false, context: CommandContext) throws(CLIError) -> Int64 {
        let when: DayAndTime
        do { when = try DayAndTime.parse(text, field: field) } catch { throw .invalid(error) }
        guard when.time == nil || timeAllowed else { throw .usage(Lf("%1$s is a day, without a time, got %2$s", field, inQuotes(text))) }
        return when.resolveDay(now: context.now.epochSecondsFloor, rules: context.systemZone.rules, allDay: .midnight)
    }

    /// A range as people write it, as `days` reads it: `dec 14 to dec 18`,
    /// `from dec 14 to dec 18` and `dec 14-18` are `dec 14..dec 18`; a number alone is that day of the
    /// month (`14..18` is the 14th to the 18th).
    static func spokenRange(_ text: String) -> String {
        // `from dec 14 to dec 18`: the `from` says nothing a range does not.
        var text = text.drop { $0 == " " }.hasPrefix("from ") ? String(text.drop { $0 == " " }.dropFirst(5)) : text
        text = text.replacing(" to ", with: "..").replacing(" - ", with: "..")
        let words = text.split(separator: " ").map(String.init)
        // `dec 14-18`: a month, then two day numbers.
        if words.count == 2, let month = words.first, !month.contains(where: { $0.isNumber }),
           case let ends = words[1].split(separator: "-"), ends.count == 2, ends.allSatisfy({ Int($0) != nil }) {
            text = "\(month) \(ends[0])..\(month) \(ends[1])"
        }
        func day(_ end: Substring) -> String {
            guard let number = Int(end.filter { $0 != " " }), (1...31).contains(number) else { return String(end) }
            let suffix = (11...13).contains(number) ? "th" : [1: "st", 2: "nd", 3: "rd"][number % 10] ?? "th"
            return "\(number)\(suffix)"
        }
        return text.split(separator: "..", omittingEmptySubsequences: false).map(day).joined(separator: "..")
    }

    /// `next week` (下週): Monday to Sunday of the week after this one; with
    /// repeat days before or after it (`mon-fri next week`, `next week
    /// weekends`), those days of it. `nil` for text that does not say it.
    static func nextWeek(_ text: String, field: String, today: Int64) throws(ValidationError) -> Set<Int64>? {
        let trimmed = text.lowercased().trimmingSpaces()
        let rest: String
        if trimmed == "下週" || trimmed == "下周" {
            rest = ""
        } else if trimmed.hasSuffix("next week") {
            rest = String(trimmed.dropLast("next week".count)).trimmingSpaces()
        } else if trimmed.hasPrefix("next week") {
            rest = String(trimmed.dropFirst("next week".count)).trimmingSpaces()
        } else {
            return nil
        }
        let days = rest.isEmpty ? RepeatDays.everyDay : try RepeatDays.parse(rest, field: field)
        let monday = today - Int64((CivilTime.weekday(dayNumber: today).rawValue + 6) % 7) + 7
        return Set((monday..<monday + 7).filter { days.contains(RepeatDays(CivilTime.weekday(dayNumber: $0))) })
    }

    /// The most days one range names: a year, as many as a repeat may skip.
    static let maxRange = Int64(RecurrenceRule.maxExceptions)

    /// `2026-12-24`, `tomorrow`, `fri`, `dec 24`, `2026-12-07..2026-12-11`,
    /// several separated by commas or spaces: the days they name, a weekday
    /// being the next one on which the alarm's time is still ahead.
    static func days(_ text: String, field: String, alarm: AlarmView?, context: CommandContext) throws(CLIError) -> Set<Int64> {
        let zone = alarm.map { Self.zone(of: $0, context) } ?? context.systemZone
        let time = alarm.flatMap { try? TimeOfDay.parse($0.time) } ?? .midnight
        func day(_ text: String) throws(ValidationError) -> Int64 {
            // Days, not times: the error says what DAYS takes, not every form of a time.
            guard let when = try? DayAndTime.parse(text, field: field), when.time == nil, when.day != nil else {
                throw .text(field, N_("must be days or ranges of days: 2026-12-24, tomorrow, fri, dec 24, dec 14 to dec 18, 2026-12-07..2026-12-11, mon-fri next week"),
                            got: text)
            }
            return when.resolveDay(now: context.now.epochSecondsFloor, rules: zone.rules, allDay: time)
        }
        var days: Set<Int64> = []
        do throws(ValidationError) {
            for chunk in text.split(separator: ",").map({ spokenRange(String($0)) }) {
                if let week = try nextWeek(chunk, field: field, today: zone.rules.localDay(at: context.now.epochSecondsFloor)) {
                    days.formUnion(week)
                    continue
                }
                let ends = chunk.split(separator: "..", omittingEmptySubsequences: false)
                if ends.count == 2 {
                    let (first, last) = (try day(String(ends[0])), try day(String(ends[1])))
                    guard first <= last, last - first < maxRange else {
                        throw .text(field, N_("must be a range from its first day to its last, at most a year long"), got: chunk)
                    }
                    days.formUnion(first...last)
                } else if let one = try? day(chunk) {
                    days.insert(one)
                } else {
                    // `2026-12-24 2026-12-31`, `dec 8 dec 9`: several days, a space between,
                    // each the longest run of words (up to three: `new year's eve`) that names one.
                    let words = chunk.split(separator: " ").map(String.init)
                    var index = 0
                    while index < words.count {
                        let found = (1...min(3, words.count - index)).reversed().lazy.compactMap { length in
                            (try? day(words[index..<index + length].joined(separator: " "))).map { (length: length, day: $0) }
                        }.first
                        // No run names a day: the first word's own error says why.
                        if let found {
                            days.insert(found.day)
                            index += found.length
                        } else {
                            days.insert(try day(words[index]))
                            index += 1
                        }
                    }
                }
            }
        } catch {
            throw .invalid(error)
        }
        guard !days.isEmpty else { throw .usage(Lf("%s names no day", field)) }
        return days
    }
}

extension RecurrenceRule {
    /// Whether the repeat has an occurrence on `day`, skipped or not.
    func rings(on day: Int64) -> Bool {
        var plain = self
        plain.exceptions = []
        return plain.nextDay(after: day - 1) == day
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// The alarm commands: list, show, add, edit, rename, test, rm, enable, disable, pause,
/// resume (skip and unskip are ``SkipCommands``).
enum AlarmCommands {
    static let all: [Command] = [list, show, add, edit, RenameCommands.rename, test, remove, enable, disable, SkipCommands.skip, SkipCommands.unskip, pause, resume]

    private static let socket = Option.socket
    private static let json = Option.json
    private static let alarmID = Positional("ID", .alarmID)
    private static let alarmIDs = Positional("ID", .alarmID, repeated: true)
    /// `add`'s own: a new alarm is on unless told otherwise.
    static let createDisabled = Option(flag: "disabled", N_("create it switched off"))
    /// `add --in 25m`: a one-off alarm that long from now, as `add in 25 min`.
    static let after = Option("in", "DURATION", .duration, N_("ring once, DURATION from now (25m, 1h 30m), at the nearest minute"))
    static let timeOrAfter = Alternatives(positional: "TIME", after)
    /// `add --force`: add an alarm though one just like it exists.
    static let force = Option(flag: "force", N_("add it even when an alarm with the same time, repeat and label exists"))

    static let list = Command(
        spec: CommandSpec(
            name: "list",
            summary: N_("List the alarms, sorted by time of day."),
            details: N_("NEXT is when each alarm next needs attention, in local time; ringing and snoozed alarms say so."),
            options: [json, socket],
            examples: ["alarmctl list", "alarmctl list --json"]
        ),
        run: { arguments, context throws(CLIError) in
            let answer = try DaemonConnection(arguments, context).call(ListAlarms.self)
            if arguments.flag(json) { return context.emitJSON(answer.object) }
            context.standardOutput(ItemFormat(context).alarmTable(try answer.read().alarms.map(AlarmView.init)))
        }
    )

    static let show = Command(
        spec: CommandSpec(
            name: "show",
            summary: N_("Show every setting of one alarm."),
            details: N_("ID is a full id, its first characters (at least 4) as list shows them, or the label (whole, or its first letters, any case)."),
            positionals: [alarmID], options: [json, socket],
            examples: ["alarmctl show 1a2b3c4d"]
        ),
        run: { arguments, context throws(CLIError) in
            let answer = try DaemonConnection(arguments, context).call(GetAlarm.self, .init(id: arguments.positionals[0]), subject: N_("alarm"))
            if arguments.flag(json) { return context.emitJSON(answer.object) }
            let reply = try answer.read()
            context.standardOutput(ItemFormat(context).alarmDetails(AlarmView(reply.alarm), warnings: reply.warnings ?? []))
        }
    )

    static let add = Command(
        spec: CommandSpec(
            name: "add",
            summary: N_("Create an alarm."),
            details: N_("""
                TIME is a time of day: 7, 0730, 7:30, 7.30, 19:05, 7am, 7:30 pm, noon, half past 6, 下午2點;
                with a day before or after it (today, tomorrow, fri, next tue, dec 24, 1st of month,
                2026-12-24, 明天, 下週二) the alarm rings once, on that day; "in 25 min" (or --in 25m)
                rings once, that long from now. A repeat in words goes before or after it: every day,
                weekdays, weekends, every mon, mon wed fri, mon to fri, every day except sun,
                every 2 weeks on fri, every 3 days, 每天, 平日, 假日, 每週一. Without a repeat (words,
                --days or a calendar option) the alarm rings once, at the next occurrence of TIME, and
                then switches itself off; so does a --date alarm, on its date, and one whose repeat
                ends (--until, --times), after its last day. --monthly on day 29-31 skips months
                without that day (RFC 5545). Settings not given take alarmd's defaults.
                """),
            positionals: [Positional("TIME", .timeOfDay, optional: true, repeated: true)],
            options: [after] + AlarmFieldOptions.options + [createDisabled, force, json, socket],
            alternatives: [timeOrAfter, AlarmFieldOptions.snoozeOrNot, RuleOptions.frequencies, RuleOptions.ends],
            examples: [
                "alarmctl add 7:30 --days weekdays --label Work --skip-holidays",
                "alarmctl add weekdays at 7 --label Work",
                "alarmctl add every 2 weeks on fri 9:00 --label Cleaning",
                "alarmctl add in 25 min --label Pizza",
                "alarmctl add in 20 min nap",
                "alarmctl add next tue 2pm --label Dentist",
                "alarmctl add 5:10 --date 2026-12-24 --label Flight",
                "alarmctl add tomorrow 6am --label Train",
                "alarmctl add 8:00 --every 2w --days mon,thu --starting 2026-12-07",
                "alarmctl add 19:00 --monthly last-fri --label \"Pay day\"",
                "alarmctl add 9:00 --yearly 03-14 --label Birthday",
                "alarmctl add 6:45am --days mon,wed,fri --snooze 5 --max-snoozes 3",
                "alarmctl add 9:00 --days weekends --tz Europe/Berlin --sound bell",
            ]
        ),
        run: { arguments, context throws(CLIError) in
            // `add tomorrow 7:00` as well as `add "tomorrow 7:00"`.
            if arguments.hasAny([after]), !arguments.positionals.isEmpty { throw .usage(L("add: give TIME or --in, not both")) }
            let time = arguments.value(after).map { "in " + $0 } ?? arguments.positionals.spaced
            guard !time.isEmpty else { throw .usage(L("add: give the TIME it rings, or --in DURATION")) }
            var fields: AlarmFields
            do throws(CLIError) { fields = try AlarmFieldOptions.fields(arguments, time: time, editing: false, context: context) } catch {
                // `add in 20 min nap`, `add 6:30 weekdays work`: the words after the time are the
                // label, the longest run of first words that reads as a time winning; else
                // `add morning 7:15 every day`: the words before it, the longest last run.
                let words = arguments.positionals
                // Words that all read as a day and a time are no label, whatever is wrong with them
                // (`add this evening` at 19:00 has passed; "this" is not its label).
                guard arguments.value(AlarmFieldOptions.label) == nil, words.count > 1, (try? DayAndTime.parse(time, field: "TIME")) == nil else { throw error }
                func timed(_ time: ArraySlice<String>) -> AlarmFields? {
                    try? AlarmFieldOptions.fields(arguments, time: time.spaced, editing: false, context: context)
                }
                // A label before the time has no day, number or repeat in it: `add 2020-01-01 7:00`
                // stays a time that has passed, `add weekdays work 7:00` no one-off "weekdays work".
                func couldBeLabel(_ words: ArraySlice<String>) -> Bool {
                    !words.contains { $0.contains(where: \.isNumber) } && (try? DayAndTime.parse(words.spaced, field: "TIME"))?.day == nil
                        && Self.repeatWord(in: words) == nil
                }
                let after = (1..<words.count).reversed().lazy.compactMap { split in timed(words[..<split]).map { (label: split..<words.count, fields: $0) } }.first
                let before = (1..<words.count).lazy.filter { couldBeLabel(words[..<$0]) }.compactMap { split in
                    timed(words[split...]).map { (label: 0..<split, fields: $0) }
                }.first
                // Words after a time that read as a repeat are the time's own: `add morning 7:15
                // every day` is "morning", not the time "morning" with a label "7:15 every day".
                let afterIsRepeat = after.map { Self.repeatWord(in: words[$0.label]) != nil } ?? false
                guard let (label, found) = (afterIsRepeat ? before ?? after : after ?? before) else { throw error }
                // `add 7 30` is 7:30 mistyped far more often than a label "30".
                if words[label].isNumberAlone {
                    throw .usage(Lf("add: the label %s is only a number: write the time as H:MM (7:30), or give the label with --label", inQuotes(words[label].spaced)))
                }
                // `add 7 30 gym` too: minutes after an hour alone, whatever follows them
                // (`add 7 30 weekdays` as well, before the repeat is looked at).
                if label.lowerBound > 0, let hour = Int(words[label.lowerBound - 1]), [words[label.lowerBound - 1]].isNumberAlone, hour < 24,
                   let minutes = Int(words[label.lowerBound]), [words[label.lowerBound]].isNumberAlone, minutes < 60 {
                    throw .usage(Lf("add: %1$s after the hour %2$s reads as minutes: write the time as H:MM (%2$s:%3$s), or give the label with --label",
                                    inQuotes(words[label.lowerBound]), words[label.lowerBound - 1], minutes < 10 ? "0\(minutes)" : "\(minutes)"))
                }
                // `add 9:00 every fortnight work`, `add 7:00 gym weekdays`: a repeat not understood,
                // or not where a repeat goes, is no label.
                if let start = Self.repeatWord(in: words[label]) {
                    throw .usage(Lf("add: %s reads as a repeat that alarmctl cannot read; see alarmctl help add for the repeats it takes, or give the label with --label",
                                    inQuotes(words[start..<label.upperBound].spaced)))
                }
                fields = found
                fields.label = words[label].spaced
            }
            let daemon = DaemonConnection(arguments, context)
            switch try daemon.exchange(AddAlarm.self, .init(fields: fields, force: arguments.flag(force))) {
            case .success(let answer):
                try report(answer, verb: N_("Added alarm"), arguments, context).get()
            case .failure(let error):
                // The one just like it, as `list` shows it.
                if case .duplicateAlarm(let id, _)? = InterfaceError(error), let twin = try? daemon.alarm(id) {
                    throw .daemon(Lf("alarm %1$s is the same: %2$s %3$s; nothing was added (--force adds another)", shortID(twin.id), twin.time, twin.listLine))
                }
                throw .daemon(daemon.message(for: error, subject: N_("alarm")))
            }
        }
    )

    /// Where a repeat begins in `words`, said in any way people say one
    /// (`every fortnight`, `each`, `weekdays`, `daily`, `mon-fri`, 平日, 每天),
    /// understood or not: such words are no label.
    static func repeatWord(in words: ArraySlice<String>) -> Int? {
        if let start = SpokenRepeat.repeatStart(in: Array(words)) { return words.startIndex + start }
        // `add 7:30 every day except`: days taken out, or meant to be, right after the repeat.
        if words.first?.lowercased() == "except" { return words.startIndex }
        return words.firstIndex { word in
            ["every", "each"].contains(word.lowercased()) || (try? RepeatDays.parse(word, field: "DAYS")) != nil
                || (try? SpokenRepeat.split(word, field: "TIME"))?.repeat != nil
        }
    }

    /// Every option of `edit` that changes something; it insists on one.
    private static let editChanges = [AlarmFieldOptions.time] + AlarmFieldOptions.options
        + [AlarmFieldOptions.noSkipHolidays, AlarmFieldOptions.noCommand, AlarmFieldOptions.noEscalateCommand, AlarmFieldOptions.enabled,
           AlarmFieldOptions.disabled]

    static let edit = Command(
        spec: CommandSpec(
            name: "edit",
            summary: N_("Change some settings of an alarm."),
            details: N_("""
                Only the options given change. --tz "" un-pins the alarm so it follows the system zone
                again; --days never makes it a one-shot alarm. The calendar options (--date, --every,
                --monthly, --yearly, --starting, --until, --times, --except) replace the whole repeat,
                so give every part of it; --days alone makes it a plain weekly repeat again.
                A ringing or snoozed alarm stops.
                """),
            positionals: [alarmID, Positional("TIME", .timeOfDay, optional: true, repeated: true)],
            options: editChanges + [json, socket],
            alternatives: [AlarmFieldOptions.snoozeOrNot, AlarmFieldOptions.commandOrNot, AlarmFieldOptions.escalateCommandOrNot, AlarmFieldOptions.onOrOff,
                           AlarmFieldOptions.holidaysOrNot, RuleOptions.frequencies, RuleOptions.ends],
            examples: [
                "alarmctl edit 1a2b --time 7:15",
                "alarmctl edit work 6:45",
                "alarmctl edit 1a2b --days mon-thu --label \"Early shift\"",
                "alarmctl edit work saturdays",
                "alarmctl edit 1a2b --tz \"\"",
                "alarmctl edit 1a2b --monthly 15 --until 2027-06-30",
            ]
        ),
        run: { arguments, context throws(CLIError) in
            // `edit work 6:45`, as add takes its TIME: the same as --time 6:45.
            let daemon = DaemonConnection(arguments, context)
            let (id, words) = leadingName(arguments.positionals, alarm: true, daemon: daemon)
            let spoken = words.spaced
            if !spoken.isEmpty, arguments.hasAny([AlarmFieldOptions.time]) { throw .usage(L("edit: give the new TIME or --time, not both")) }
            guard arguments.hasAny(editChanges) || !spoken.isEmpty else {
                throw .usage(L("edit: nothing to change; give at least one option (see alarmctl edit --help)"))
            }
            // `edit work saturdays`, `edit work mon-fri`: days without a time are its new days.
            var spokenDays: RepeatDays?
            if !spoken.isEmpty, !spoken.contains(where: \.isNumber) {
                if let days = try? RepeatDays.parse(spoken, field: "DAYS") {
                    spokenDays = days
                } else if let split = try? SpokenRepeat.split(spoken, field: "TIME"), let found = split.repeat, split.rest.isEmpty, found.isWeeklyOnDays {
                    spokenDays = found.days
                }
            }
            if spokenDays != nil, arguments.hasAny([AlarmFieldOptions.days] + RuleOptions.options) {
                throw .usage(Lf("edit: %s are the new days; give them or --days and the repeat options, not both", inQuotes(spoken)))
            }
            let timeText = spoken.isEmpty || spokenDays != nil ? arguments.value(AlarmFieldOptions.time) : spoken
            var fields = try AlarmFieldOptions.fields(arguments, time: timeText, editing: true, context: context)
            if let spokenDays { fields.days = spokenDays }
            if let days = fields.days, !days.isEmpty, fields.rule == nil {
                fields = try SkipCommands.keepingSkippedDays(fields, days: days, of: id, daemon, context)
            }
            let answer = try daemon.call(UpdateAlarm.self, .init(id: id, fields: fields), subject: N_("alarm"))
            try report(answer, verb: N_("Changed alarm"), arguments, context).get()
        }
    )

    static let test = Command(
        spec: CommandSpec(
            name: "test",
            summary: N_("Play an alarm's sound once, as it will ring, to hear that it works."),
            details: N_("Its own sound and volume, or the configured ones, through the daemon on the stream an alarm uses, as sounds --play does: it fails (exit 1) saying why when the sound cannot be heard."),
            positionals: [alarmID], options: [json, socket],
            examples: ["alarmctl test work", "alarmctl test 1a2b"]
        ),
        run: { arguments, context throws(CLIError) in
            let daemon = DaemonConnection(arguments, context)
            let alarm = try daemon.alarm(arguments.positionals[0])
            let sound = Sound(wire: alarm.reply.string(Wire.Alarm.sound))
            guard sound != .none else {
                throw .daemon(Lf("alarm %s rings without a sound (--sound none): only its notification shows", inQuotes(alarm.label)))
            }
            try DaemonCommands.playOnce(.init(sound: sound, volume: alarm.reply.optionalInt(Wire.Alarm.volume)), subject: Lf("alarm %s", inQuotes(alarm.label)),
                                        daemon, json: arguments.flag(json), context)
        }
    )

    static let remove = Command(
        spec: CommandSpec(
            name: "rm",
            summary: N_("Delete alarms."),
            details: N_("A ringing alarm is silenced first. With several ids, each is tried; the exit code is 1 if any failed."),
            positionals: [alarmIDs], options: [json, socket],
            examples: ["alarmctl rm 1a2b3c4d", "alarmctl rm 1a2b 5e6f"]
        ),
        run: { arguments, context throws(CLIError) in
            try removeEach(RemoveAlarm.self, noun: N_("alarms"), subject: N_("alarm"), said: N_("Removed alarm %1$s (%2$s)"), arguments, context)
        }
    )

    static let enable = switchCommand(name: "enable", on: true)
    static let disable = switchCommand(name: "disable", on: false)

    private static func switchCommand(name: String, on: Bool) -> Command {
        Command(
            spec: CommandSpec(
                name: name,
                summary: on ? N_("Switch alarms on.") : N_("Switch alarms off (a ringing one stops)."),
                details: on ? N_("""
                    With several ids, each is tried; the exit code is 1 if any failed.
                    With --all (or the word all), every repeating alarm that is off; one that
                    rings once is left off (switched on, it would ring at its time's next
                    occurrence): name it to switch it on.
                    """) : N_("""
                    With several ids, each is tried; the exit code is 1 if any failed.
                    With --all (or the word all), every alarm that is on.
                    """),
                positionals: [someAlarmIDs], options: [allAlarms, json, socket], alternatives: [idsOrAll],
                examples: ["alarmctl \(name) 1a2b3c4d", "alarmctl \(name) 1a2b 5e6f", "alarmctl \(name) --all"]
            ),
            run: { arguments, context throws(CLIError) in
                let daemon = DaemonConnection(arguments, context)
                try update(arguments.positionals, all: arguments.flag(allAlarms), arguments, context, daemon, failedVerb: on ? N_("enabled") : N_("disabled"),
                           among: { $0.enabled != on && !(on && $0.ringsOnce) },
                           noneAmong: on ? N_("Every repeating alarm is on already.") : N_("Every alarm is off already.")) { daemon, id throws(CLIError) in
                    try daemon.attempt(SetAlarmEnabled.self, .init(id: id, enabled: on), subject: N_("alarm")).flatMap { answer in
                        report(answer, verb: on ? N_("Enabled alarm") : N_("Disabled alarm"), arguments, context)
                    }
                }
            }
        )
    }

    private static let someAlarmIDs = Positional("ID", .alarmID, optional: true, repeated: true)
    static let pauseUntil = Option("until", "DAY", .date, N_("the day it rings again: 2027-01-05, mon, next tue, jan 5, 明天"))
    static let pauseFor = Option("for", "DURATION", .duration, N_("how long it stays quiet, in whole days or weeks (1w, 10d): it rings again on the day after"))
    static let pauseFrom = Option("from", "DAY", .instant, N_("the first quiet day, for a trip that starts later (default: today)"))
    static let untilOrFor = Alternatives(pauseUntil, pauseFor)
    static let allAlarms = Option(flag: "all", N_("every alarm"))
    static let idsOrAll = Alternatives(positional: "ID", allAlarms)

    static let pause = Command(
        spec: CommandSpec(
            name: "pause",
            summary: N_("Pass over alarms' occurrences until a day (a holiday trip)."),
            details: N_("""
                Every occurrence before the --until day passes silently; the alarm rings again on
                that day. Lists show "paused until" meanwhile. resume ends a pause early. With
                --from, the quiet days start later: they are skipped days, as skip DAYS makes
                them (unskip or resume rings them again). next week (or 下週) after the ids is
                Monday to Sunday of the week after this one; without ids, every alarm's. A timer's
                name pauses the timer (timer pause).
                With several ids, each is tried; the exit code is 1 if any failed.
                """),
            positionals: [someAlarmIDs], options: [pauseFrom, pauseUntil, pauseFor, allAlarms, json, socket], alternatives: [idsOrAll, untilOrFor],
            examples: ["alarmctl pause 1a2b --until 2027-01-05", "alarmctl pause --all --until mon", "alarmctl pause work --for 1w",
                       "alarmctl pause --all --from 2026-12-21 --until 2027-01-04", "alarmctl pause next week"]
        ),
        run: { arguments, context throws(CLIError) in
            try arguments.exclusive(untilOrFor)
            // `pause tea` where tea is a running timer: the timer's pause.
            let daemon = DaemonConnection(arguments, context)
            if !arguments.hasAny([pauseUntil, pauseFor, pauseFrom, allAlarms]), TimerCommands.namesATimer(arguments.positionals, daemon) {
                return try TimerCommands.change("pause", [arguments.positionals.spaced], daemon, arguments, context)
            }
            let today = RuleOptions.today(context.now, in: context.systemZone)
            var from = today
            if let text = arguments.value(pauseFrom) { from = try SkipCommands.day(text, field: "--from", timeAllowed: true, context: context) }
            var ids = arguments.positionals
            var untilText = arguments.value(pauseUntil), forText = arguments.value(pauseFor)
            // `--until dec 14` unquoted: the option took the day's first word,
            // and its second is the last word left (or the first).
            if let text = untilText, !ids.isEmpty, (try? SkipCommands.day(text, field: "--until", context: context)) == nil,
               let at = [ids.count - 1, 0].first(where: { (try? SkipCommands.day(text + " " + ids[$0], field: "--until", context: context)) != nil }) {
                untilText = text + " " + ids.remove(at: at)
            }
            // `pause until dec 14`, `pause work for 1w`: the words after the option's name.
            for (word, slot) in [("until", 0), ("for", 1)] where untilText == nil && forText == nil {
                guard let at = ids.firstIndex(where: { $0.lowercased() == word }), at + 1 < ids.count else { continue }
                let text = ids[(at + 1)...].spaced
                if slot == 0 { untilText = text } else { forText = text }
                ids = Array(ids[..<at])
            }
            var day: Int64
            // `pause next week`, `pause work next week`: the week after this one.
            if let count = [2, 1].first(where: { ids.count >= $0 && ["next week", "下週", "下周"].contains(ids.suffix($0).spaced.lowercased()) }) {
                guard !arguments.hasAny([pauseFrom, pauseUntil, pauseFor]) else {
                    throw .usage(L("pause: next week says the days; --from, --until and --for cannot go with it"))
                }
                ids.removeLast(count)
                let week = (try? SkipCommands.nextWeek("next week", field: "DAYS", today: today)) ?? []
                from = week.min() ?? today
                day = (week.max() ?? today) + 1
            } else if let text = forText {
                let seconds: Int64
                do throws(ValidationError) { seconds = try DurationParser.parse(text, field: "--for") } catch { throw .invalid(error) }
                guard seconds % CivilTime.secondsPerDay == 0 else {
                    throw .usage(Lf("--for must be whole days or weeks (3d, 1w), got %s", inQuotes(text)))
                }
                day = from + seconds / CivilTime.secondsPerDay
            } else if let text = untilText {
                // A day in the past is the daemon's to refuse, as for every client.
                day = try SkipCommands.day(text, field: "--until", context: context)
            } else {
                throw .usage(L("pause: give the day the alarms ring again (--until DAY), how long they stay quiet (--for DURATION) or next week; --from DAY starts it later, --all pauses every alarm"))
            }
            let every = arguments.flag(allAlarms) || ids.isEmpty
            guard from > today else {
                var fields = AlarmFields()
                fields.pausedUntil = .some(day)
                return try update(ids, all: every, arguments, context, daemon, failedVerb: N_("paused")) { daemon, id throws(CLIError) in
                    try daemon.attempt(UpdateAlarm.self, .init(id: id, fields: fields), subject: N_("alarm")).flatMap { report($0, verb: N_("Paused alarm"), arguments, context) }
                }
            }
            guard day > from else {
                throw .usage(Lf("--until must be after --from (%s)", RecurrenceRule.dateText(from)))
            }
            let time = TimeText(context)
            if !arguments.flag(json) { context.emit(Lf("Quiet from %1$s to %2$s; ringing again from %3$s.", time.dayText(from), time.dayText(day - 1), time.dayText(day))) }
            // Of every alarm, those that would ring on the quiet days.
            let ringing: (AlarmView) -> Bool = { alarm in
                if let rule = try? SkipCommands.repeatRule(of: alarm, today: today) { return (from..<day).contains { rule.rings(on: $0) } }
                guard let next = TimeText.instant(alarm.next) else { return false }
                return (from..<day).contains(RuleOptions.today(next, in: SkipCommands.zone(of: alarm, context)))
            }
            try update(ids, all: every, arguments, context, daemon, failedVerb: N_("paused"), among: ringing,
                       noneAmong: N_("No alarm rings on those days.")) { daemon, id throws(CLIError) in
                try pauseQuietDays(id, from: from, to: day, daemon, context).flatMap { report($0, verb: N_("Paused alarm"), arguments, context) }
            }
        }
    )

    /// `pause --from`'s change to one alarm: the quiet days skipped, or, for
    /// one that rings only on them (a one-off, the last of a repeat), paused
    /// until the day after them: as quiet, and resume undoes it.
    private static func pauseQuietDays(_ id: String, from: Int64, to day: Int64, _ daemon: DaemonConnection,
                                       _ context: CommandContext) throws(CLIError) -> Result<Answer<AlarmReply>, CLIError> {
        let found = try daemon.attemptAlarm(id)
        do throws(CLIError) {
            let alarm = try found.get()
            let today = RuleOptions.today(context.now, in: SkipCommands.zone(of: alarm, context))
            var rule = alarm.isOneShot ? nil : try SkipCommands.repeatRule(of: alarm, today: today)
            rule?.exceptions.formUnion(from..<day)
            if rule.map({ $0.nextDay(after: today - 1) == nil }) ?? true {
                var fields = AlarmFields()
                fields.pausedUntil = .some(day)
                return try daemon.attempt(UpdateAlarm.self, .init(id: alarm.id, fields: fields), subject: N_("alarm"))
            }
            return .success(try SkipCommands.change(alarm, skipping: Set(from..<day), skip: true, daemon, context))
        } catch {
            return .failure(error)
        }
    }

    static let resume = Command(
        spec: CommandSpec(
            name: "resume",
            summary: N_("End alarms' pause early, and the days they skip."),
            details: N_("""
                A pause that starts later (pause --from, pause next week) is kept as skipped days, so
                resume lets every skipped day to come ring again, as unskip without days does, and
                names them; a skip of the next occurrence (skip ID) stays. An alarm neither paused nor
                skipping days is left as it is.
                """),
            positionals: [someAlarmIDs], options: [allAlarms, json, socket], alternatives: [idsOrAll],
            examples: ["alarmctl resume 1a2b", "alarmctl resume --all"]
        ),
        run: { arguments, context throws(CLIError) in
            // `resume tea` where tea is a paused timer: the timer's resume.
            let daemon = DaemonConnection(arguments, context)
            if !arguments.flag(allAlarms), TimerCommands.namesATimer(arguments.positionals, daemon) {
                return try TimerCommands.change("resume", [arguments.positionals.spaced], daemon, arguments, context)
            }
            try update(arguments.positionals, all: arguments.flag(allAlarms), arguments, context, daemon, failedVerb: N_("resumed")) { daemon, id throws(CLIError) in
                let alarm: AlarmView
                switch try daemon.attemptAlarm(id) {
                case .success(let found): alarm = found
                case .failure(let error): return .failure(error)
                }
                var fields = AlarmFields()
                if alarm.pausedUntil != nil { fields.pausedUntil = .some(nil) }
                // The days to come it skips, as unskip finds them; the ones gone by go too.
                let today = RuleOptions.today(context.now, in: SkipCommands.zone(of: alarm, context))
                let skipped = alarm.skippedDays(from: today)
                if !skipped.isEmpty, var rule = try? SkipCommands.repeatRule(of: alarm, today: today) {
                    rule.exceptions = []
                    fields.rule = .some(rule)
                }
                // Nothing to end: said, and nothing written.
                guard fields.pausedUntil != nil || fields.rule != nil else {
                    return report(Answer(alarm), verb: N_("Not paused: alarm"), arguments, context)
                }
                return try daemon.attempt(UpdateAlarm.self, .init(id: alarm.id, fields: fields), subject: N_("alarm")).flatMap { answer in
                    report(answer, verb: N_("Resumed alarm"), arguments, context).map {
                        if fields.rule != nil, !arguments.flag(json), let days = ItemFormat(context).dayRuns(skipped) {
                            context.emit(Lf("Days that ring again: %s", days))
                        }
                    }
                }
            }
        }
    )

    /// `change` on each alarm of `ids`, or with `all` on every alarm `among`
    /// takes (`noneAmong` said when there are alarms but it takes none); it
    /// says what it did (``report(_:verb:_:_:)``).
    private static func update(_ ids: [String], all: Bool, _ arguments: ParsedArguments, _ context: CommandContext, _ daemon: DaemonConnection,
                               failedVerb: String, among: (AlarmView) -> Bool = { _ in true }, noneAmong: String = N_("No alarms."),
                               change: (DaemonConnection, String) throws(CLIError) -> Result<Void, CLIError>) throws(CLIError) {
        var ids = ids, all = all
        // `pause all until mon`: the word for --all.
        if saysAll(ids) {
            ids = []
            all = true
        }
        if all {
            guard ids.isEmpty || !arguments.flag(allAlarms) else { throw .usage(Lf("%s: give alarm ids or --all, not both", arguments.commandName)) }
            let alarms = try daemon.call(ListAlarms.self).read().alarms.map(AlarmView.init)
            ids = alarms.filter(among).map(\.id)
            // With --json, one reply a line: none when nothing is changed.
            if ids.isEmpty, arguments.flag(json) { return }
            if alarms.isEmpty { return context.emit(L("No alarms.")) }
            if ids.isEmpty { return context.emit(L(noneAmong)) }
        } else if ids.isEmpty {
            throw .usage(Lf("%s: give the alarms' ids, or --all", arguments.commandName))
        }
        try forEachID(ids, noun: N_("alarms"), verb: failedVerb, context: context) { id throws(CLIError) in
            try change(daemon, id)
        }
    }

    /// Prints the alarm a change returned: as JSON, or as `VERB 1a2b3c4d 07:30 Work: rings in 8 h 5 min (Tue 07:30)`.
    static func report(_ answer: Answer<AlarmReply>, verb: String, _ arguments: ParsedArguments, _ context: CommandContext) -> Result<Void, CLIError> {
        answer.emit(context, json: arguments.flag(json)) { reply in
            context.emit(L(verb) + " " + ItemFormat(context).alarmSummary(AlarmView(reply.alarm)))
        }
    }
}

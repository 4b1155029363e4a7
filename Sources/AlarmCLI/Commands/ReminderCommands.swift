// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// `alarmctl remind …`: the to-do list with due times.
enum ReminderCommands {
    static let commands: [Command] = [add, list, show, done, undone, remove, edit, RenameCommands.remindRename, move]

    private static let socket = Option.socket
    private static let json = Option.json
    private static let reminderID = Positional("ID", .reminderID)
    private static let reminderIDs = Positional("ID", .reminderID, repeated: true)
    /// `remind done` offers only what is not done yet.
    private static let openReminderIDs = Positional("ID", .openReminderID, repeated: true)

    static let at = Option("at", "WHEN", .instant, N_("due at WHEN: 14:00, tomorrow 9am, fri 9:00, 2026-12-24 9:00; a day alone (tomorrow, 2026-12-24) is all day"))
    static let within = Option("in", "DURATION", .duration, N_("due DURATION from now: 20m, 20 minutes, 1h 30m, 1.5h, 2d, or now"))
    private static let image = Option("image", "PATH", .file, N_("an image shown with the notification"))
    private static let command = Option("command", "LINE", .commandLine, N_("run this when it is due: a program and its arguments (never run by a shell)"))
    private static let notes = Option("notes", "TEXT", .text, N_("more text, shown with the notification"))
    static let sound = Option("sound", "NAME", .sound, N_("its own sound: a sound-theme name, an absolute file path, or none (default: [Sound] ReminderSound=)"))
    private static let all = Option(flag: "all", N_("include reminders that are done"))
    static let on = Option("on", "YYYY-MM-DD", .date, N_("due on that day, at [Reminders] AllDayAt= (09:00 unless configured)"))
    static let days = Option("days", "SPEC", .days, N_("comes back every week on these days (with --every 2w: every other week)"))
    static let before = Option("before", "DURATIONS", .duration, N_("a quiet notice this long before each due time: 15m,1h,1d (up to 8)"))
    /// The repeat and notice options `add` and `edit` share.
    static let calendarOptions = [on, days] + RuleOptions.reminderOptions + [before]

    static let group = CommandGroup(name: "remind", summary: N_("Keep a to-do list whose items can ring when they are due."))

    /// What `alarmctl remind --help` prints.
    static var groupHelp: String {
        var lines = [L("Usage: alarmctl remind SUBCOMMAND [OPTIONS]"), "", L(group.summary), "", L("Subcommands:")]
        let width = (commands.map(\.spec.name.count).max() ?? 0) + 2
        for command in commands { lines.append("  " + command.spec.name.padding(toLength: width) + L(command.spec.summary)) }
        lines += ["", L("WHEN is ISO 8601 (2026-03-09T14:00:00+01:00), a local YYYY-MM-DD HH:MM, or a time\nof day (14:00, 2pm: today, or tomorrow once passed); DURATION is 90s, 25m, 2h, 1d or 1h30m."),
                  "", L("Run 'alarmctl remind SUBCOMMAND --help' for its options and examples.")]
        return lines.joined(separator: "\n") + "\n"
    }

    static let add = Command(
        spec: CommandSpec(
            name: "remind add",
            summary: N_("Add a reminder at the end of the list."),
            details: N_("""
                With --at, --in or --on it rings when due; without, it is a plain to-do item.
                WHEN is ISO 8601, a local YYYY-MM-DD HH:MM, a time of day such as 14:00 (today,
                or tomorrow if that has passed), or a day and time in words (tomorrow 5pm, next tue
                9:00, in 25 min, 明天下午5點); it may also follow the title without --at
                (remind add "buy milk" tomorrow 5pm, submit report by fri). DURATION is 90s, 25m, 2h, 1d or 1h30m.
                With --days, --every, --monthly or --yearly, or a repeat in words after the title
                (remind add rent every month on the 1st 9am, every year on mar 14, weekdays 9:30), it
                comes back: marking it done makes the next occurrence after now due, until --until
                or --times ends the repeat; without a due time it is first due, all day, on the
                repeat's first day. Give one title a time: several quoted ones are refused.
                """),
            positionals: [Positional("TITLE", .text), Positional("WHEN", .instant, optional: true, repeated: true)],
            options: [at, within] + calendarOptions + [notes, sound, image, command, json, socket],
            alternatives: [dueAtOrInOrOn, RuleOptions.reminderFrequencies, RuleOptions.ends],
            examples: [
                "alarmctl remind add \"Call the dentist\" --at 14:00 --before 15m",
                "alarmctl remind add Tea --in 4m",
                "alarmctl remind add buy milk tomorrow 5pm",
                "alarmctl remind add rent every month on the 1st 9am",
                "alarmctl remind add \"Water the plants\" --at 18:00 --every 3d",
                "alarmctl remind add \"Mum's birthday\" every year on mar 14 --before 1d",
                "alarmctl remind add \"Mum's birthday\" --yearly 03-14 --before 1d",
                "alarmctl remind add \"Pay rent\" --at \"2027-04-01 09:00\" --notes \"IBAN in the folder\"",
            ]
        ),
        run: { arguments, context throws(CLIError) in
            let words = arguments.positionals
            let (title, when, spokenRepeat) = repeatInWords(words, context: context) ?? {
                let (title, when) = WhenParser.titleAndWhen(words, context: context)
                return (title, when, nil)
            }()
            // `remind add "buy eggs" "pay electricity bill"`: two to-dos, not one.
            let quoted = words.filter { $0.contains(" ") }
            if when == nil, spokenRepeat == nil, quoted.count > 1 {
                throw .usage(Lf("remind add: %s are several titles; add each with a remind add of its own", userLanguage.list(quoted.map(inQuotes))))
            }
            if when != nil, arguments.hasAny(dueAtOrInOrOn.options) {
                throw .usage(Lf("remind add: %s is when it is due; give it or --at, --in, --on, not both", inQuotes(when ?? "")))
            }
            // `--before` says when to be told, not how it repeats: it goes with them.
            if spokenRepeat != nil, arguments.hasAny(calendarOptions.filter { $0 != before }) {
                throw .usage(L("remind add: the words after the title say how it repeats, so --days and the repeat options cannot go with them"))
            }
            // `remind add rent every blue moon`: a repeat not understood is no title.
            let unquoted = words.filter { !$0.contains(" ") }
            if spokenRepeat == nil, let start = SpokenRepeat.repeatStart(in: unquoted) {
                throw .usage(Lf("remind add: %s reads as a repeat that alarmctl cannot read; see alarmctl help remind add for the repeats it takes, or quote the title",
                                inQuotes(unquoted[start...].spaced)))
            }
            var changes = ReminderChanges(title: title)
            try arguments.exclusive(dueAtOrInOrOn)
            try calendar(arguments, spoken: when, repeating: spokenRepeat, context, into: &changes)
            if case .some(.some) = changes.rule, changes.due == nil, changes.on == nil {
                throw .usage(L("remind add: the repeat never comes; give the day it is first due with --on"))
            }
            changes.notes = arguments.value(notes)
            changes.sound = arguments.value(sound).map { .some(Sound(wire: $0)) }
            changes.imagePath = arguments.value(image).map { absolute($0, context) }
            if let line = arguments.value(command) { changes.command = try AlarmFieldOptions.commandVector(line) }
            let answer = try DaemonConnection(arguments, context).call(AddReminder.self, .init(changes))
            try report(answer, verb: N_("Added reminder"), arguments, context).get()
            if when == nil, spokenRepeat == nil, words.count == 1, !arguments.hasAny(dueAtOrInOrOn.options + calendarOptions) {
                noteTimeInQuotes(words[0], context)
            }
        }
    )

    /// `remind add "call mum tomorrow 6pm"`: the quotes made the time part of
    /// the title, and the reminder has no due time. It is added as written (a
    /// title may well end in words that read as a time); the note says how to
    /// have it due.
    static func noteTimeInQuotes(_ quotedTitle: String, _ context: CommandContext) {
        let words = quotedTitle.split(separator: " ").map(String.init)
        guard words.count > 1, case let (title, when?) = WhenParser.titleAndWhen(words, context: context) else { return }
        // The title as a shell takes it back: in double quotes unless it holds what a shell reads in them.
        let plain = !title.contains { "\"$`\\!".contains($0) }
        let shellTitle = plain ? "\"" + title + "\"" : "'" + title.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
        let command = ["alarmctl", "remind", "add", shellTitle, when].spaced
        context.standardError("alarmctl: " + Lf("note: %1$s has no due time; to have it due %2$s, put the time after the quotes: %3$s", inQuotes(quotedTitle), when, command) + "\n")
    }

    static let list = Command(
        spec: CommandSpec(
            name: "remind list",
            summary: N_("List open reminders in their order."),
            details: N_("POS is the place in the list, as remind move takes it (1 is the top)."),
            options: [all, json, socket],
            examples: ["alarmctl remind list", "alarmctl remind list --all --json"]
        ),
        run: { arguments, context throws(CLIError) in
            let all = arguments.flag(Self.all)
            let answer = try DaemonConnection(arguments, context).call(ListReminders.self, .init(all: all))
            if arguments.flag(json) { return context.emitJSON(answer.object) }
            // Timers have their own list (alarmctl timer).
            let reminders = try answer.read().reminders.map(ReminderView.init).filter { !$0.isTimer }
            context.standardOutput(ItemFormat(context).reminderTable(reminders, all: all))
        }
    )

    static let show = Command(
        spec: CommandSpec(
            name: "remind show",
            summary: N_("Show one reminder in full."),
            details: N_("ID is a full id, its first characters (at least 4), or the title (whole, or its first letters, any case). --json prints {\"reminder\": …}."),
            positionals: [reminderID], options: [json, socket],
            examples: ["alarmctl remind show 5e6f7a8b"]
        ),
        run: { arguments, context throws(CLIError) in
            let daemon = DaemonConnection(arguments, context)
            let answer = try daemon.call(GetReminder.self, .init(id: arguments.positionals[0]), subject: N_("reminder"))
            if arguments.flag(json) { return context.emitJSON(answer.object) }
            let reminder = ReminderView(try answer.read().reminder)
            // Its place as remind list numbers it: among the open to-dos.
            let open = reminder.done || reminder.isTimer ? []
                : try daemon.call(ListReminders.self, .init(all: false)).read().reminders.map(ReminderView.init).filter { !$0.isTimer }
            context.standardOutput(ItemFormat(context).reminderDetails(reminder, place: open.firstIndex { $0.id == reminder.id }.map { $0 + 1 }))
        }
    )

    static let done = completeCommand(name: "done", done: true)
    static let undone = completeCommand(name: "undone", done: false)

    private static func completeCommand(name: String, done: Bool) -> Command {
        Command(
            spec: CommandSpec(
                name: "remind \(name)",
                summary: done ? N_("Mark a reminder done (a ringing one stops).") : N_("Mark a reminder not done again."),
                details: N_("With several IDs, each is tried; the exit code is 1 if any failed."),
                positionals: [done ? openReminderIDs : reminderIDs], options: [json, socket],
                examples: ["alarmctl remind \(name) 5e6f7a8b", "alarmctl remind \(name) 5e6f 9a0b"]
            ),
            run: { arguments, context throws(CLIError) in
                let daemon = DaemonConnection(arguments, context)
                try forEachID(arguments.positionals, noun: N_("reminders"), verb: done ? N_("marked done") : N_("marked not done"), context: context) { id throws(CLIError) in
                    // One marked as it already is: said so, and nothing written (a repeating
                    // one is done only after its last occurrence; done takes it to the next).
                    var reminder: ReminderView
                    switch try daemon.attemptReminder(id) {
                    case .success(let found): reminder = found
                    case .failure(let error): return .failure(error)
                    }
                    if !done, !reminder.done {
                        switch try doneNamesake(of: reminder, typed: id, daemon) {
                        case .success(let found?): reminder = found
                        case .success(nil): break
                        case .failure(let error): return .failure(error)
                        }
                    }
                    if reminder.done == done {
                        return report(Answer(reminder), verb: done ? N_("Already done:") : N_("Still not done:"),
                                      arguments, context)
                    }
                    return try daemon.attempt(CompleteReminder.self, .init(id: reminder.id, done: done), subject: N_("reminder")).flatMap { answer in
                        report(answer, verb: done ? N_("Done:") : N_("Not done:"), arguments, context)
                    }
                }
            }
        )
    }

    /// `remind undone milk` with an open "Milk" and a done one: the daemon's
    /// names prefer what `list` shows, the open one, which is not what undone
    /// means. The done reminder of that name, when `typed` named the open
    /// `reminder` by its title (not by its id); `nil` for none; several are
    /// ambiguous, listed as the daemon lists them.
    private static func doneNamesake(of reminder: ReminderView, typed: String, _ daemon: DaemonConnection) throws(CLIError) -> Result<ReminderView?, CLIError> {
        let title = Item.folded(reminder.title)
        guard !Item.folded(typed).isEmpty, title.hasPrefix(Item.folded(typed)) else { return .success(nil) }
        let namesakes = try daemon.call(ListReminders.self, .init(all: true)).read().reminders.map(ReminderView.init)
            .filter { $0.done && !$0.isTimer && Item.folded($0.title) == title }
        guard namesakes.count > 1 else { return .success(namesakes.first) }
        return .failure(.daemon(Lf("%s matches several items; name one by its id:", DaemonErrorText.shown(typed))
                                + DaemonErrorText.candidates(namesakes.map(\.id), titles: namesakes.map(\.title))))
    }

    static let remove = Command(
        spec: CommandSpec(
            name: "remind rm",
            summary: N_("Delete reminders; the ones after them move up."),
            details: N_("With several IDs, each is tried; the exit code is 1 if any failed."),
            positionals: [reminderIDs], options: [json, socket],
            examples: ["alarmctl remind rm 5e6f7a8b", "alarmctl remind rm 5e6f 9a0b"]
        ),
        run: { arguments, context throws(CLIError) in
            try removeEach(RemoveReminder.self, noun: N_("reminders"), subject: N_("reminder"), said: N_("Removed reminder %1$s (%2$s)"), arguments, context)
        }
    )

    private static let dueAtOrInOrOn = Alternatives(at, within, on)

    /// The due time (`--at`, `--in`; `--on` or an `--at` day alone is all
    /// day), the repeat and `--before` into `changes`.
    /// `rent every month on the 1st 9am`, `standup weekdays 9:30`: the
    /// title, then a repeat in words with its WHEN before or after it, or
    /// none; `nil` when the words after the title are no repeat.
    static func repeatInWords(_ words: [String], context: CommandContext) -> (title: String, when: String?, repeat: SpokenRepeat?)? {
        for split in 1..<max(1, words.count) {
            guard let (found, rest) = try? SpokenRepeat.split(words[split...].spaced, field: "WHEN"), let found else { continue }
            guard rest.isEmpty || (try? WhenParser.due(rest, option: "WHEN", now: context.now, zone: context.systemZone)) != nil else { continue }
            return (words[..<split].spaced, rest.isEmpty ? nil : rest, found)
        }
        return nil
    }

    private static func calendar(_ arguments: ParsedArguments, spoken: String? = nil, repeating spokenRepeat: SpokenRepeat? = nil, _ context: CommandContext,
                                 into changes: inout ReminderChanges) throws(CLIError) {
        var dueDay: Int64?
        var dueInstant: Date?
        switch try WhenParser.due(arguments, spoken: spoken, context: context) {
        case .instant(let date)?:
            changes.due = WireTime.string(date, in: context.systemZone)
            dueDay = RuleOptions.today(date, in: context.systemZone)
            dueInstant = date
        case .day(let day)?:
            changes.on = RecurrenceRule.dateText(day)
            dueDay = day
        case nil:
            break
        }
        if let text = arguments.value(on) {
            guard let day = CivilTime.dayNumber(isoDate: text) else { throw RuleOptions.dateError(on, text) }
            changes.on = text
            dueDay = day
        }
        var weekdays: RepeatDays?
        if let spec = arguments.value(days) {
            do { weekdays = try RepeatDays.parse(spec, field: "--days") } catch { throw .invalid(error) }
        }
        // A repeat counts from the day it is first due (every 3 days from
        // then), else from today.
        let start = dueDay ?? RuleOptions.today(context.now, in: context.systemZone)
        if let rule = try RuleOptions.rule(arguments, days: weekdays, today: start) {
            changes.rule = .some(rule)
        } else if let weekdays {
            // --days alone: every week on those days; `never` ends the repeat.
            changes.rule = .some(weekdays.isEmpty ? nil : .weekly(on: weekdays, start: start))
        } else if let spokenRepeat {
            // `every month 9am` said on the 4th is on the 4th, though 9:00
            // today has passed and the time alone reads as tomorrow's.
            let today = RuleOptions.today(context.now, in: context.systemZone)
            let dayless = (spokenRepeat.everyMonths != nil || spokenRepeat.everyYears != nil) && spokenRepeat.monthDay == nil
            let timeAlone = spoken.map { text in (try? DayAndTime.parse(text, field: "WHEN", requireTime: true)).map { $0.day == nil } ?? false } ?? false
            changes.rule = .some(spokenRepeat.rule(start: dayless && timeAlone ? today : start))
        }
        // A repeat without a due time is first due on its first day, all day
        // (`--yearly 03-14`: the next 14 March).
        if case .some(.some(let rule)) = changes.rule, dueDay == nil, let first = rule.nextDay(after: rule.start - 1) {
            changes.on = RecurrenceRule.dateText(first)
        }
        // The first occurrence is one the rule has: repeating on the 1st, it
        // is first due on the 1st, not today; from --starting, not before.
        if case .some(.some(let rule)) = changes.rule, let day = dueDay, let first = rule.nextDay(after: max(day, rule.start) - 1), first != day {
            if let date = dueInstant {
                // The same wall-clock time, those days later.
                let rules = context.systemZone.rules, epoch = date.epochSecondsFloor
                let wall = epoch + Int64(rules.offset(at: epoch)) + (first - day) * CivilTime.secondsPerDay
                changes.due = WireTime.string(Date(epochSeconds: rules.instant(forWall: wall)), in: context.systemZone)
            } else {
                changes.on = RecurrenceRule.dateText(first)
            }
        }
        if let text = arguments.value(before) {
            var seconds: [Int] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let word = String(part.filter { $0 != " " })
                guard let value = try? DurationParser.parse(word, field: "--before"), value >= 1, value <= Int64(Reminder.beforeRange.upperBound) else {
                    throw .usage(Lf("--before must be durations up to 28d, comma-separated, like 15m,1h,1d, got %s", inQuotes(text)))
                }
                seconds.append(Int(value))
            }
            guard Set(seconds).count <= Reminder.maxBefore else { throw .usage(Lf("--before takes at most %1$s durations, got %2$s", Reminder.maxBefore, seconds.count)) }
            changes.before = Array(Set(seconds)).sorted()
        }
    }

    /// `remind edit`'s options that change something; it insists on one.
    private enum EditOptions {
        static let title = Option("title", "TEXT", .text, N_("the new title"))
        static let notes = Option("notes", "TEXT", .text, N_("the new notes (\"\" clears them)"))
        static let noDue = Option(flag: "no-due", N_("remove the due time: it will not ring"))
        static let image = Option("image", "PATH", .file, N_("show this image with the notification"))
        static let noImage = Option(flag: "no-image", N_("remove the image"))
        static let command = Option("command", "LINE", .commandLine, N_("run this when it is due (never run by a shell)"))
        static let noRepeat = Option(flag: "no-repeat", N_("stop it coming back: the next done is the last"))
        static let noBefore = Option(flag: "no-before", N_("remove the advance notices"))
        static let changes = [title, notes, at, within, noDue] + calendarOptions + [noRepeat, noBefore, sound, image, noImage, command, AlarmFieldOptions.noCommand]
        static let due = Alternatives(at, within, on, noDue)
        static let repeatOrNot = Alternatives(RuleOptions.every, RuleOptions.monthly, RuleOptions.yearly, noRepeat)
        static let beforeOrNot = Alternatives(before, noBefore)
        static let imageOrNot = Alternatives(image, noImage)
        static let commandOrNot = Alternatives(command, AlarmFieldOptions.noCommand)
    }

    static let edit = Command(
        spec: CommandSpec(
            name: "remind edit",
            summary: N_("Change a reminder."),
            details: N_("""
                Only the options given change. WHEN and DURATION are read as for remind add; a repeat given
                replaces the old one whole. A WHEN after the ID is --at WHEN; a day alone there or with --at
                keeps the time of day it was due at (remind edit dentist fri).
                """),
            positionals: [reminderID, Positional("WHEN", .instant, optional: true, repeated: true)],
            options: EditOptions.changes + [json, socket],
            alternatives: [EditOptions.due, EditOptions.imageOrNot, EditOptions.commandOrNot, EditOptions.repeatOrNot, EditOptions.beforeOrNot,
                           RuleOptions.reminderFrequencies, RuleOptions.ends],
            examples: ["alarmctl remind edit 5e6f --at 16:30", "alarmctl remind edit dentist fri", "alarmctl remind edit 5e6f --title \"Call Dr. Ng\" --no-due",
                       "alarmctl remind edit 5e6f --every 1w --until 2027-06-30", "alarmctl remind edit 5e6f --no-repeat --no-before"]
        ),
        run: { arguments, context throws(CLIError) in
            let daemon = DaemonConnection(arguments, context)
            // `remind edit book flights --notes …`, `remind edit dentist fri`.
            let (id, words) = arguments.positionals.count > 1 ? leadingName(arguments.positionals, alarm: false, daemon: daemon) : (arguments.positionals[0], [])
            let spoken = words.isEmpty ? nil : words.spaced
            guard arguments.hasAny(EditOptions.changes) || spoken != nil else {
                throw .usage(L("remind edit: nothing to change; give at least one option (see alarmctl remind edit --help)"))
            }
            if let spoken, arguments.hasAny(EditOptions.due.options) {
                throw .usage(Lf("remind edit: %s is when it is due; give it or --at, --in, --on, --no-due, not both", inQuotes(spoken)))
            }
            try arguments.exclusive(EditOptions.due)
            try arguments.exclusive(EditOptions.imageOrNot)
            var changes = ReminderChanges(title: arguments.value(EditOptions.title), notes: arguments.value(EditOptions.notes))
            try arguments.exclusive(EditOptions.repeatOrNot)
            try arguments.exclusive(EditOptions.beforeOrNot)
            try calendar(arguments, spoken: spoken, context, into: &changes)
            if let when = spoken ?? arguments.value(at), let day = changes.on, changes.due == nil {
                changes = try keepingTimeOfDay(changes, day: day, when: when, of: id, daemon, context)
            }
            if arguments.flag(EditOptions.noDue) { changes.due = "" }
            if arguments.flag(EditOptions.noRepeat) { changes.rule = .some(nil) }
            if arguments.flag(EditOptions.noBefore) { changes.before = [] }
            if let name = arguments.value(sound) { changes.sound = .some(name == "default" ? nil : Sound(wire: name)) }
            changes.imagePath = arguments.value(EditOptions.image).map { absolute($0, context) }
            if arguments.flag(EditOptions.noImage) { changes.imagePath = "" }
            try arguments.exclusive(EditOptions.commandOrNot)
            if let line = arguments.value(EditOptions.command) { changes.command = try AlarmFieldOptions.commandVector(line) }
            if arguments.flag(AlarmFieldOptions.noCommand) { changes.command = [] }
            let answer = try daemon.call(UpdateReminder.self, .init(id: id, changes), subject: N_("reminder"))
            try report(answer, verb: N_("Changed reminder"), arguments, context).get()
        }
    )

    /// `remind edit dentist fri`: a day alone moves a reminder due at a time
    /// to that day at the same time, where it would make it all-day.
    private static func keepingTimeOfDay(_ changes: ReminderChanges, day: String, when: String, of id: String, _ daemon: DaemonConnection,
                                         _ context: CommandContext) throws(CLIError) -> ReminderChanges {
        guard let said = try? DayAndTime.parse(when, field: "WHEN"), said.day != nil, said.time == nil, let dayNumber = CivilTime.dayNumber(isoDate: day) else {
            return changes
        }
        let current = try daemon.reminder(id)
        guard !current.allDay, let due = TimeText.instant(current.due) else { return changes }
        let rules = context.systemZone.rules
        let local = rules.localDateTime(at: due.epochSecondsFloor)
        let wall = dayNumber * CivilTime.secondsPerDay + Int64(local.hour * 3600 + local.minute * 60 + local.second)
        var kept = changes
        kept.on = nil
        kept.due = WireTime.string(Date(epochSeconds: rules.instant(forWall: wall)), in: context.systemZone)
        return kept
    }

    static let move = Command(
        spec: CommandSpec(
            name: "remind move",
            summary: N_("Move a reminder to another place in the list."),
            details: N_("""
                POSITION is top, bottom, up or down (one place), or a number from 1 at the top, as remind
                list shows it (among the open reminders); past the end is the bottom. The others close up
                around it.
                """),
            positionals: [reminderID, Positional("POSITION", .choice(["top", "bottom", "up", "down"]))], options: [json, socket],
            examples: ["alarmctl remind move 5e6f top", "alarmctl remind move 5e6f 3", "alarmctl remind move \"call plumber\" up", "alarmctl remind move 5e6f bottom"]
        ),
        run: { arguments, context throws(CLIError) in
            let text = arguments.positionals[1].lowercased()
            let number = Int(text)
            guard ["top", "bottom", "up", "down"].contains(text) || (number ?? 0) >= 1 else {
                throw .usage(Lf("POSITION must be top, bottom, up, down or a number from 1 (the top), got %s", inQuotes(arguments.positionals[1])))
            }
            let daemon = DaemonConnection(arguments, context)
            // Numbers count the open to-dos, as the list shows them; the
            // daemon's positions count every reminder, done ones and timers
            // too. A place is the daemon's position of the to-do there now.
            let all = try daemon.call(ListReminders.self, .init(all: true)).read().reminders.map(ReminderView.init)
            let todos = all.filter { !$0.isTimer }
            let open = todos.filter { !$0.done }
            // Only an open to-do has a place in the list.
            let moving = try daemon.reminder(arguments.positionals[0])
            guard let index = open.firstIndex(where: { $0.id == moving.id }) else {
                throw .daemon(Lf("%s is not an open to-do: it has no place in the list", inQuotes(moving.title)))
            }
            let position: Int
            switch (text, number) {
            case ("top", _): position = todos.first?.position ?? 0
            case ("up", _), ("down", _):
                // One place up or down among the open to-dos, as the list shows them.
                position = open[text == "up" ? max(0, index - 1) : min(open.count - 1, index + 1)].position
            case (_, let number?) where number <= open.count: position = open[number - 1].position
            default: position = todos.last?.position ?? max(0, all.count - 1)
            }
            let answer = try daemon.call(MoveReminder.self, .init(id: moving.id, position: position), subject: N_("reminder"))
            if arguments.flag(json) { return context.emitJSON(answer.object) }
            context.standardOutput(ItemFormat(context).reminderTable(try answer.read().reminders.map(ReminderView.init).filter { !$0.done && !$0.isTimer }, all: false))
        }
    )

    /// Prints the reminder a change returned: as JSON, or as `VERB 5e6f7a8b Tea (due …)`.
    static func report(_ answer: Answer<ReminderReply>, verb: String, _ arguments: ParsedArguments, _ context: CommandContext) -> Result<Void, CLIError> {
        answer.emit(context, json: arguments.flag(json)) { reply in
            // `Done: 5e6f7a8b …`; after a full-width colon, no space.
            let said = L(verb)
            context.emit(said + (said.hasSuffix("：") ? "" : " ") + ItemFormat(context).reminderSummary(ReminderView(reply.reminder), sayingDone: !["Done:", "Already done:"].contains(verb)))
        }
    }

    /// The daemon runs elsewhere, so a relative image path must be made absolute here.
    private static func absolute(_ path: String, _ context: CommandContext) -> String {
        path.hasPrefix("/") ? path : context.workingDirectory + "/" + path
    }
}

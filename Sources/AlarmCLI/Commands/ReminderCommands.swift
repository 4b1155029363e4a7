import AlarmCore
import AlarmProtocol

/// `alarmctl remind …`: the to-do list with due times.
enum ReminderCommands {
    static let commands: [Command] = [add, list, show, done, undone, remove, edit, move]

    private static let socket = Option.socket
    private static let json = Option.json
    private static let reminderID = Positional("ID", .reminderID)

    static let at = Option("at", "WHEN", .instant, "due at WHEN")
    static let within = Option("in", "DURATION", .duration, "due DURATION from now")
    private static let image = Option("image", "PATH", .file, "an image shown with the notification")
    private static let command = Option("command", "LINE", .commandLine, "run this when it is due: a program and its arguments (never run by a shell)")
    private static let notes = Option("notes", "TEXT", .text, "more text, shown with the notification")
    private static let all = Option(flag: "all", "include reminders that are done")
    static let on = Option("on", "YYYY-MM-DD", .date, "due on that day, at [Reminders] AllDayAt= (09:00 unless configured)")
    static let days = Option("days", "SPEC", .days, "comes back every week on these days (with --every 2w: every other week)")
    static let before = Option("before", "DURATIONS", .duration, "a quiet notice this long before each due time: 15m,1h,1d (up to 8)")
    /// The repeat and notice options `add` and `edit` share.
    static let calendarOptions = [on, days] + RuleOptions.reminderOptions + [before]

    static let group = CommandGroup(name: "remind", summary: "Keep a to-do list whose items can ring when they are due.")

    /// What `alarmctl remind --help` prints.
    static var groupHelp: String {
        var lines = ["Usage: alarmctl remind SUBCOMMAND [OPTIONS]", "", group.summary, "", "Subcommands:"]
        let width = (commands.map(\.spec.name.count).max() ?? 0) + 2
        for command in commands { lines.append("  " + command.spec.name.padding(toLength: width) + command.spec.summary) }
        lines += ["", "WHEN is ISO 8601 (2026-03-09T14:00:00+01:00), a local YYYY-MM-DD HH:MM, or a time",
                  "of day (14:00, 2pm: today, or tomorrow once passed); DURATION is 90s, 25m, 2h, 1d or 1h30m.",
                  "", "Run 'alarmctl remind SUBCOMMAND --help' for its options and examples."]
        return lines.joined(separator: "\n") + "\n"
    }

    static let add = Command(
        spec: CommandSpec(
            name: "remind add",
            summary: "Add a reminder at the end of the list.",
            details: """
                With --at, --in or --on it rings when due; without, it is a plain to-do item.
                WHEN is ISO 8601, a local YYYY-MM-DD HH:MM, or a time of day such as 14:00
                (today, or tomorrow if that has passed); DURATION is 90s, 25m, 2h, 1d or 1h30m.
                With --days, --every, --monthly or --yearly it comes back: marking it done makes
                the next occurrence after now due, until --until or --times ends the repeat.
                """,
            positionals: [Positional("TITLE", .text)],
            options: [at, within] + calendarOptions + [notes, image, command, json, socket],
            alternatives: [dueAtOrInOrOn, RuleOptions.reminderFrequencies, RuleOptions.ends],
            examples: [
                "alarmctl remind add \"Call the dentist\" --at 14:00 --before 15m",
                "alarmctl remind add Tea --in 4m",
                "alarmctl remind add \"Water the plants\" --at 18:00 --every 3d",
                "alarmctl remind add \"Mum's birthday\" --on 2026-03-14 --yearly 03-14 --before 1d",
                "alarmctl remind add \"Pay rent\" --at \"2026-04-01 09:00\" --notes \"IBAN in the folder\"",
            ]
        ),
        run: { arguments, context throws(CLIError) in
            var changes = ReminderChanges(title: arguments.positionals[0])
            try arguments.exclusive(dueAtOrInOrOn)
            changes.due = try WhenParser.due(arguments, context: context)
            try calendar(arguments, context, into: &changes)
            if changes.rule != nil, changes.due == nil, changes.on == nil {
                throw .usage("remind add: a repeating reminder needs a due time: --at, --in or --on")
            }
            changes.notes = arguments.value(notes)
            changes.imagePath = arguments.value(image).map { absolute($0, context) }
            if let line = arguments.value(command) { changes.command = try AlarmFieldOptions.commandVector(line) }
            let reply = try DaemonConnection(arguments, context).call(AddReminder.self, .init(changes))
            report(reply, verb: "Added reminder", arguments, context)
        }
    )

    static let list = Command(
        spec: CommandSpec(
            name: "remind list",
            summary: "List open reminders in their order.",
            details: "POS is the place in the list, as remind move takes it (0 is the top).",
            options: [all, json, socket],
            examples: ["alarmctl remind list", "alarmctl remind list --all --json"]
        ),
        run: { arguments, context throws(CLIError) in
            let all = arguments.flag(Self.all)
            let reply = try DaemonConnection(arguments, context).call(ListReminders.self, .init(all: all))
            if arguments.flag(json) { return context.emitJSON(reply.object) }
            context.standardOutput(ItemFormat(context).reminderTable(reply.list(RemindersReply.reminders).map(ReminderView.init), all: all))
        }
    )

    static let show = Command(
        spec: CommandSpec(
            name: "remind show",
            summary: "Show one reminder in full.",
            details: "ID is a full id or its first characters (at least 4). --json prints {\"reminder\": …}.",
            positionals: [reminderID], options: [json, socket],
            examples: ["alarmctl remind show 5e6f7a8b"]
        ),
        run: { arguments, context throws(CLIError) in
            // The interface has no GetReminder: find it in the whole list, by the daemon's prefix rule.
            let reply = try DaemonConnection(arguments, context).call(ListReminders.self, .init(all: true))
            let reminder = try find(arguments.positionals[0], in: reply.list(RemindersReply.reminders))
            if arguments.flag(json) { return context.emitJSON(ReminderReply.json([ReminderReply.reminder: .object(reminder.object)])) }
            context.standardOutput(ItemFormat(context).reminderDetails(ReminderView(reminder)))
        }
    )

    static let done = completeCommand(name: "done", done: true)
    static let undone = completeCommand(name: "undone", done: false)

    private static func completeCommand(name: String, done: Bool) -> Command {
        Command(
            spec: CommandSpec(
                name: "remind \(name)",
                summary: done ? "Mark a reminder done (a ringing one stops)." : "Mark a reminder not done again.",
                positionals: [reminderID], options: [json, socket],
                examples: ["alarmctl remind \(name) 5e6f7a8b"]
            ),
            run: { arguments, context throws(CLIError) in
                let reply = try DaemonConnection(arguments, context).call(CompleteReminder.self, .init(id: arguments.positionals[0], done: done), subject: "reminder")
                report(reply, verb: done ? "Done:" : "Not done:", arguments, context)
            }
        )
    }

    static let remove = Command(
        spec: CommandSpec(
            name: "remind rm",
            summary: "Delete a reminder; the ones after it move up.",
            positionals: [reminderID], options: [socket],
            examples: ["alarmctl remind rm 5e6f7a8b"]
        ),
        run: { arguments, context throws(CLIError) in
            let id = arguments.positionals[0]
            _ = try DaemonConnection(arguments, context).call(RemoveReminder.self, .init(id: id), subject: "reminder")
            context.emit("Removed reminder \(id)")
        }
    )

    private static let dueAtOrInOrOn = Alternatives(at, within, on)

    /// `--on`, the repeat and `--before` into `changes`.
    private static func calendar(_ arguments: ParsedArguments, _ context: CommandContext, into changes: inout ReminderChanges) throws(CLIError) {
        if let text = arguments.value(on) {
            guard CivilTime.dayNumber(isoDate: text) != nil else { throw RuleOptions.dateError(on, text) }
            changes.on = text
        }
        var weekdays: RepeatDays?
        if let spec = arguments.value(days) {
            do { weekdays = try RepeatDays.parse(spec, field: "--days") } catch { throw .invalid(error) }
        }
        // A repeat counts from the day it is first due (every 3 days from
        // then), else from today.
        var start = RuleOptions.today(context.now, in: context.systemZone)
        if let day = changes.on.flatMap({ CivilTime.dayNumber(isoDate: $0) }) {
            start = day
        } else if let due = try WhenParser.dueDate(arguments, context: context) {
            start = RuleOptions.today(due, in: context.systemZone)
        }
        if let rule = try RuleOptions.rule(arguments, days: weekdays, today: start) {
            changes.rule = .some(rule)
        } else if let weekdays {
            // --days alone: every week on those days; `never` ends the repeat.
            changes.rule = .some(weekdays.isEmpty ? nil : RecurrenceRule(.weekly, byDay: weekdays.days.map { .init($0) }, start: start))
        }
        if let text = arguments.value(before) {
            var seconds: [Int] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let word = String(part.filter { $0 != " " })
                guard let value = try? DurationParser.parse(word, field: "--before"), value >= 1, value <= Int64(Reminder.beforeRange.upperBound) else {
                    throw .usage("--before must be durations up to 28d, comma-separated, like 15m,1h,1d, got \(ValidationError.quoted(text))")
                }
                seconds.append(Int(value))
            }
            guard Set(seconds).count <= Reminder.maxBefore else { throw .usage("--before takes at most \(Reminder.maxBefore) durations, got \(seconds.count)") }
            changes.before = Array(Set(seconds)).sorted()
        }
    }

    /// `remind edit`'s options that change something; it insists on one.
    private enum EditOptions {
        static let title = Option("title", "TEXT", .text, "the new title")
        static let notes = Option("notes", "TEXT", .text, "the new notes (\"\" clears them)")
        static let noDue = Option(flag: "no-due", "remove the due time: it will not ring")
        static let image = Option("image", "PATH", .file, "show this image with the notification")
        static let noImage = Option(flag: "no-image", "remove the image")
        static let command = Option("command", "LINE", .commandLine, "run this when it is due (never run by a shell)")
        static let noRepeat = Option(flag: "no-repeat", "stop it coming back: the next done is the last")
        static let noBefore = Option(flag: "no-before", "remove the advance notices")
        static let changes = [title, notes, at, within, noDue] + calendarOptions + [noRepeat, noBefore, image, noImage, command, AlarmFieldOptions.noCommand]
        static let due = Alternatives(at, within, on, noDue)
        static let repeatOrNot = Alternatives(RuleOptions.every, RuleOptions.monthly, RuleOptions.yearly, noRepeat)
        static let beforeOrNot = Alternatives(before, noBefore)
        static let imageOrNot = Alternatives(image, noImage)
        static let commandOrNot = Alternatives(command, AlarmFieldOptions.noCommand)
    }

    static let edit = Command(
        spec: CommandSpec(
            name: "remind edit",
            summary: "Change a reminder.",
            details: "Only the options given change. WHEN and DURATION are read as for remind add; a repeat given replaces the old one whole.",
            positionals: [reminderID],
            options: EditOptions.changes + [json, socket],
            alternatives: [EditOptions.due, EditOptions.imageOrNot, EditOptions.commandOrNot, EditOptions.repeatOrNot, EditOptions.beforeOrNot,
                           RuleOptions.reminderFrequencies, RuleOptions.ends],
            examples: ["alarmctl remind edit 5e6f --at 16:30", "alarmctl remind edit 5e6f --title \"Call Dr. Ng\" --no-due",
                       "alarmctl remind edit 5e6f --every 1w --until 2027-06-30", "alarmctl remind edit 5e6f --no-repeat --no-before"]
        ),
        run: { arguments, context throws(CLIError) in
            guard arguments.hasAny(EditOptions.changes) else {
                throw .usage("remind edit: nothing to change; give at least one option (see alarmctl remind edit --help)")
            }
            try arguments.exclusive(EditOptions.due)
            try arguments.exclusive(EditOptions.imageOrNot)
            var changes = ReminderChanges(title: arguments.value(EditOptions.title), notes: arguments.value(EditOptions.notes))
            changes.due = try WhenParser.due(arguments, context: context)
            if arguments.flag(EditOptions.noDue) { changes.due = "" }
            try arguments.exclusive(EditOptions.repeatOrNot)
            try arguments.exclusive(EditOptions.beforeOrNot)
            try calendar(arguments, context, into: &changes)
            if arguments.flag(EditOptions.noRepeat) { changes.rule = .some(nil) }
            if arguments.flag(EditOptions.noBefore) { changes.before = [] }
            changes.imagePath = arguments.value(EditOptions.image).map { absolute($0, context) }
            if arguments.flag(EditOptions.noImage) { changes.imagePath = "" }
            try arguments.exclusive(EditOptions.commandOrNot)
            if let line = arguments.value(EditOptions.command) { changes.command = try AlarmFieldOptions.commandVector(line) }
            if arguments.flag(AlarmFieldOptions.noCommand) { changes.command = [] }
            let reply = try DaemonConnection(arguments, context).call(UpdateReminder.self, .init(id: arguments.positionals[0], changes), subject: "reminder")
            report(reply, verb: "Changed reminder", arguments, context)
        }
    )

    static let move = Command(
        spec: CommandSpec(
            name: "remind move",
            summary: "Move a reminder to another place in the list.",
            details: "POSITION counts from 0 at the top, as remind list shows it; the others close up around it.",
            positionals: [reminderID, Positional("POSITION", .number)], options: [json, socket],
            examples: ["alarmctl remind move 5e6f 0", "alarmctl remind move 5e6f 3"]
        ),
        run: { arguments, context throws(CLIError) in
            let text = arguments.positionals[1]
            guard let position = Int(text), position >= 0 else {
                throw .usage("POSITION must be a whole number from 0 (the top), got \(ValidationError.quoted(text))")
            }
            let reply = try DaemonConnection(arguments, context).call(MoveReminder.self, .init(id: arguments.positionals[0], position: position), subject: "reminder")
            if arguments.flag(json) { return context.emitJSON(reply.object) }
            context.standardOutput(ItemFormat(context).reminderTable(reply.list(RemindersReply.reminders).map(ReminderView.init), all: true))
        }
    )

    /// Prints the reminder a change returned: as JSON, or as `VERB 5e6f7a8b Tea (due …)`.
    private static func report(_ reply: ReplyObject, verb: String, _ arguments: ParsedArguments, _ context: CommandContext) {
        if arguments.flag(json) { return context.emitJSON(reply.object) }
        context.emit(verb + " " + ItemFormat(context).reminderSummary(ReminderView(reply.nested(ReminderReply.reminder))))
    }

    /// The daemon runs elsewhere, so a relative image path must be made absolute here.
    private static func absolute(_ path: String, _ context: CommandContext) -> String {
        path.hasPrefix("/") ? path : context.workingDirectory + "/" + path
    }

    /// A reminder by full id or unique prefix of at least 4 characters, the rule
    /// the daemon applies to every id.
    static func find(_ id: String, in reminders: [ReplyObject]) throws(CLIError) -> ReplyObject {
        let key = id.lowercased()
        guard key.count >= 4 else {
            throw .daemon("id must be a full id or at least 4 characters of one, got \(ValidationError.quoted(id))")
        }
        let matches = reminders.filter { $0.string(Wire.Reminder.id).lowercased().hasPrefix(key) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .daemon("no reminder with id \(ValidationError.quoted(id))")
        default:
            throw .daemon("id \(ValidationError.quoted(id)) matches several items: \(matches.map { $0.string(Wire.Reminder.id) }.joined(separator: ", ")); give more characters")
        }
    }
}

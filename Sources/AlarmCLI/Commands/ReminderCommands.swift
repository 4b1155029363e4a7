import AlarmCore
import AlarmProtocol

/// `alarmctl remind …`: the to-do list with due times.
enum ReminderCommands {
    static let all: [Command] = [add, list, show, done, undone, remove, edit, move]

    private static let socket = CommandSpec.socketOption
    private static let json = CommandSpec.jsonOption

    /// What `alarmctl remind --help` prints.
    static var groupHelp: String {
        var lines = ["Usage: alarmctl remind SUBCOMMAND [OPTIONS]", "", "Keep a to-do list whose items can ring when they are due.", "", "Subcommands:"]
        let width = (all.map(\.spec.name.count).max() ?? 0) + 2
        for command in all { lines.append("  " + command.spec.name.padding(toLength: width) + command.spec.summary) }
        lines += ["", "WHEN is ISO 8601 (2026-03-09T14:00:00+01:00), a local YYYY-MM-DD HH:MM, or a time",
                  "of day (14:00, 2pm: today, or tomorrow once passed); DURATION is 90s, 25m, 2h, 1d or 1h30m.",
                  "", "Run 'alarmctl remind SUBCOMMAND --help' for its options and examples."]
        return lines.joined(separator: "\n") + "\n"
    }

    static let add = Command(
        spec: CommandSpec(
            name: "remind add", synopsis: "remind add TITLE [--at WHEN | --in DURATION] [--notes TEXT] [--image PATH] [--command LINE] [--json]",
            summary: "Add a reminder at the end of the list.",
            details: """
                With --at or --in it rings when due; without, it is a plain to-do item.
                WHEN is ISO 8601, a local YYYY-MM-DD HH:MM, or a time of day such as 14:00
                (today, or tomorrow if that has passed); DURATION is 90s, 25m, 2h, 1d or 1h30m.
                """,
            options: [
                .init("at", "WHEN", "due at WHEN"),
                .init("in", "DURATION", "due DURATION from now"),
                .init("notes", "TEXT", "more text, shown with the notification"),
                .init("image", "PATH", "an image shown with the notification"),
                .init("command", "LINE", "run this when it is due: a program and its arguments (never run by a shell)"),
                json, socket,
            ],
            positionals: (1, 1),
            examples: [
                "alarmctl remind add \"Call the dentist\" --at 14:00",
                "alarmctl remind add Tea --in 4m",
                "alarmctl remind add \"Pay rent\" --at \"2026-04-01 09:00\" --notes \"IBAN in the folder\"",
            ]
        ),
        run: { arguments, context throws(CLIError) in
            var parameters: JSONObject = ["title": .string(arguments.positionals[0])]
            if let due = try WhenParser.due(arguments, context: context) { parameters["due"] = .string(due) }
            if let notes = arguments.value("notes") { parameters["notes"] = .string(notes) }
            if let image = arguments.value("image") { parameters["imagePath"] = .string(absolute(image, context)) }
            if let line = arguments.value("command") { parameters["command"] = try AlarmFieldOptions.commandVector(line) }
            let reply = try DaemonConnection(arguments, context).call("AddReminder", parameters)
            report(reply, verb: "Added reminder", arguments, context)
        }
    )

    static let list = Command(
        spec: CommandSpec(
            name: "remind list", synopsis: "remind list [--all] [--json]",
            summary: "List open reminders in their order.",
            details: "POS is the place in the list, as remind move takes it (0 is the top).",
            options: [.init("all", nil, "include reminders that are done"), json, socket],
            examples: ["alarmctl remind list", "alarmctl remind list --all --json"]
        ),
        run: { arguments, context throws(CLIError) in
            let all = arguments.flag("all")
            let reply = try DaemonConnection(arguments, context).call("ListReminders", all ? ["all": true] : [:])
            if arguments.flag("json") { return context.emitJSON(reply) }
            context.standardOutput(ItemFormat(context).reminderTable(ReplyObject(reply).list("reminders").map(ReminderView.init), all: all))
        }
    )

    static let show = Command(
        spec: CommandSpec(
            name: "remind show", synopsis: "remind show ID [--json]",
            summary: "Show one reminder in full.",
            details: "ID is a full id or its first characters (at least 4). --json prints {\"reminder\": …}.",
            options: [json, socket], positionals: (1, 1),
            examples: ["alarmctl remind show 5e6f7a8b"]
        ),
        run: { arguments, context throws(CLIError) in
            // The interface has no GetReminder: find it in the whole list, by the daemon's prefix rule.
            let reply = try DaemonConnection(arguments, context).call("ListReminders", ["all": true])
            let reminder = try find(arguments.positionals[0], in: ReplyObject(reply).list("reminders"))
            if arguments.flag("json") { return context.emitJSON(["reminder": .object(reminder.object)]) }
            context.standardOutput(ItemFormat(context).reminderDetails(ReminderView(reminder)))
        }
    )

    static let done = completeCommand(name: "done", done: true)
    static let undone = completeCommand(name: "undone", done: false)

    private static func completeCommand(name: String, done: Bool) -> Command {
        Command(
            spec: CommandSpec(
                name: "remind \(name)", synopsis: "remind \(name) ID [--json]",
                summary: done ? "Mark a reminder done (a ringing one stops)." : "Mark a reminder not done again.",
                options: [json, socket], positionals: (1, 1),
                examples: ["alarmctl remind \(name) 5e6f7a8b"]
            ),
            run: { arguments, context throws(CLIError) in
                let reply = try DaemonConnection(arguments, context).call(
                    "CompleteReminder", ["id": .string(arguments.positionals[0]), "done": .bool(done)], subject: "reminder")
                report(reply, verb: done ? "Done:" : "Not done:", arguments, context)
            }
        )
    }

    static let remove = Command(
        spec: CommandSpec(
            name: "remind rm", synopsis: "remind rm ID",
            summary: "Delete a reminder; the ones after it move up.",
            options: [socket], positionals: (1, 1),
            examples: ["alarmctl remind rm 5e6f7a8b"]
        ),
        run: { arguments, context throws(CLIError) in
            let id = arguments.positionals[0]
            _ = try DaemonConnection(arguments, context).call("RemoveReminder", ["id": .string(id)], subject: "reminder")
            context.emit("Removed reminder \(id)")
        }
    )

    static let edit = Command(
        spec: CommandSpec(
            name: "remind edit",
            synopsis: "remind edit ID [--title TEXT] [--notes TEXT] [--at WHEN | --in DURATION | --no-due] [--image PATH | --no-image] [--command LINE | --no-command] [--json]",
            summary: "Change a reminder.",
            details: "Only the options given change. WHEN and DURATION are read as for remind add.",
            options: [
                .init("title", "TEXT", "the new title"),
                .init("notes", "TEXT", "the new notes (\"\" clears them)"),
                .init("at", "WHEN", "due at WHEN"),
                .init("in", "DURATION", "due DURATION from now"),
                .init("no-due", nil, "remove the due time: it will not ring"),
                .init("image", "PATH", "show this image with the notification"),
                .init("no-image", nil, "remove the image"),
                .init("command", "LINE", "run this when it is due (never run by a shell)"),
                .init("no-command", nil, "remove the command"),
                json, socket,
            ],
            positionals: (1, 1),
            examples: ["alarmctl remind edit 5e6f --at 16:30", "alarmctl remind edit 5e6f --title \"Call Dr. Ng\" --no-due"]
        ),
        run: { arguments, context throws(CLIError) in
            guard arguments.hasAny(["title", "notes", "at", "in", "no-due", "image", "no-image", "command", "no-command"]) else {
                throw .usage("remind edit: nothing to change; give at least one option (see alarmctl remind edit --help)")
            }
            try arguments.exclusive("at", "in", "no-due")
            try arguments.exclusive("image", "no-image")
            var parameters: JSONObject = ["id": .string(arguments.positionals[0])]
            if let title = arguments.value("title") { parameters["title"] = .string(title) }
            if let notes = arguments.value("notes") { parameters["notes"] = .string(notes) }
            if let due = try WhenParser.due(arguments, context: context) { parameters["due"] = .string(due) }
            if arguments.flag("no-due") { parameters["due"] = "" }
            if let image = arguments.value("image") { parameters["imagePath"] = .string(absolute(image, context)) }
            if arguments.flag("no-image") { parameters["imagePath"] = "" }
            try arguments.exclusive("command", "no-command")
            if let line = arguments.value("command") { parameters["command"] = try AlarmFieldOptions.commandVector(line) }
            if arguments.flag("no-command") { parameters["command"] = .array([]) }
            let reply = try DaemonConnection(arguments, context).call("UpdateReminder", parameters, subject: "reminder")
            report(reply, verb: "Changed reminder", arguments, context)
        }
    )

    static let move = Command(
        spec: CommandSpec(
            name: "remind move", synopsis: "remind move ID POSITION [--json]",
            summary: "Move a reminder to another place in the list.",
            details: "POSITION counts from 0 at the top, as remind list shows it; the others close up around it.",
            options: [json, socket], positionals: (2, 2),
            examples: ["alarmctl remind move 5e6f 0", "alarmctl remind move 5e6f 3"]
        ),
        run: { arguments, context throws(CLIError) in
            let text = arguments.positionals[1]
            guard let position = Int(text), position >= 0 else {
                throw .usage("POSITION must be a whole number from 0 (the top), got \(ValidationError.quoted(text))")
            }
            let reply = try DaemonConnection(arguments, context).call(
                "MoveReminder", ["id": .string(arguments.positionals[0]), "position": JSONValue(position)], subject: "reminder")
            if arguments.flag("json") { return context.emitJSON(reply) }
            context.standardOutput(ItemFormat(context).reminderTable(ReplyObject(reply).list("reminders").map(ReminderView.init), all: true))
        }
    )

    /// Prints the reminder a change returned: as JSON, or as `VERB 5e6f7a8b Tea (due …)`.
    private static func report(_ reply: JSONObject, verb: String, _ arguments: ParsedArguments, _ context: CommandContext) {
        if arguments.flag("json") { return context.emitJSON(reply) }
        context.emit(verb + " " + ItemFormat(context).reminderSummary(ReminderView(ReplyObject(reply).nested("reminder"))))
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
        let matches = reminders.filter { $0.string("id").lowercased().hasPrefix(key) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .daemon("no reminder with id \(ValidationError.quoted(id))")
        default:
            throw .daemon("id \(ValidationError.quoted(id)) matches several items: \(matches.map { $0.string("id") }.joined(separator: ", ")); give more characters")
        }
    }
}

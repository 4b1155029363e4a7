import AlarmProtocol

/// `snooze` and `dismiss`: they act on whatever rings, alarm or reminder.
enum RingingCommands {
    static let all: [Command] = [snooze, dismiss]

    private static let itemID = Positional("ID", .itemID, optional: true)
    private static let minutes = Option("minutes", "N", .number, "snooze for N minutes, 1–60")

    static let snooze = Command(
        spec: CommandSpec(
            name: "snooze",
            summary: "Snooze a ringing alarm or reminder.",
            details: "Without ID: the one item ringing now (an error if none or several ring). It rings again after its own snooze minutes, or N.",
            positionals: [itemID], options: [minutes, .json, .socket],
            examples: ["alarmctl snooze", "alarmctl snooze 1a2b --minutes 5"]
        ),
        run: { arguments, context throws(CLIError) in
            let minutes = try arguments.integer(Self.minutes, in: 1...60)
            let reply = try DaemonConnection(arguments, context).call(Snooze.self, .init(id: arguments.positionals.first, minutes: minutes))
            if arguments.flag(.json) { return context.emitJSON(reply.object) }
            let count = reply.int(Snooze.Reply.snoozeCount)
            context.emit("Snoozed \(shortID(reply.string(Snooze.Reply.id))) until \(TimeText(context).clock(reply.optionalString(Snooze.Reply.until))) (snooze \(count))")
        }
    )

    static let dismiss = Command(
        spec: CommandSpec(
            name: "dismiss",
            summary: "Stop a ringing or snoozed alarm or reminder.",
            details: "Without ID: the one item ringing now. A repeating alarm waits for its next day, a one-shot alarm switches off, a reminder stays open until done.",
            positionals: [itemID], options: [.json, .socket],
            examples: ["alarmctl dismiss", "alarmctl dismiss 1a2b"]
        ),
        run: { arguments, context throws(CLIError) in
            let reply = try DaemonConnection(arguments, context).call(Dismiss.self, .init(id: arguments.positionals.first))
            if arguments.flag(.json) { return context.emitJSON(reply.object) }
            context.emit("Dismissed \(shortID(reply.string(Dismiss.Reply.id)))")
        }
    )
}

import AlarmCore

/// alarmctl's entry point: picks the subcommand and turns errors into messages
/// and exit codes.
public enum AlarmControl {
    static let commands: [(spec: CommandSpec, run: @Sendable (ParsedArguments, CommandContext) throws(CLIError) -> Void)] = [
        (PreviewCommand.spec, PreviewCommand.run),
    ]

    static var usage: String {
        var lines = [
            "Usage: alarmctl COMMAND [OPTIONS]",
            "",
            "Drive alarmd, the alarm and reminder daemon.",
            "",
            "Commands:",
        ]
        let width = (commands.map(\.spec.name.count).max() ?? 0) + 4
        for command in commands {
            lines.append("  " + command.spec.name.padding(toLength: width) + command.spec.summary.prefix { $0 != "\n" })
        }
        lines += ["", "Run 'alarmctl COMMAND --help' for a command's options and examples."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs alarmctl with `arguments` (without the program name) and returns the
    /// exit code.
    public static func run(_ arguments: [String], context: CommandContext) -> Int32 {
        guard let name = arguments.first else {
            context.standardError(usage)
            return CLIError.usage("").exitCode
        }
        if name == "--help" || name == "-h" || name == "help" {
            context.standardOutput(usage)
            return 0
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            context.standardError("alarmctl: unknown command \(ValidationError.quoted(name)); run 'alarmctl --help' for the list\n")
            return CLIError.usage("").exitCode
        }
        do {
            let parsed = try ParsedArguments(arguments.dropFirst(), spec: command.spec)
            if parsed.wantsHelp {
                context.standardOutput(command.spec.helpText)
                return 0
            }
            try command.run(parsed, context)
            return 0
        } catch {
            context.standardError("alarmctl: \(error.description)\n")
            return error.exitCode
        }
    }
}

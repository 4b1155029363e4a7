// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// alarmctl's entry point: picks the subcommand and turns errors into messages
/// and exit codes.
public enum AlarmControl {
    /// The commands in the order `--help` lists them, under headings.
    static let sections: [(title: String, commands: [Command])] = [
        (N_("Alarms"), AlarmCommands.all),
        (N_("Reminders"), ReminderCommands.commands),
        (N_("Ringing now"), RingingCommands.all),
        (N_("Timers"), TimerCommands.all),
        (N_("The daemon"), DaemonCommands.all),
        (N_("Full screen"), [InterfaceCommand.command]),
        (N_("Without the daemon"), [PreviewCommand.command, CompletionsCommand.command]),
    ]

    static let commands: [Command] = sections.flatMap(\.commands)

    /// The command `name` names (spelt as ``CommandTable/canonical(_:)``
    /// spells it), built alone. A start builds only the command it runs:
    /// building every command, as ``commands`` does for the help and the
    /// completions, was 124,000 instructions and about a tenth of `alarmctl
    /// add`'s time (BENCHMARKS.md). CommandTableTests checks that every
    /// command of the table is here.
    static func command(named name: String) -> Command? {
        switch name {
        case "list": AlarmCommands.list
        case "show": AlarmCommands.show
        case "add": AlarmCommands.add
        case "edit": AlarmCommands.edit
        case "rename": RenameCommands.rename
        case "test": AlarmCommands.test
        case "rm": AlarmCommands.remove
        case "enable": AlarmCommands.enable
        case "disable": AlarmCommands.disable
        case "skip": SkipCommands.skip
        case "unskip": SkipCommands.unskip
        case "pause": AlarmCommands.pause
        case "resume": AlarmCommands.resume
        case "remind add": ReminderCommands.add
        case "remind list": ReminderCommands.list
        case "remind show": ReminderCommands.show
        case "remind done": ReminderCommands.done
        case "remind undone": ReminderCommands.undone
        case "remind rm": ReminderCommands.remove
        case "remind edit": ReminderCommands.edit
        case "remind rename": RenameCommands.remindRename
        case "remind move": ReminderCommands.move
        case "snooze": RingingCommands.snooze
        case "dismiss": RingingCommands.dismiss
        case "timer": TimerCommands.timer
        case "next": DaemonCommands.next
        case "status": DaemonCommands.status
        case "sync": DaemonCommands.sync
        case "watch": DaemonCommands.watch
        case "history": DaemonCommands.history
        case "sounds": DaemonCommands.sounds
        case "export": DaemonCommands.export
        case "import": DaemonCommands.importDocument
        case "ui": InterfaceCommand.command
        case "preview": PreviewCommand.command
        case "completions": CompletionsCommand.command
        default: nil
        }
    }

    /// Every command's table entry, which the shell completions are generated from.
    static let table = CommandTable(commands: commands.map(\.spec), groups: [ReminderCommands.group])

    /// `alarmctl --help`, in the reader's language.
    static var usage: String {
        var lines = [
            L("Usage: alarmctl [--socket PATH] COMMAND [OPTIONS]"),
            "",
            L("Drive alarmd, the alarm and reminder daemon."),
        ]
        let width = (commands.map(\.spec.name.count).max() ?? 0) + 2
        for section in sections {
            lines += ["", Lf("%s:", L(section.title))]
            for command in section.commands {
                lines.append("  " + command.spec.name.padding(toLength: width) + L(command.spec.summary))
            }
        }
        lines += [
            "",
            L("Options for every command:"),
            "  --socket PATH  " + L("alarmd's socket (default: $ALARMD_SOCKET, else $XDG_RUNTIME_DIR/alarmd/io.alarmd)"),
            "  --json         " + L("where a command prints data: the daemon's reply as one line of JSON"),
            "  --help         " + L("the command's options and examples"),
            "  --version      " + L("print alarmctl's version"),
            "",
            L("Examples:"),
            "  alarmctl add 7:30 --days weekdays --label Work",
            "  alarmctl list",
            "  alarmctl snooze --minutes 5",
            "  alarmctl remind add 'Call Bob' --in 2h",
            "  alarmctl watch --json | jq -r .event.kind",
            "",
            L("An ID is a full id, its first characters (at least 4) as list shows them, or a label or title: whole, or its first letters."),
            L("Exit codes: 0 done, 1 alarmd refused, 64 bad command line, 69 alarmd unreachable."),
            L("Run 'alarmctl COMMAND --help' for a command's options and examples."),
            L("The manual: man alarmctl (from the source tree: man -l docs/man/alarmctl.1)."),
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs alarmctl with `arguments` (without the program name) and returns the
    /// exit code.
    public static func run(_ arguments: [String], context: CommandContext) -> Int32 {
        do {
            return try dispatch(arguments[...], context: context)
        } catch {
            context.standardError("alarmctl: \(error.description)\n")
            return error.exitCode
        }
    }

    private static func dispatch(_ arguments: ArraySlice<String>, context: CommandContext) throws(CLIError) -> Int32 {
        var rest = arguments
        var preset: [Option: String] = [:]
        switch try takeGlobalOptions(&rest, into: &preset) {
        case .help:
            context.standardOutput(usage)
            return 0
        case .version:
            guard rest.isEmpty else { throw .usage(Lf("--version takes no command; run 'alarmctl %s' alone", rest.spaced)) }
            context.standardOutput("alarmctl \(AlarmdVersion.string)\n")
            return 0
        case .command:
            break
        }
        guard let typed = rest.popFirst() else {
            context.standardError(usage)
            return CLIError.usage("").exitCode
        }
        // Errors say the words as typed (`todo bogus`, not `remind bogus`).
        var name = CommandTable.canonical(typed), said = typed
        if name == "help" {
            return try help(topic: Array(rest), context: context)
        }
        if name == "remind" {
            if try takeGlobalOptions(&rest, into: &preset) != .command {
                context.standardOutput(ReminderCommands.groupHelp)
                return 0
            }
            guard let sub = rest.popFirst() else {
                context.standardError(ReminderCommands.groupHelp)
                return CLIError.usage("").exitCode
            }
            if sub == "help" {
                context.standardOutput(ReminderCommands.groupHelp)
                return 0
            }
            name = CommandTable.canonical(name + " " + sub)
            said += " " + sub
            // `todo "buy milk"`, `remind call mum tomorrow`: a title, added as
            // a phone's list adds what is typed; a near miss of a subcommand
            // (`remind lsit`) is still answered with what it probably is.
            if command(named: name) == nil, table.suggestions(for: name).isEmpty, !sub.hasPrefix("-") {
                rest = [sub] + rest
                name = "remind add"
            }
        }
        guard let command = command(named: name) else {
            if let hint = CommandTable.hints[name] {
                throw .usage(Lf("unknown command %1$s; to do that, run %2$s", inQuotes(said), L(hint)))
            }
            if let guess = table.suggestions(for: name).first {
                throw .usage(Lf("unknown command %1$s; did you mean %2$s?", inQuotes(said), guess))
            }
            let list = name.hasPrefix("remind ") ? "alarmctl \(typed) --help" : "alarmctl --help"
            throw .usage(Lf("unknown command %1$s; run '%2$s' for the list", inQuotes(said), list))
        }
        // A --socket before the command counts only for commands that talk to alarmd.
        let accepted = preset.filter { option, _ in command.spec.declares(option) }
        let parsed = try ParsedArguments(rest, spec: command.spec, presetValues: accepted)
        if parsed.wantsHelp {
            context.standardOutput(command.spec.helpText)
            return 0
        }
        try command.run(parsed, context)
        return 0
    }

    /// What the options before a command name ask for.
    private enum GlobalRequest { case command, help, version }

    /// Takes the options that may come before a command name (`--socket PATH`,
    /// `--help`, `--version`, in any order, as `git -C dir --version` takes
    /// them) off the front of `rest`.
    private static func takeGlobalOptions(_ rest: inout ArraySlice<String>, into preset: inout [Option: String]) throws(CLIError) -> GlobalRequest {
        var request = GlobalRequest.command
        while let first = rest.first, first.hasPrefix("-") {
            rest.removeFirst()
            switch first {
            case "-h", "--help":
                return .help
            case "--version":
                request = .version
            case _ where first == "--socket" || first.hasPrefix("--socket="):
                let path: String
                if first == "--socket" {
                    guard let value = rest.popFirst() else { throw .usage(L("--socket needs a value (PATH)")) }
                    path = value
                } else {
                    path = String(first.dropFirst("--socket=".count))
                }
                guard preset[.socket] == nil else { throw .usage(L("--socket given more than once")) }
                preset[.socket] = path
            default:
                throw .usage(Lf("unknown option %s before the command; run 'alarmctl --help' for the list", first))
            }
        }
        return request
    }

    /// `alarmctl help`, `alarmctl help add`, `alarmctl help remind add`.
    private static func help(topic: [String], context: CommandContext) throws(CLIError) -> Int32 {
        let name = topic.spaced
        if name.isEmpty {
            context.standardOutput(usage)
        } else if name == "remind" {
            context.standardOutput(ReminderCommands.groupHelp)
        } else if let command = command(named: name) {
            context.standardOutput(command.spec.helpText)
        } else {
            throw .usage(Lf("unknown command %s; run 'alarmctl --help' for the list", inQuotes(name)))
        }
        return 0
    }
}

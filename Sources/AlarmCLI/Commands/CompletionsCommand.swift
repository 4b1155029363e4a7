// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// `alarmctl completions SHELL`: the completion script for bash, zsh or fish,
/// generated from the command table, so that it always knows every command
/// and option this alarmctl has. `make install` installs its output.
enum CompletionsCommand {
    static let command = Command(
        spec: CommandSpec(
            name: "completions",
            summary: N_("Print the shell completion script for bash, zsh or fish (no daemon needed)."),
            details: N_("The script completes commands, options, day names, time zones, and (from the running daemon) ids and sound names."),
            positionals: [Positional("SHELL", .choice(CompletionShell.allCases.map(\.rawValue)))],
            examples: [
                "alarmctl completions bash > ~/.local/share/bash-completion/completions/alarmctl",
                "alarmctl completions zsh > ~/.zfunc/_alarmctl",
                "alarmctl completions fish > ~/.config/fish/completions/alarmctl.fish",
            ]
        ),
        run: { arguments, context throws(CLIError) in
            let name = arguments.positionals[0]
            guard let shell = CompletionShell(rawValue: name) else {
                throw .usage(Lf("SHELL must be bash, zsh or fish, got %s", inQuotes(name)))
            }
            context.standardOutput(shell.script(for: AlarmControl.table))
        }
    )
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
/// One option of the command table: everything the parser, the help text and
/// the shell completions need to know about it.
///
/// Commands read what was given through the same value they declared
/// (`arguments.value(Option.days)`), never through a bare string, and reading
/// one the command does not declare stops alarmctl (a test runs every command
/// with every option it declares).
struct Option: Hashable, Sendable {
    /// What follows `--`.
    let name: String
    /// The letter that may follow a single `-`, if any.
    let short: Character?
    /// The value's name in help (`SPEC`) and its kind; `nil` for a flag.
    let value: Value?
    /// One line, shown in the command's help.
    let help: String
    /// The daemon's name for the parameter this option gives, where that
    /// parameter is another option's in ``DaemonErrorText/options`` (`--date`
    /// gives the rule's start, which is `--starting`'s): a refusal naming the
    /// parameter then names this option when it was given.
    let fills: String?

    struct Value: Hashable, Sendable {
        let name: String
        let kind: ValueKind
    }

    /// An option that takes a value.
    init(_ name: String, _ valueName: String, _ kind: ValueKind, _ help: String, short: Character? = nil, fills: String? = nil) {
        self.name = name
        self.short = short
        self.value = Value(name: valueName, kind: kind)
        self.help = help
        self.fills = fills
    }

    /// A flag, which takes no value.
    init(flag name: String, _ help: String, short: Character? = nil) {
        self.name = name
        self.short = short
        self.value = nil
        self.help = help
        self.fills = nil
    }

    /// `--days SPEC` or `--json`, as the synopsis and the help write it.
    var label: String { "--" + name + (value.map { " " + $0.name } ?? "") }

    /// `--socket`, accepted by every command that talks to alarmd (and before
    /// the command name, where `AlarmControl` picks it up). Synopses leave it
    /// out: `alarmctl [--socket PATH] COMMAND` shows it once for all.
    static let socket = Option("socket", "PATH", .file, N_("alarmd's socket (default: $ALARMD_SOCKET, else $XDG_RUNTIME_DIR/alarmd/io.alarmd)"))
    static let json = Option(flag: "json", N_("print the daemon's reply as one line of JSON"))
    /// Every command takes it without declaring it; it is never listed among the options.
    static let help = Option(flag: "help", N_("show the command's usage, options and examples"), short: "h")
}

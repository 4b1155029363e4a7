/// What a subcommand accepts: enough to parse its arguments and print its help.
struct CommandSpec: Sendable {
    struct Option: Sendable {
        let name: String
        /// `nil` for a flag that takes no value.
        let valueName: String?
        let help: String

        init(_ name: String, _ valueName: String? = nil, _ help: String) {
            self.name = name
            self.valueName = valueName
            self.help = help
        }
    }

    /// The words that select the command: `list`, or `remind add`.
    let name: String
    /// What follows `alarmctl` in the usage line.
    let synopsis: String
    /// One line, shown in `alarmctl --help`.
    let summary: String
    /// More about the command, shown in its own help after the summary.
    let details: String?
    let options: [Option]
    /// Positional parameters accepted, as (minimum, maximum); `nil` maximum is unbounded.
    let positionals: (min: Int, max: Int?)
    let examples: [String]

    init(
        name: String, synopsis: String, summary: String, details: String? = nil,
        options: [Option] = [], positionals: (min: Int, max: Int?) = (0, 0), examples: [String] = []
    ) {
        self.name = name
        self.synopsis = synopsis
        self.summary = summary
        self.details = details
        self.options = options
        self.positionals = positionals
        self.examples = examples
    }

    /// The positional parameters' names as the synopsis writes them, required
    /// ones first: `preview TIME [--days SPEC]` → `["TIME"]`, `snooze [ID]` → `["ID"]`.
    var positionalNames: [String] {
        var names: [String] = []
        var afterOption = false
        for word in synopsis.dropFirst(name.count).split(separator: " ") {
            let bare = String(word.filter { $0 != "[" && $0 != "]" && $0 != "|" && $0 != "." })
            defer { afterOption = bare.hasPrefix("--") }
            // An option's value (`--days SPEC`) is not a positional.
            guard !bare.hasPrefix("-"), !afterOption, !bare.isEmpty, bare == bare.uppercased() else { continue }
            names.append(bare)
        }
        return names
    }

    /// `--socket`, accepted by every command that talks to alarmd (and before
    /// the command name, where `AlarmControl` picks it up).
    static let socketOption = Option("socket", "PATH", "alarmd's socket (default: $ALARMD_SOCKET, else $XDG_RUNTIME_DIR/alarmd/io.alarmd)")
    static let jsonOption = Option("json", nil, "print the daemon's reply as one line of JSON")

    var helpText: String {
        var lines = ["Usage: alarmctl \(synopsis)", "", summary]
        if let details { lines += ["", details] }
        if !options.isEmpty {
            lines += ["", "Options:"]
            let labels = options.map { option in "  --\(option.name)" + (option.valueName.map { " \($0)" } ?? "") }
            let width = (labels.map(\.count).max() ?? 0) + 2
            for (label, option) in zip(labels, options) {
                lines.append(label.padding(toLength: width) + option.help)
            }
        }
        if !examples.isEmpty {
            lines += ["", "Examples:"]
            lines += examples.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}

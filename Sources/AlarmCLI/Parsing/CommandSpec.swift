// SPDX-License-Identifier: Apache-2.0
/// One command of the table: what it accepts and how it explains itself. The
/// parser, the help text, the usage synopsis and the shell completions are
/// all read from here.
struct CommandSpec: Sendable {
    /// The words that select the command: `list`, or `remind add`.
    let name: String
    /// One line, shown in `alarmctl --help`.
    let summary: String
    /// More about the command, shown in its own help after the summary.
    let details: String?
    let positionals: [Positional]
    let options: [Option]
    let alternatives: [Alternatives]
    let examples: [String]

    init(
        name: String, summary: String, details: String? = nil, positionals: [Positional] = [],
        options: [Option] = [], alternatives: [Alternatives] = [], examples: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.details = details
        self.positionals = positionals
        self.options = options
        self.alternatives = alternatives
        self.examples = examples
    }

    /// How many positional arguments it takes; `nil` maximum is unbounded.
    var positionalCount: (min: Int, max: Int?) {
        (positionals.filter { !$0.isOptional }.count, positionals.contains(where: \.isRepeated) ? nil : positionals.count)
    }

    func declares(_ option: Option) -> Bool { options.contains { $0.name == option.name } }

    /// The option a `--name` on the command line means: one it declares, or
    /// `--help`, which every command takes.
    func option(named name: String) -> Option? {
        name == Option.help.name ? .help : options.first { $0.name == name }
    }

    func option(short: Character) -> Option? {
        short == Option.help.short ? .help : options.first { $0.short == short }
    }

    /// What follows `alarmctl` in the usage line: the positionals, then every
    /// option but `--socket`, alternatives joined into one `[A | B]`.
    var synopsis: String {
        var words = [name]
        var shown: Set<Alternatives> = []
        func item(positional: String?, option: Option?) {
            let group = alternatives.first { group in
                positional.map { group.positional == $0 } ?? group.options.contains { $0.name == option?.name }
            }
            guard let group else {
                words.append(positional.flatMap { name in positionals.first { $0.name == name }?.synopsis } ?? "[\(option!.label)]")
                return
            }
            guard shown.insert(group).inserted else { return }
            // `[ID... | --all]`: the positional as it is taken, one or several.
            let positional = group.positional.map { name in positionals.first { $0.name == name }?.isRepeated == true ? name + "..." : name }
            let members = (positional.map { [$0] } ?? []) + group.options.map(\.label)
            words.append("[" + members.joined(separator: " | ") + "]")
        }
        for positional in positionals { item(positional: positional.name, option: nil) }
        for option in options where option != .socket { item(positional: nil, option: option) }
        return words.spaced
    }

    /// The synopsis in one short line, for a usage error: the positionals,
    /// and `[OPTIONS]` for the options (`remind done ID... [OPTIONS]`);
    /// `--help` has the rest.
    var shortSynopsis: String {
        var words = [name] + positionals.map(\.synopsis)
        if options.contains(where: { $0 != .socket }) { words.append("[OPTIONS]") }
        return words.spaced
    }

    /// The command's help in the reader's language (summaries, details and
    /// option texts are marked with `N_` where they are declared).
    var helpText: String {
        var lines = [Lf("Usage: alarmctl %s", synopsis), "", L(summary)]
        if let details { lines += ["", L(details)] }
        if !options.isEmpty {
            lines += ["", L("Options:")]
            let labels = options.map { "  " + $0.label }
            let width = (labels.map(\.count).max() ?? 0) + 2
            for (label, option) in zip(labels, options) {
                lines.append(label.padding(toLength: width) + L(option.help))
            }
        }
        if !examples.isEmpty {
            lines += ["", L("Examples:")]
            lines += examples.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// Padded with spaces to `length` terminal columns: a Chinese word (two
    /// columns a character) lines up with an English one.
    func padding(toLength length: Int) -> String {
        let width = DisplayWidth.of(self)
        return width >= length ? self : self + String(repeating: " ", count: length - width)
    }
}

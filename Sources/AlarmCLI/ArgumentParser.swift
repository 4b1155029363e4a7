/// What a subcommand accepts: enough to parse its arguments and print its help.
struct CommandSpec: Sendable {
    struct Option: Sendable {
        let name: String
        /// `nil` for a flag that takes no value.
        let valueName: String?
        let help: String
    }

    let name: String
    let synopsis: String
    let summary: String
    let options: [Option]
    /// Positional parameters accepted, as (minimum, maximum); `nil` maximum is unbounded.
    let positionals: (min: Int, max: Int?)
    let examples: [String]

    var helpText: String {
        var lines = ["Usage: alarmctl \(synopsis)", "", summary]
        if !options.isEmpty {
            lines.append("")
            lines.append("Options:")
            let labels = options.map { option in "  --\(option.name)" + (option.valueName.map { " \($0)" } ?? "") }
            let width = (labels.map(\.count).max() ?? 0) + 2
            for (label, option) in zip(labels, options) {
                lines.append(label.padding(toLength: width) + option.help)
            }
        }
        if !examples.isEmpty {
            lines.append("")
            lines.append("Examples:")
            lines += examples.map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Arguments sorted into options and positionals.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    var wantsHelp = false

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Parses `--name value`, `--name=value`, bare `--flag`, `-h`/`--help`, and `--`
    /// to end options. Repeating an option is an error: silently taking the last
    /// value hides typos in scripts.
    init(_ arguments: ArraySlice<String>, spec: CommandSpec) throws(CLIError) {
        var rest = arguments[...]
        var optionsEnded = false
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            if argument == "-h" || argument == "--help" { wantsHelp = true; continue }
            guard argument.hasPrefix("--") else {
                throw .usage("\(spec.name): unknown option \(argument) (see alarmctl \(spec.name) --help)")
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw .usage("\(spec.name): unknown option --\(name) (see alarmctl \(spec.name) --help)")
            }
            guard values[name] == nil, !flags.contains(name) else {
                throw .usage("\(spec.name): --\(name) given more than once")
            }
            if let valueName = option.valueName {
                guard let value = inlineValue ?? rest.popFirst() else {
                    throw .usage("\(spec.name): --\(name) needs a value (\(valueName))")
                }
                values[name] = value
            } else {
                guard inlineValue == nil else { throw .usage("\(spec.name): --\(name) takes no value") }
                flags.insert(name)
            }
        }
        if wantsHelp { return }
        if positionals.count < spec.positionals.min || spec.positionals.max.map({ positionals.count > $0 }) == true {
            throw .usage("\(spec.name): wrong number of arguments\nUsage: alarmctl \(spec.synopsis)")
        }
    }

    /// An integer option within `range`, or `defaultValue` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws(CLIError) -> Int {
        guard let text = values[name] else { return defaultValue }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("--\(name) must be \(range.lowerBound)–\(range.upperBound), got \(text)")
        }
        return number
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}

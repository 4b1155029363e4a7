import AlarmCore

/// Arguments sorted into options and positionals.
struct ParsedArguments: Sendable {
    let commandName: String
    var positionals: [String] = []
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    var wantsHelp = false

    func value(_ name: String) -> String? { values[name] }
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Parses `--name value`, `--name=value`, bare `--flag`, `-h`/`--help`, and `--`
    /// to end options. Repeating an option is an error: silently taking the last
    /// value hides typos in scripts. `presetValues` are options already taken
    /// from before the command name (`alarmctl --socket PATH list`).
    init(_ arguments: ArraySlice<String>, spec: CommandSpec, presetValues: [String: String] = [:]) throws(CLIError) {
        commandName = spec.name
        values = presetValues
        var rest = arguments[...]
        var optionsEnded = false
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" || Self.isNegativeNumber(argument) {
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
        if positionals.count < spec.positionals.min {
            // Worked out only here: every run of alarmctl parses, few fail.
            let names = spec.positionalNames
            let missing = positionals.count < names.count ? names[positionals.count] : "an argument"
            throw .usage("\(spec.name): \(missing) is missing (usage: alarmctl \(spec.synopsis))")
        }
        if let max = spec.positionals.max, positionals.count > max {
            let unexpected = positionals[max]
            throw .usage("\(spec.name): unexpected argument \(ValidationError.quoted(unexpected)) (usage: alarmctl \(spec.synopsis))")
        }
    }

    /// `-1` is a (bad) value for a positional such as POSITION, not an option.
    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.dropFirst().allSatisfy(\.isASCIIDigit)
    }

    /// An integer option within `range`, or `nil` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            // A number out of range reads as one; anything else is quoted, to show where it ends.
            let got = Int(text) == nil ? ValidationError.quoted(text) : text
            throw .usage("--\(name) must be \(range.lowerBound)–\(range.upperBound), got \(got)")
        }
        return number
    }

    /// An integer option within `range`, or `defaultValue` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default defaultValue: Int) throws(CLIError) -> Int {
        try integer(name, in: range) ?? defaultValue
    }

    /// Fails when more than one of `names` was given (`--snooze` with `--no-snooze`).
    func exclusive(_ names: String...) throws(CLIError) {
        let given = names.filter { values[$0] != nil || flags.contains($0) }
        guard given.count <= 1 else {
            throw .usage("\(commandName): " + given.map { "--\($0)" }.joined(separator: " and ") + " cannot be used together")
        }
    }

    /// Whether any of `names` was given.
    func hasAny(_ names: [String]) -> Bool {
        names.contains { values[$0] != nil || flags.contains($0) }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

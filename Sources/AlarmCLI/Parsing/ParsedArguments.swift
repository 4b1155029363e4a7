// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// Arguments sorted into options and positionals, as the command's table entry declares them.
struct ParsedArguments: Sendable {
    let spec: CommandSpec
    var positionals: [String] = []
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    var wantsHelp = false

    var commandName: String { spec.name }

    /// The value given for `option`, or `nil`.
    func value(_ option: Option) -> String? { values[declared(option).name] }
    /// Whether the flag `option` was given.
    func flag(_ option: Option) -> Bool { flags.contains(declared(option).name) }
    /// Whether `option` was given, with a value or as a flag.
    func given(_ option: Option) -> Bool { option.value == nil ? flag(option) : value(option) != nil }

    /// Reading an option the command does not declare is a mistake in alarmctl,
    /// not in the command line: it would silently read as never given.
    private func declared(_ option: Option) -> Option {
        precondition(spec.declares(option), "\(spec.name) reads --\(option.name), which it does not declare")
        return option
    }

    /// Parses `--name value`, `--name=value`, bare `--flag`, `-h`/`--help`, and `--`
    /// to end options. Repeating an option is an error: silently taking the last
    /// value hides typos in scripts. `presetValues` are options already taken
    /// from before the command name (`alarmctl --socket PATH list`).
    init(_ arguments: ArraySlice<String>, spec: CommandSpec, presetValues: [Option: String] = [:]) throws(CLIError) {
        self.spec = spec
        for (option, value) in presetValues { values[option.name] = value }
        var rest = arguments[...]
        var optionsEnded = false
        while let argument = rest.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" || Self.isNegativeNumber(argument) {
                positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            let option: Option
            var inlineValue: String?
            if argument.hasPrefix("--") {
                var name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                // `--weekdays` is `--days weekdays`, where the command has --days.
                if inlineValue == nil, let (target, value) = CommandTable.optionShorthands[name], spec.option(named: target) != nil {
                    guard values[target] == nil else { throw .usage(Lf("%1$s: --%2$s given more than once", spec.name, target)) }
                    values[target] = value
                    continue
                }
                // `--repeat` is `--days`.
                let found = spec.option(named: name) ?? CommandTable.optionAliases[name].flatMap(spec.option(named:))
                if found == .help, inlineValue != nil { throw .usage(Lf("%1$s: --%2$s takes no value", spec.name, name)) }
                guard let found else {
                    if let guess = Spelling.near(name, among: (spec.options + [.help]).map(\.name)).first {
                        throw .usage(Lf("%1$s: unknown option --%2$s; did you mean --%3$s?", spec.name, name, guess))
                    }
                    throw .usage(Lf("%1$s: unknown option --%2$s (see alarmctl %3$s --help)", spec.name, name, spec.name))
                }
                option = found
            } else {
                guard argument.count == 2, let found = spec.option(short: argument.last!) else {
                    throw .usage(Lf("%1$s: unknown option %2$s (see alarmctl %3$s --help)", spec.name, argument, spec.name))
                }
                option = found
            }
            if option == .help { wantsHelp = true; continue }
            let name = option.name
            guard values[name] == nil, !flags.contains(name) else {
                throw .usage(Lf("%1$s: --%2$s given more than once", spec.name, name))
            }
            if let value = option.value {
                guard let text = inlineValue ?? rest.popFirst() else {
                    throw .usage(Lf("%1$s: --%2$s needs a value (%3$s)", spec.name, name, value.name))
                }
                values[name] = text
            } else {
                guard inlineValue == nil else { throw .usage(Lf("%1$s: --%2$s takes no value", spec.name, name)) }
                flags.insert(name)
            }
        }
        if wantsHelp { return }
        takeLinkingWords()
        joinNameWords()
        let count = spec.positionalCount
        if positionals.count < count.min {
            let missing = positionals.count < spec.positionals.count ? spec.positionals[positionals.count].name : "an argument"
            throw .usage(Lf("%1$s: %2$s is missing (usage: alarmctl %3$s; see alarmctl %1$s --help)", spec.name, missing, spec.shortSynopsis))
        }
        if let max = count.max, positionals.count > max {
            let unexpected = positionals[max]
            throw .usage(Lf("%1$s: unexpected argument %2$s (usage: alarmctl %3$s; see alarmctl %1$s --help)", spec.name, inQuotes(unexpected), spec.shortSynopsis))
        }
    }

    /// The small words people put between the parts of a command: `since`
    /// before a day, where the command has --since (`history since
    /// yesterday`), and `to` after an item's name, before what it is to
    /// become (`remind move milk to top`, `edit work to 6:30`).
    private mutating func takeLinkingWords() {
        if let since = spec.option(named: "since"), values[since.name] == nil,
           let at = positionals.firstIndex(where: { $0.lowercased() == "since" }), at + 1 < positionals.count {
            values[since.name] = positionals[(at + 1)...].spaced
            positionals.removeSubrange(at...)
        }
        // `pause gym from monday for a week`, `pause gym until jan 5`: after
        // the names of items, "from", "until" and "for" say the option of
        // that name, each up to the next of them. Only where the words are
        // names, so that a title or a time keeps its words (`todo wait until
        // friday`).
        if let first = spec.positionals.first, first.kind.namesAnItem, first.isRepeated {
            let linking = ["from", "until", "for"].filter { name in spec.option(named: name)?.value != nil && values[name] == nil }
            let starts = positionals.indices.filter { $0 > 0 && linking.contains(positionals[$0].lowercased()) }
            var taken = Set<String>()
            for (number, start) in starts.enumerated().reversed() {
                let name = positionals[start].lowercased(), end = number + 1 < starts.count ? starts[number + 1] : positionals.count
                let value = positionals[(start + 1)..<end].spaced
                // Only words that read as its value: `pause time for tea` keeps the timer's name.
                let reads = name == "for" ? (try? DurationParser.parse(value)) != nil : (try? DayAndTime.parse(value, field: name)) != nil
                guard start + 1 < end, reads, taken.insert(name).inserted else { continue }
                values[name] = value
                positionals.removeSubrange(start..<end)
            }
        }
        // Only after an item's name or id, where no title is being typed
        // (`todo go to the gym` keeps its "to").
        // Not before a new name, which may hold a "to" of its own (`rename
        // gym to go to the gym`): the command reads that one; nor before
        // days, where it is a range's (`skip work dec 20 to dec 27`).
        let namesAnItem = spec.positionals.first?.kind.namesAnItem == true && spec.positionals.count >= 2 && ![.text, .date].contains(spec.positionals[1].kind)
        // A "to" that ends a "from" is a range's (`skip gym from dec 14 to dec 18`).
        if namesAnItem, positionals.count >= 3, let at = positionals.lastIndex(where: { $0.lowercased() == "to" }), at > 0, at < positionals.count - 1,
           !positionals[..<at].contains(where: { $0.lowercased() == "from" }) {
            positionals.remove(at: at)
        }
    }

    /// Where one item is named and the words run past what the command
    /// takes, the first words are its name: `remind edit book flights
    /// --notes …`, `remind move book flights top`. An id stays one word, so
    /// `remind move 5e6f 3 4` is still an unexpected argument.
    private mutating func joinNameWords() {
        guard let first = spec.positionals.first, first.kind.namesAnItem, !first.isRepeated, let max = spec.positionalCount.max,
              positionals.count > max, !looksLikeID(positionals[0]) else { return }
        let name = 0...(positionals.count - max)
        positionals.replaceSubrange(name, with: [positionals[name].spaced])
    }

    /// `-1` is a (bad) value for a positional such as POSITION, not an option.
    private static func isNegativeNumber(_ argument: String) -> Bool {
        argument.count > 1 && argument.dropFirst().allSatisfy(\.isASCIIDigit)
    }

    /// An integer option within `range`, or `nil` when absent.
    func integer(_ option: Option, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            // A number out of range reads as one; anything else is quoted, to show where it ends.
            let got = Int(text) == nil ? inQuotes(text) : text
            throw .usage(Lf("--%1$s must be %2$s–%3$s, got %4$s", option.name, range.lowerBound, range.upperBound, got))
        }
        return number
    }

    /// An integer option within `range`, or `defaultValue` when absent.
    func integer(_ option: Option, in range: ClosedRange<Int>, default defaultValue: Int) throws(CLIError) -> Int {
        try integer(option, in: range) ?? defaultValue
    }

    /// Fails when more than one of the alternatives' options was given (`--snooze` with `--no-snooze`).
    func exclusive(_ alternatives: Alternatives) throws(CLIError) {
        precondition(spec.alternatives.contains(alternatives), "\(spec.name) checks alternatives it does not declare")
        let given = alternatives.options.filter(isGiven)
        guard given.count <= 1 else {
            throw .usage(Lf("%s: ", commandName) + given.map { "--\($0.name)" }.joined(separator: " and ") + " cannot be used together")
        }
    }

    /// Whether any of `options` was given.
    func hasAny(_ options: [Option]) -> Bool { options.contains(where: isGiven) }

    private func isGiven(_ option: Option) -> Bool {
        let name = declared(option).name
        return values[name] != nil || flags.contains(name)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

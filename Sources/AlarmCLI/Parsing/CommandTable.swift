// SPDX-License-Identifier: Apache-2.0
import AlarmCore
/// Every command alarmctl has, in the order `--help` lists them: what the
/// shell completions are generated from.
struct CommandTable: Sendable {
    let commands: [CommandSpec]
    let groups: [CommandGroup]

    /// A word that may follow `alarmctl` (or a group's name), with its summary.
    struct Word {
        let name: String
        let summary: String
    }

    static let helpWord = Word(name: "help", summary: N_("Show help for a command."))

    /// What may follow `alarmctl`: the commands and groups, each group once
    /// where its first command is, and `help` last.
    var firstWords: [Word] {
        var words: [Word] = []
        for command in commands {
            let first = String(command.name.prefix { $0 != " " })
            guard !words.contains(where: { $0.name == first }) else { continue }
            let group = groups.first { $0.name == first }
            words.append(Word(name: first, summary: group?.summary ?? command.summary))
        }
        return words + [Self.helpWord]
    }

    /// What may follow a group's name: `add`, `list`, … after `remind`.
    func subcommands(of group: CommandGroup) -> [Word] {
        commands.filter { $0.name.hasPrefix(group.name + " ") }.map { Word(name: String($0.name.dropFirst(group.name.count + 1)), summary: $0.summary) }
    }

    /// Every option name that takes a value in some command.
    var valueOptionNames: [String] {
        var names: [String] = []
        for option in commands.flatMap(\.options) where option.value != nil && !names.contains(option.name) {
            names.append(option.name)
        }
        return names
    }

    /// The kind of value `--name` takes. Completions look values up by option
    /// name alone, so one name has one kind everywhere (a test checks it).
    func kind(ofOptionNamed name: String) -> ValueKind? {
        commands.lazy.flatMap(\.options).first { $0.name == name }?.value?.kind
    }
}

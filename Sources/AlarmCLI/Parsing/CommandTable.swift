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

    /// Words people type for a command, as a phone or another tool names it:
    /// `off work` is `disable work`. Not offered by the completions or the
    /// help, which teach one name each; listed in the manual.
    static let aliases: [String: String] = [
        "on": "enable", "off": "disable", "stop": "dismiss", "delete": "rm", "remove": "rm", "del": "rm", "ls": "list", "new": "add", "set": "add",
        "change": "edit", "todo": "remind", "todos": "remind", "reminder": "remind", "reminders": "remind", "timers": "timer",
        "remind delete": "remind rm", "remind remove": "remind rm", "remind del": "remind rm", "remind ls": "remind list",
        "remind new": "remind add", "remind change": "remind edit", "remind complete": "remind done", "remind check": "remind done",
        "remind uncheck": "remind undone", "remind undo": "remind undone",
    ]

    /// Commands people guess that are another command's option: what to type instead.
    static let hints = ["label": "alarmctl edit ID --label TEXT", "title": "alarmctl remind edit ID --title TEXT"]

    /// Option names people guess for one that has another: `--repeat
    /// weekdays` is `--days weekdays`.
    static let optionAliases = ["repeat": "days", "repeats": "days", "name": "label", "title": "label", "note": "notes"]

    /// Options people guess that are another option with its value:
    /// `--weekdays` is `--days weekdays`.
    static let optionShorthands: [String: (option: String, value: String)] = [
        "weekdays": ("days", "weekdays"), "weekends": ("days", "weekends"), "daily": ("days", "daily"), "every-day": ("days", "daily"),
    ]

    /// The command `name` stands for: itself, or what an alias names.
    static func canonical(_ name: String) -> String { aliases[name] ?? name }

    /// The commands a mistyped `name` is probably: those a letter or two away
    /// (`lsit`, `snoze`), nearest first.
    func suggestions(for name: String) -> [String] {
        var seen: Set<String> = []
        return Spelling.near(name, among: commands.map(\.name) + Self.aliases.keys.sorted()).map(Self.canonical).filter { seen.insert($0).inserted }
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

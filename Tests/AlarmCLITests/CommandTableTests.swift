// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import Foundation
import Testing
@testable import AlarmCLI

/// The command table: what is generated from it (completions, the man page's
/// synopses are checked against it) and the rules the parser keeps by it.
@Suite struct CommandTableTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let table = AlarmControl.table

    @Test func anUnknownShellIsAUsageError() throws {
        let result = try BinaryRunner.alarmctl(["completions", "tcsh"], socket: "/nonexistent")
        #expect(result.status == 64)
        #expect(result.standardError == "alarmctl: SHELL must be bash, zsh or fish, got \"tcsh\"\n")
        let missing = try BinaryRunner.alarmctl(["completions"], socket: "/nonexistent")
        #expect(missing.standardError == "alarmctl: completions: SHELL is missing (usage: alarmctl completions SHELL; see alarmctl completions --help)\n")
    }

    /// A command runs only when ``AlarmControl/command(named:)`` finds it,
    /// so every command of the table must be there, under its own name.
    @Test func everyCommandOfTheTableIsFoundByItsName() {
        for command in AlarmControl.commands {
            #expect(AlarmControl.command(named: command.spec.name)?.spec.name == command.spec.name, "\(command.spec.name)")
        }
        #expect(AlarmControl.command(named: "remind") == nil)
        #expect(AlarmControl.command(named: "bogus") == nil)
    }

    /// The scripts look an option's kind of value up by its name alone.
    @Test func eachOptionNameHasOneKindOfValue() {
        var kinds: [String: ValueKind?] = [:]
        for command in Self.table.commands {
            for option in command.options {
                if let known = kinds[option.name] {
                    #expect(known == option.value?.kind, "--\(option.name) in \(command.name)")
                } else {
                    kinds[option.name] = option.value?.kind
                }
            }
        }
        #expect(kinds.count >= 15)
    }

    @Test func everyCommandIsWellFormed() {
        var names: Set<String> = []
        for command in Self.table.commands {
            #expect(names.insert(command.name).inserted, "\(command.name) twice")
            #expect(Set(command.options.map(\.name)).count == command.options.count, "\(command.name) declares an option twice")
            #expect(!command.options.contains { $0.name == Option.help.name }, "\(command.name): --help is every command's")
            // Only the last positionals may be optional, only the last repeated.
            let optional = command.positionals.drop { !$0.isOptional }
            #expect(optional.allSatisfy { $0.isOptional }, "\(command.name)")
            #expect(command.positionals.dropLast().allSatisfy { !$0.isRepeated }, "\(command.name)")
            for group in command.alternatives {
                #expect(group.options.allSatisfy { command.declares($0) }, "\(command.name): alternatives it does not declare")
                #expect(group.positional.map { name in command.positionals.contains { $0.name == name && $0.isOptional } } ?? true)
            }
        }
    }

    @Test func positionalsAndSynopsesComeFromTheTable() throws {
        let spec = try #require(Self.table.commands.first { $0.name == "remind move" })
        #expect(spec.positionalCount.min == 2 && spec.positionalCount.max == 2)
        let rm = try #require(Self.table.commands.first { $0.name == "rm" })
        #expect(rm.positionalCount.min == 1 && rm.positionalCount.max == nil)
        #expect(rm.synopsis == "rm ID... [--json]")
        let export = try #require(Self.table.commands.first { $0.name == "export" })
        #expect(export.positionalCount.min == 0 && export.positionalCount.max == 1)
        #expect(export.synopsis == "export [FILE | --json] [--timers] [--ical]")
    }

    /// A command that reads an option it does not declare stops with a message
    /// naming both, instead of reading "not given" for ever.
    @Test func readingAnUndeclaredOptionIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            let spec = CommandSpec(name: "probe", summary: "A probe.", options: [.json])
            let arguments = try? ParsedArguments([], spec: spec)
            _ = arguments?.value(.socket)
        }
    }

    /// A well-formed reply to every method, written by the replies' own types.
    static let replies: [String: any WireReply] = {
        func object(_ text: String) -> JSONObject { (try? JSONParser.parse(text))?.objectValue ?? [:] }
        let work = object(Fixtures.work), milk = object(Fixtures.milk)
        let named = ItemNamed(id: "abcd0001-0000-4000-8000-000000000011", title: "Buy milk")
        let imported = Import.Reply(alarms: 0, reminders: 0, added: 0, updated: 0, removed: 0, changes: [])
        let event = Wire.Event.json(kind: "fired", item: .alarm(Alarm(time: try! TimeOfDay(hour: 7, minute: 30), created: Date(timeIntervalSince1970: 0))),
                                    scheduled: nil, actual: Date(timeIntervalSince1970: 0), snoozeCount: 0, detail: "", zone: .utc).objectValue ?? [:]
        return [
            ListAlarms.name: ListAlarms.Reply(alarms: [work]), GetAlarm.name: GetAlarm.Reply(alarm: work, warnings: []),
            AddAlarm.name: AlarmReply(alarm: work), UpdateAlarm.name: AlarmReply(alarm: work), SetAlarmEnabled.name: AlarmReply(alarm: work),
            SkipNext.name: AlarmReply(alarm: work), RemoveAlarm.name: named, Dismiss.name: named, RemoveReminder.name: named,
            Snooze.name: Snooze.Reply(id: named.id, title: named.title, until: "2030-01-07T14:09:00+00:00", snoozeCount: 1),
            AddReminder.name: ReminderReply(reminder: milk), UpdateReminder.name: ReminderReply(reminder: milk),
            CompleteReminder.name: ReminderReply(reminder: milk), ListReminders.name: RemindersReply(reminders: [milk]), GetReminder.name: ReminderReply(reminder: milk),
            MoveReminder.name: RemindersReply(reminders: [milk]), Upcoming.name: Upcoming.Reply(firings: []),
            Status.name: Status.Reply(version: "0.9.0", alarms: 1, reminders: 1, ringing: [], next: nil, timeZone: "UTC",
                                      wake: Wire.Wake(method: "none", next: nil, reason: "not set up"), linger: nil, warnings: [], sync: nil),
            History.name: History.Reply(events: []), Watch.name: Watch.Reply(event: event), ListSounds.name: ListSounds.Reply(sounds: []),
            PlaySound.name: PlaySound.Reply(path: "/usr/share/sounds/freedesktop/stereo/bell.oga", volume: 80),
            // export writes it where import then reads it.
            Export.name: Export.Reply(document: [:]),
            // export --ical writes there next: a text import still reads.
            ExportCalendar.name: ExportCalendar.Reply(calendar: "{}"),
            Import.name: imported, ImportCalendar.name: imported,
            Sync.name: Sync.Reply(state: Wire.SyncState(server: "https://dav.example/tasks/", lastSync: nil, error: nil, pending: 0)),
        ]
    }()

    @Test func everyMethodHasAReplyHere() {
        let methods = InterfaceDefinition.methodTypes.map { $0.name }
        #expect(Set(Self.replies.keys) == Set(methods))
    }

    /// Every command with every option it declares, against a daemon that
    /// answers everything: an option read but not declared would stop
    /// alarmctl with a crash, so every command must end normally.
    @Test func everyCommandRunsWithEveryOptionItDeclares() throws {
        let fake = FakeDaemon { call in
            let member = String(call.method.split(separator: ".").last ?? "")
            let parameters = Self.replies[member]?.json ?? [:]
            return [JSONValue.object(["parameters": .object(parameters)]).jsonText]
        }
        let document = fake.directory + "/document.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: document))
        // ui needs a terminal (it says so, exit 64); TerminalInterfaceTests
        // run it in one.
        for command in Self.table.commands where command.name != "ui" {
            var arguments = command.name.split(separator: " ").map(String.init)
            // An optional positional that stands for an option of its kind
            // (edit's TIME for --time, remind add's WHEN for --at) is left out:
            // the option comes below, and both would be one too many.
            for positional in command.positionals where !positional.isOptional || !command.options.contains(where: { $0.value?.kind == positional.kind }) {
                arguments.append(Self.sample(positional.kind, document: document))
            }
            // Without options first (edit then says there is nothing to change).
            let bare = try BinaryRunner.alarmctl(arguments, socket: fake.socketPath)
            #expect([0, 64].contains(bare.status), "alarmctl \(arguments.joined(separator: " ")): \(bare.standardError)")
            // Of alternatives, only the first: the positional where there is one.
            let excluded = Set(command.alternatives.flatMap { $0.options.dropFirst($0.positional == nil ? 1 : 0) })
            for option in command.options where !excluded.contains(option) && option != .socket {
                arguments.append("--" + option.name)
                if let value = option.value { arguments.append(Self.sample(value.kind, document: document)) }
            }
            let result = try BinaryRunner.alarmctl(arguments, socket: fake.socketPath)
            #expect(result.status == 0, "alarmctl \(arguments.joined(separator: " ")): \(result.standardError)")
        }
    }

    static func sample(_ kind: ValueKind, document: String) -> String {
        switch kind {
        case .timeOfDay: return "7:30"
        case .instant: return "2029-12-31 09:00"
        case .duration: return "5m"
        case .date: return "2030-01-01"
        case .interval: return "2w"
        case .days: return "weekdays"
        case .sound: return "bell"
        case .alarmID, .reminderID, .openReminderID, .itemID: return "abcd0001"
        case .file: return "/tmp/image.png"
        case .fileOrStandardStream: return document
        case .zone: return "Europe/Berlin"
        case .commandLine: return "true"
        case .number: return "1"
        case .text: return "Tea"
        case .choice(let words): return words[0]
        }
    }

    /// Each command's line in alarmctl.1 names the same positionals (in order,
    /// optional or repeated alike) and the same options with the same value
    /// names as the table. `[ALARM OPTIONS]` stands for the options add and
    /// edit share, a bare `[OPTIONS]` for all of the command's.
    @Test func theManPageSynopsesMatchTheTable() throws {
        let page = try String(contentsOfFile: Self.root + "/docs/man/alarmctl.1", encoding: .utf8)
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var documented: Set<String> = []
        for (index, line) in lines.enumerated() where index > 0 && [".TP", ".TQ"].contains(lines[index - 1]) && line.hasPrefix(".B ") {
            let text = Self.plain(String(line.dropFirst(3)))
            let commands = Self.table.commands.filter { text == $0.name || text.hasPrefix($0.name + " ") }
            guard let command = commands.max(by: { $0.name.count < $1.name.count }) else { continue }
            documented.insert(command.name)
            var rest = String(text.dropFirst(command.name.count))
            var options = Set(rest.matches(of: #/--([a-z][a-z-]*)/#).map { String($0.output.1) })
            if rest.contains("[ALARM OPTIONS]") { options.formUnion(AlarmFieldOptions.options.map(\.name)) }
            if rest.contains("[OPTIONS]") { options.formUnion(command.options.filter { $0 != .socket }.map(\.name)) }
            #expect(options == Set(command.options.filter { $0 != .socket }.map(\.name)), "alarmctl.1: \(text)")
            for option in command.options {
                guard let value = option.value, rest.contains("--\(option.name) ") else { continue }
                let written = try Regex("--\(option.name) \(value.name)(?![A-Za-z])")
                #expect(rest.contains(written), "alarmctl.1 names the value of --\(option.name) otherwise: \(text)")
                rest = rest.replacing(written, with: "")
            }
            rest = rest.replacingOccurrences(of: "[ALARM OPTIONS]", with: "").replacingOccurrences(of: "[OPTIONS]", with: "")
            let positionals = rest.matches(of: #/(\[?)([A-Z][A-Z]*)(\.\.\.)?/#).map { match in
                Positional(String(match.output.2), .text, optional: !match.output.1.isEmpty, repeated: match.output.3 != nil).synopsis
            }
            #expect(positionals == command.positionals.map(\.synopsis), "alarmctl.1: \(text)")
        }
        // And each option is described somewhere, `[OPTIONS]` or not.
        let undescribed = Set(Self.table.commands.flatMap(\.options).map(\.name)).filter { !page.contains(#"\-\-"# + $0.replacingOccurrences(of: "-", with: #"\-"#)) }
        #expect(undescribed.isEmpty, "alarmctl.1 does not mention \(undescribed.sorted())")
        #expect(documented == Set(Self.table.commands.map(\.name)), "missing from alarmctl.1: \(Set(Self.table.commands.map(\.name)).subtracting(documented).sorted())")
    }

    /// A `.B` line's words without fonts: `remind add \fITITLE\fP \fR[\fB\-\-at …` → `remind add TITLE [--at …`.
    static func plain(_ roff: String) -> String {
        var text = roff
        for font in [#"\fR"#, #"\fB"#, #"\fI"#, #"\fP"#] { text = text.replacingOccurrences(of: font, with: "") }
        return text.replacingOccurrences(of: #"\-"#, with: "-")
    }
}

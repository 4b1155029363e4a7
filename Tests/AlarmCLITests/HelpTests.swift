// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `--help` at every level: the command list, each command's usage with
/// examples, and the `remind` group.
@Suite struct HelpTests {
    static let everyCommand = [
        "list", "show", "add", "edit", "rm", "enable", "disable", "skip", "unskip", "pause", "resume",
        "remind add", "remind list", "remind show", "remind done", "remind undone", "remind rm", "remind edit", "remind move",
        "snooze", "dismiss", "timer", "next", "status", "watch", "history", "sounds", "export", "import", "preview", "completions",
    ]

    @Test func topLevelHelpListsEverySubcommandWithASummary() throws {
        for arguments in [["--help"], ["-h"], ["help"]] {
            let result = try BinaryRunner.alarmctl(arguments, socket: "/nonexistent")
            #expect(result.status == 0)
            #expect(result.standardError == "")
            #expect(result.standardOutput.hasPrefix("Usage: alarmctl [--socket PATH] COMMAND [OPTIONS]\n"))
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            for command in Self.everyCommand {
                // "  NAME   Summary…": the name padded into a column, then a one-line summary.
                let line = lines.first { $0.hasPrefix("  \(command) ") }
                let summary = line?.dropFirst(2 + command.count).trimmingCharacters(in: .whitespaces) ?? ""
                #expect(!summary.isEmpty, "no summary line for \(command)")
            }
            #expect(result.standardOutput.contains("--socket PATH"))
            #expect(result.standardOutput.contains("\nExamples:\n  alarmctl add 7:30 --days weekdays --label Work\n"))
        }
    }

    @Test(arguments: everyCommand)
    func eachCommandHasUsageAndExamples(command: String) throws {
        let words = command.split(separator: " ").map(String.init)
        let result = try BinaryRunner.alarmctl(words + ["--help"], socket: "/nonexistent")
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(result.standardOutput.hasPrefix("Usage: alarmctl \(command)"))
        #expect(result.standardOutput.contains("\nExamples:\n  alarmctl \(command)"))
        // The same text through `alarmctl help COMMAND`.
        let viaHelp = try BinaryRunner.alarmctl(["help"] + words, socket: "/nonexistent")
        #expect(viaHelp.standardOutput == result.standardOutput)
    }

    @Test func addHelpDescribesEveryOption() throws {
        let result = try BinaryRunner.alarmctl(["add", "--help"], socket: "/nonexistent")
        for option in ["--days SPEC", "--label TEXT", "--sound NAME", "--snooze MINUTES", "--no-snooze", "--max-snoozes N", "--ring SECONDS", "--volume PCT", "--fade DURATION", "--tz ZONE", "--disabled", "--json", "--socket PATH"] {
            #expect(result.standardOutput.contains("\n  \(option) "), "missing \(option)")
        }
    }

    /// Options before the command combine in any order, as `git -C dir
    /// --version` does; a command after --version is a mistake said so.
    @Test func globalOptionsCombineInAnyOrder() throws {
        for arguments in [["--version"], ["--socket", "/x", "--version"], ["--version", "--socket", "/x"], ["--socket=/x", "--version"]] {
            let result = try BinaryRunner.alarmctl(arguments, socket: "/nonexistent")
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(result.standardOutput.hasPrefix("alarmctl "), "\(arguments)")
        }
        let help = try BinaryRunner.alarmctl(["--socket", "/x", "--help"], socket: "/nonexistent")
        #expect(help.status == 0 && help.standardOutput.hasPrefix("Usage: alarmctl"))
        let mistaken = try BinaryRunner.alarmctl(["--version", "list"], socket: "/nonexistent")
        #expect(mistaken.status == 64)
        #expect(mistaken.standardError == "alarmctl: --version takes no command; run 'alarmctl list' alone\n")
    }

    @Test func remindHelpListsItsSubcommands() throws {
        let result = try BinaryRunner.alarmctl(["remind", "--help"], socket: "/nonexistent")
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Usage: alarmctl remind SUBCOMMAND [OPTIONS]\n"))
        for command in Self.everyCommand where command.hasPrefix("remind ") {
            #expect(result.standardOutput.contains("\n  \(command) "), "missing \(command)")
        }
        let add = try BinaryRunner.alarmctl(["remind", "add", "--help"], socket: "/nonexistent")
        #expect(add.standardOutput.hasPrefix("Usage: alarmctl remind add TITLE [WHEN...] [--at WHEN | --in DURATION | --on YYYY-MM-DD] [--days SPEC] "
            + "[--every INTERVAL | --monthly SPEC | --yearly MM-DD] [--starting YYYY-MM-DD] [--until YYYY-MM-DD | --times N] [--except DATES] [--before DURATIONS] "
            + "[--notes TEXT] [--sound NAME] [--image PATH] [--command LINE] [--json]\n"))
        for option in ["--at WHEN", "--in DURATION", "--on YYYY-MM-DD", "--every INTERVAL", "--before DURATIONS", "--notes TEXT", "--image PATH", "--command LINE"] {
            #expect(add.standardOutput.contains("\n  \(option) "), "missing \(option)")
        }
    }

    @Test func helpWinsOverOtherwiseWrongArguments() throws {
        let result = try BinaryRunner.alarmctl(["add", "--help", "not-a-time"], socket: "/nonexistent")
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Usage: alarmctl add [TIME... | --in DURATION]"))
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// Every command of alarmctl under `LANG=zh_TW.UTF-8`, against a real daemon
/// speaking Chinese too: what each prints when it works and when it is
/// refused, to the last line, has no English word of alarmctl's own in it.
/// The items are named in Chinese, so any Latin word left is alarmctl's:
/// a unit (`min`), a day (`Thu`), a state (`waiting`), a sentence.
@Suite(.serialized, .enabled(if: Locales.unavailableReason == nil, "\(Locales.unavailableReason ?? "")"))
struct LocalizedCommandsTests {
    /// The Latin words of `text` that are not what a person typed or a
    /// token meant for a program: quoted text, ids, option and command
    /// names, the names of files and sounds, an example.
    static func englishWords(_ text: String, names: Set<String> = []) -> [String] {
        var words: [String] = []
        for line in text.split(separator: "\n") {
            var kept = line.replacing(/"[^"]*"|'[^']*'|「[^」]*」/, with: " ")
            // ids and their prefixes (an id has a digit; `added` is a word),
            // then options, paths, a command line.
            kept = kept.replacing(/\b[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}\b|\b(?=[0-9a-f]*[0-9])[0-9a-f]{4,}\b/, with: " ")
            // A configuration key (`[Sound] Volume=`) and a sound's name (`alarm-clock-elapsed`).
            kept = kept.replacing(/\[[A-Za-z]+\] *[A-Za-z]+=|\b[A-Za-z]+=/, with: " ").replacing(/[A-Za-z]+(-[A-Za-z0-9]+)+/, with: " ")
            kept = kept.replacing(/\b[A-Za-z]+\.conf\b/, with: " ")
            // `alarmctl: ` opens every error line, where the examples of what to type are
            // typed words; a command line after `alarmctl` is the person's words.
            let refusal = kept.starts(with: "alarmctl: ")
            kept = kept.replacing(#/^alarmctl: /#, with: " ").replacing(/\balarmctl\b.*$/, with: " ").replacing(/--?[a-z][a-z-]*/, with: " ").replacing(/\/[^\s，、；：]*/, with: " ")
            // A word, or a number with a unit in letters (`20m56s`, `1d`, `1st`).
            for match in kept.matches(of: /[A-Za-z]{2,}|[0-9]+[A-Za-z][0-9A-Za-z]*/) where !(refusal && typed.contains(String(match.output))) {
                words.append(String(match.output))
            }
        }
        return words.filter { !allowed.contains($0) && !names.contains($0) }
    }

    /// Names, not words: the zone alarmd runs in, the sound names it knows,
    /// the formats and standards a line names, what the placeholders in
    /// usage are called.
    static let allowed: Set<String> = ["UTC", "JSON", "iCalendar", "CalDAV", "alarmd", "ID", "TIME", "DAYS", "DURATION", "NAME", "WHEN", "TITLE",
                                       "bell", "none", "default", "freedesktop", "oga", "wav", "PulseAudio", "Varlink", "ICS", "URL", "DAY", "POSITION",
                                       "FILE", "SOUND", "ISO", "RFC", "TZ"]

    /// What a person types, kept as typed in every language, where a refusal
    /// names it: the examples it lists (days, times, lengths, positions, shells), the word
    /// `id`, and command names (`add：…`, `did you mean remind list?`).
    static let typed: Set<String> = ["mon", "monday", "Mon", "Fri", "weekdays", "weekends", "daily", "never", "tomorrow", "fri", "next", "tue", "dec",
                                     "to", "week", "1st", "at", "2pm", "7am", "noon", "top", "bottom", "up", "down", "90s", "20m", "20min",
                                     "minutes", "1h30m", "1h", "30m", "5h", "2d", "1w", "bash", "zsh", "fish", "SHELL", "id", "add", "edit",
                                     "remind", "list"]

    /// What a command printed, as one text to look at.
    static func said(_ result: Alarmctl.Result) -> String { result.standardOutput + result.standardError }

    @Test func everyCommandAnswersInChinese() throws {
        let environment = LocalizationTests.chinese
        let daemon = try DesktopDaemon.start(config: "", desktop: nil, environment: environment)
        defer { _ = daemon.stop() }
        let import_ = TemporaryDirectory()
        let exported = import_.path + "/items.json"
        var findings: [String] = []
        func zh(_ arguments: [String], expecting status: Int32? = nil, names: Set<String> = []) throws {
            let result = try Alarmctl.run(arguments, daemon, environment: environment)
            let shown = "alarmctl \(arguments.joined(separator: " ")) (exit \(result.status))"
            if let status, result.status != status { findings.append("\(shown): expected exit \(status): \(Self.said(result))") }
            if result.status != 0, result.standardError.isEmpty { findings.append("\(shown): refused without a word") }
            let english = Self.englishWords(Self.said(result), names: names)
            if !english.isEmpty { findings.append("\(shown): \(english) in:\n\(Self.said(result))") }
        }

        // Alarms: each command once as it works, once refused.
        try zh(["add", "7:30", "--days", "weekdays", "--label", "上班"], expecting: 0)
        try zh(["add", "每週一 6:30", "--label", "晨跑"], expecting: 0)
        try zh(["add", "7:30", "--days", "mon,wendesday"], expecting: 64)
        // The system's reason for a file, in Chinese characters (not question marks).
        let unreadable = try Alarmctl.run(["import", "/nonexistent.json"], daemon, environment: environment).standardError
        #expect(unreadable.hasPrefix("alarmctl: 無法讀取 /nonexistent.json：") && !unreadable.contains("?"), "\(unreadable)")
        let misspelt = try Alarmctl.run(["add", "7:30", "--days", "mon,wendesday"], daemon, environment: environment).standardError
        #expect(misspelt.contains("必須是星期名稱") && misspelt.contains("不認得 \"wendesday\"") && misspelt.hasSuffix("（您是指「wednesday」嗎？）\n"), "\(misspelt)")
        try zh(["add", "in", "25", "min", "--label", "披薩"], expecting: 0)
        try zh(["add", "7:30", "--days", "weekdays", "--label", "上班"], expecting: 1)
        try zh(["add", "25:00"], expecting: 64)
        try zh(["add"], expecting: 64)
        try zh(["list"], expecting: 0)
        try zh(["show", "上班"], expecting: 0)
        try zh(["show", "不存在"], expecting: 1)
        try zh(["edit", "上班", "6:45"], expecting: 0)
        try zh(["edit", "上班"], expecting: 64)
        try zh(["disable", "晨跑"], expecting: 0)
        try zh(["enable", "晨跑"], expecting: 0)
        try zh(["skip", "上班"], expecting: 0)
        try zh(["unskip", "上班"], expecting: 0)
        try zh(["skip", "上班", "下週一"], expecting: 0)
        try zh(["skip", "上班", "下週六"], expecting: 1)
        try zh(["skip", "上班", "某天"], expecting: 64)
        try zh(["pause", "晨跑", "--for", "1w"], expecting: 0)
        try zh(["resume", "晨跑"], expecting: 0)
        try zh(["pause", "晨跑", "--until", "某天"], expecting: 64)
        try zh(["next"], expecting: 0)
        try zh(["preview", "7:30", "--days", "mon,thu", "--count", "2"], expecting: 0)
        try zh(["preview", "某時"], expecting: 64)

        // To-dos.
        try zh(["remind", "add", "買牛奶", "明天 17:00"], expecting: 0)
        try zh(["remind", "add", "繳房租", "--at", "9:00", "--monthly", "1"], expecting: 0)
        try zh(["remind", "add", "訂機票"], expecting: 0)
        try zh(["remind", "list"], expecting: 0)
        try zh(["remind", "show", "買牛奶"], expecting: 0)
        try zh(["remind", "move", "訂機票", "top"], expecting: 0)
        try zh(["remind", "move", "訂機票", "某處"], expecting: 64)
        try zh(["remind", "edit", "訂機票", "--notes", "去台北"], expecting: 0)
        try zh(["remind", "done", "訂機票"], expecting: 0)
        try zh(["remind", "show", "訂機票"], expecting: 0)
        try zh(["remind", "undone", "訂機票"], expecting: 0)
        try zh(["remind", "done", "不存在"], expecting: 1)
        try zh(["remind", "lsit"], expecting: 64)

        try zh(["remind", "rename", "訂機票", "to", "訂車票"], expecting: 0)
        try zh(["rename", "晨跑", "慢跑"], expecting: 0)
        try zh(["rename", "慢跑", "晨跑"], expecting: 0)
        try zh(["rename", "不存在", "to", "某物"], expecting: 1)
        try zh(["next", "上班"], expecting: 0)
        // Heard or not (no sound server here: not), said in Chinese, the player's failure too.
        try zh(["test", "上班"])

        // Timers, one of them rung, snoozed and stopped.
        try zh(["timer", "10m", "泡麵"], expecting: 0)
        try zh(["timer", "pause", "泡麵"], expecting: 0)
        try zh(["timer", "resume", "泡麵"], expecting: 0)
        try zh(["timer", "add", "泡麵", "1m"], expecting: 0)
        try zh(["timer"], expecting: 0)
        try zh(["timer", "某時"], expecting: 64)
        try zh(["dismiss"], expecting: 1)
        try zh(["timer", "1s", "泡茶"], expecting: 0)
        usleep(2_500_000)
        try zh(["status"], expecting: 0)
        try zh(["snooze"], expecting: 0)
        try zh(["dismiss", "泡茶"], expecting: 0)
        try zh(["timer", "stop", "泡麵"], expecting: 0)

        // The rest.
        try zh(["history"], expecting: 0)
        try zh(["history", "--since", "昨天"], expecting: 0)
        try zh(["history", "--since", "某天"], expecting: 64)
        // The sounds' names are what a person gives --sound.
        let sounds = try Alarmctl.run(["sounds", "--json"], daemon).standardOutput
        let soundNames = Set(sounds.matches(of: /"name":"([^"]*)"/).map { String($0.output.1) })
        #expect(soundNames.contains("bell"))
        try zh(["sounds"], expecting: 0, names: soundNames)
        try zh(["sounds", "--play", "/nonexistent.oga"], expecting: 1)
        let export = try Alarmctl.run(["export"], daemon, environment: environment)
        #expect(export.status == 0)
        try export.standardOutput.write(toFile: exported, atomically: true, encoding: .utf8)
        try zh(["import", exported, "--dry-run"], expecting: 0)
        try zh(["import", "/nonexistent.json"], expecting: 66)
        try zh(["sync"], expecting: 1)
        try zh(["completions", "tcsh"], expecting: 64)
        try zh(["rm", "披薩"], expecting: 0)
        try zh(["rm", "不存在"], expecting: 1)
        try zh(["bogus"], expecting: 64)
        try zh(["--version"], expecting: 0)

        #expect(findings.isEmpty, "\(findings.count) commands said English words:\n\n\(findings.joined(separator: "\n\n"))")
    }

    /// The rule above finds what it should: a line with a word of
    /// alarmctl's own in English, and not a name or an id.
    @Test func theRuleFindsEnglishWords() {
        #expect(Self.englishWords("狀態: waiting") == ["waiting"])
        #expect(Self.englishWords("20m56s 後響起") == ["20m56s"])
        #expect(Self.englishWords("20 分 56 秒後響起") == [])
        #expect(Self.englishWords("還有 20 min") == ["min"])
        #expect(Self.englishWords("已新增鬧鐘 1a2b3c4d 上午7:30 \"Gym\"，平日") == [])
        #expect(Self.englishWords("alarmctl: 請見 alarmctl add --help") == [])
        #expect(Self.englishWords("(next Thu 07:00)") == ["next", "Thu"])
        // A refusal is read too, but for the words it gives as examples.
        #expect(Self.englishWords("alarmctl: --until must be a day (tomorrow, fri), got \"x\"") == ["must", "be", "day", "got"])
        #expect(Self.englishWords("alarmctl: --until 必須是日子（tomorrow、fri），收到的是 \"x\"") == [])
        #expect(Self.englishWords("音量: 預設（[Sound] Volume=）  alarm-clock-elapsed") == [])
        #expect(Self.englishWords("Added alarm c0ffee12") == ["Added", "alarm"])
        #expect(Self.englishWords("ID:  8408dde2-9022-4d16-a0f5-2e3d4d9469f0") == [])
        #expect(Self.englishWords("ID:  c77a2c39-5c8f-46eb-ae70-c9f27e1b94a7") == [])
    }
}

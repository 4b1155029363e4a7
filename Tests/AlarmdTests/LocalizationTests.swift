// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// alarmctl and alarmd in the reader's language: the real binaries under
/// `LANG=zh_TW.UTF-8` (the locale `make test` generates) with the catalogs
/// `make locale` builds, against C.UTF-8 and en_US.UTF-8.
enum Locales {
    /// `.build/locale`, where `make locale` puts the compiled catalogs.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/locale").path

    static func installed(_ name: String) -> Bool {
        let result = Tool.run("/usr/bin/locale", ["-a"])
        return result.standardOutput.split(separator: "\n").contains { $0 == name }
    }

    static var unavailableReason: String? {
        if !FileManager.default.fileExists(atPath: directory + "/zh_TW/LC_MESSAGES/alarmd.mo") { return "no catalogs in \(directory): run make locale" }
        if !installed("zh_TW.utf8") || !installed("en_US.utf8") { return "zh_TW.UTF-8 or en_US.UTF-8 is not generated: run make test-locales" }
        return nil
    }

    static func environment(_ lang: String) -> [String: String] { ["LANG": lang, "ALARMD_LOCALEDIR": directory] }
}

@Suite(.serialized, .enabled(if: Locales.unavailableReason == nil, "\(Locales.unavailableReason ?? "")"))
struct LocalizationTests {
    static let chinese = Locales.environment("zh_TW.UTF-8")

    @Test func listsShowStatusAndErrorsSpeakTraditionalChineseAndJSONDoesNot() throws {
        // The daemon runs in Chinese too: a new alarm's label is its language's.
        let daemon = try DesktopDaemon.start(config: "", desktop: nil, environment: Self.chinese)
        defer { _ = daemon.stop() }
        let zh = { (arguments: [String]) throws -> Alarmctl.Result in try Alarmctl.run(arguments, daemon, environment: Self.chinese) }

        #expect(try zh(["add", "7:30", "--days", "weekdays"]).status == 0)
        #expect(try zh(["add", "9:00", "--days", "sat,sun", "--label", "Gym"]).status == 0)
        #expect(try zh(["add", "6:15", "--days", "daily", "--label", "Run"]).status == 0)
        let once = try zh(["add", "18:45", "--label", "Pick up Sam"])
        #expect(once.status == 0)

        let list = try zh(["list"]).standardOutput
        for word in ["鬧鐘，平日", "Gym，假日", "Run，每天", "上午7:30", "下午6:45", "時間", "標籤、重複", "開／關"] {
            #expect(list.contains(word), "\(word) in:\n\(list)")
        }
        #expect(!list.contains("Weekdays"), "\(list)")

        let onceID = try #require(once.standardOutput.split(separator: " ").dropFirst(1).first.map(String.init))
        let show = try zh(["show", onceID]).standardOutput
        for word in ["重複：", "永不", "標籤：", "提示聲：", "稍後提醒：", "下午6:45", "年", "週"] {
            #expect(show.contains(word), "\(word) in:\n\(show)")
        }

        let status = try zh(["status"]).standardOutput
        for word in ["版本：", "鬧鐘：", "提醒事項：", "時區："] {
            #expect(status.contains(word), "\(word) in:\n\(status)")
        }

        let error = try zh(["add", "25:00"])
        #expect(error.status == 64)
        #expect(error.standardError.contains("小時必須是 0–23"), "\(error.standardError)")
        // A requirement with a number in it, made again from its template.
        let long = try zh(["add", "7:30", "--label", String(repeating: "鐘", count: 257)])
        #expect(long.standardError.contains("最多只能有 256 個字元，收到的是 257 個字元"), "\(long.standardError)")
        let missing = try zh(["rm", "0000aaaa"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("沒有 id 或名稱為"), "\(missing.standardError)")

        // --json stays the same in every language; the stored label is the
        // one the alarm was made with, never translated back.
        let json = try Alarmctl.run(["list", "--json"], daemon, environment: Self.chinese).standardOutput
        #expect(json.contains("\"repeat\":\"Weekdays\""), "\(json)")
        #expect(json.contains("\"label\":\"鬧鐘\""), "\(json)")
        #expect(try Alarmctl.run(["list", "--json"], daemon).standardOutput == json)

        // C.UTF-8: alarmd's own words and forms, as before translations.
        let plain = try Alarmctl.ok(["list"], daemon)
        for word in ["07:30", "鬧鐘, Weekdays", "Gym, Weekends", "Run, Every day", "LABEL, REPEAT"] {
            #expect(plain.contains(word), "\(word) in:\n\(plain)")
        }
        #expect(!plain.contains("上午"), "\(plain)")
        let plainError = try Alarmctl.run(["add", "25:00"], daemon)
        #expect(plainError.standardError == "alarmctl: TIME must have an hour of 0–23, got \"25:00\"\n")

        // en_US: English words, its 12-hour clock and month/day/year dates.
        let american = try Alarmctl.run(["list"], daemon, environment: Locales.environment("en_US.UTF-8")).standardOutput
        #expect(american.contains("7:30 AM"), "\(american)")
        #expect(american.contains("Gym, Weekends"), "\(american)")
    }

    @Test func aRuleInWordsAndItsDatesInChinese() throws {
        let daemon = try DesktopDaemon.start(config: "", desktop: nil)
        defer { _ = daemon.stop() }
        let preview = try Alarmctl.run(["preview", "7:30", "--every", "2w", "--days", "mon,thu", "--from", "2026-12-01", "--count", "1"], daemon,
                                       environment: Self.chinese).standardOutput
        #expect(preview == "每 2 週的週一、週四\n2026年12月3日 週四 上午7:30 +00:00\n", "\(preview)")
        let english = try Alarmctl.run(["preview", "7:30", "--every", "2w", "--days", "mon,thu", "--from", "2026-12-01", "--count", "1"], daemon).standardOutput
        #expect(english == "Every 2 weeks on Mon, Thu\n2026-12-03 Thu 07:30 +00:00\n", "\(english)")
    }
}

/// Help in Chinese: every line of every command's help that is prose (not an
/// example, the synopsis, or an option's name) is translated, so a help text
/// declared without `N_` or left out of the catalog fails here.
@Suite(.enabled(if: Locales.unavailableReason == nil, "\(Locales.unavailableReason ?? "")"))
struct LocalizedHelpTests {
    static let commands = [
        "list", "show", "add", "edit", "rm", "enable", "disable", "skip", "unskip", "pause", "resume",
        "remind add", "remind list", "remind show", "remind done", "remind undone", "remind rm", "remind edit", "remind move",
        "snooze", "dismiss", "timer", "next", "status", "watch", "history", "sounds", "export", "import", "sync", "preview", "completions",
    ]

    /// `watch` and `history` in Chinese to the last line: every event,
    /// its clock (上午, never AM once a table has measured a wide
    /// character), its detail (已新增, 準時) and a timer called a timer.
    @Test func watchAndHistorySpeakChineseToTheLastLine() throws {
        let daemon = try DesktopDaemon.start(config: "", desktop: nil, environment: LocalizationTests.chinese)
        defer { _ = daemon.stop() }
        let zh = { (arguments: [String]) throws -> Alarmctl.Result in try Alarmctl.run(arguments, daemon, environment: LocalizationTests.chinese) }
        let watch = try BackgroundAlarmctl(["watch"], daemon, environment: LocalizationTests.chinese)
        defer { _ = watch.terminate() }
        usleep(500_000)
        #expect(try zh(["add", "8:00", "--label", "上班"]).status == 0)
        #expect(try zh(["add", "9:00", "--label", "Gym"]).status == 0)
        #expect(try zh(["timer", "1s", "泡茶"]).status == 0)
        let dismissedLine = watch.waitForLine(timeout: 15) { $0.contains("響起") }
        try #require(dismissedLine != nil, "no fired line: \(watch.lines)")
        #expect(try zh(["dismiss"]).status == 0)
        _ = watch.waitForLine(timeout: 10) { $0.contains("關閉") }
        let lines = watch.lines
        #expect(lines.count >= 5, "\(lines)")
        for line in lines {
            #expect(!line.contains("AM") && !line.contains("PM") && line.contains("午"), "a clock in Chinese: \(line)")
            #expect(!line.contains("changed") && !line.contains("fired") && !line.contains("added") && !line.contains("Reminder"), "\(line)")
        }
        #expect(lines.contains { $0.contains("計時器 「泡茶」") && $0.contains("響起") }, "\(lines)")
        #expect(lines.contains { $0.contains("鬧鐘 「Gym」") && $0.contains("已新增") }, "\(lines)")
        let history = try zh(["history"]).standardOutput
        #expect(Self.untranslated(history).isEmpty, "\(history)")
    }

    static func untranslated(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("alarmctl ") || trimmed.hasPrefix("用法：") { return false }
            // An option's label with nothing after it (its text wrapped) or a
            // line of values only (day names, durations).
            if trimmed.hasPrefix("--"), !trimmed.contains("  ") { return false }
            return !line.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) || (0x3000...0x303F).contains($0.value) || (0xFF00...0xFFEF).contains($0.value) }
        }
    }

    @Test func everyHelpTextIsInChinese() throws {
        let daemon = try DesktopDaemon.start(config: "", desktop: nil)
        defer { _ = daemon.stop() }
        for arguments in [["--help"], ["remind", "--help"]] + Self.commands.map({ $0.split(separator: " ").map(String.init) + ["--help"] }) {
            let result = try Alarmctl.run(arguments, daemon, environment: LocalizationTests.chinese)
            #expect(result.status == 0)
            #expect(Self.untranslated(result.standardOutput).isEmpty, "alarmctl \(arguments.joined(separator: " ")): \(Self.untranslated(result.standardOutput))")
        }
        // The history kinds are written out in --kind's text (so it translates
        // whole): every kind the daemon knows is named there.
        let history = try Alarmctl.ok(["history", "--help"], daemon)
        for kind in ["fired", "snoozed", "dismissed", "timed-out", "skipped", "missed", "completed", "escalated"] {
            #expect(history.contains(kind))
        }
        let kinds = try Alarmctl.run(["history", "--kind", "nonsense"], daemon)
        #expect(kinds.standardError == "alarmctl: --kind must list event kinds, comma-separated: fired, snoozed, dismissed, timed-out, skipped, missed, completed, escalated, got \"nonsense\"\n")
    }
}

@Suite(.serialized, .enabled(if: DesktopSession.isAvailable && Locales.unavailableReason == nil,
                             "\(DesktopSession.unavailableReason ?? Locales.unavailableReason ?? "")"))
struct LocalizedNotificationTests {
    @Test func dunstShowsTheRingInTheSessionsLanguage() throws {
        let desktop = try DesktopSession()
        let daemon = try DesktopDaemon.start(config: "", desktop: desktop, environment: LocalizationTests.chinese)
        defer { _ = daemon.stop() }
        _ = try DesktopDaemon.remind("買牛奶", in: 2, daemon)
        let shown = try #require(desktop.waitForNotify(summary: "買牛奶", timeout: 15))
        let labels = stride(from: 1, to: shown.actions.count, by: 2).map { shown.actions[$0] }
        #expect(labels.contains { $0.hasPrefix("稍後提醒") }, "\(labels)")
        #expect(labels.contains("完成"), "\(labels)")
        #expect(shown.body.contains("到期"), "\(shown.body)")
        #expect(shown.body.contains("上午") || shown.body.contains("下午"), "\(shown.body)")
    }
}

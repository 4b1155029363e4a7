// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// The real `alarmctl ui` in a real terminal (tmux) against a real alarmd on
/// private directories: keys in with `send-keys`, the screen read with
/// `capture-pane`, the daemon's data read back with `alarmctl --json`.
@Suite(.serialized) struct TerminalInterfaceTests {
    /// A daemon and the interface on it, in a terminal of `columns`×`rows`.
    final class Fixture {
        private(set) var daemon: DaemonProcess!
        private(set) var terminal: TmuxTerminal!

        init(language: String = "C.UTF-8", columns: Int = 120, rows: Int = 40, environment: [String: String] = [:],
             before: (DaemonProcess) throws -> Void = { _ in }) throws {
            daemon = DaemonProcess()
            try daemon.startAndWaitReady()
            try before(daemon)
            terminal = try TmuxTerminal(directory: daemon.directory.path,
                                        command: [productsDirectory + "/alarmctl", "ui"],
                                        environment: ["ALARMD_SOCKET": daemon.socketPath, "TZ": "UTC", "LANG": language,
                                                      "ALARMD_LOCALEDIR": Locales.directory, "PATH": "/usr/bin:/bin"].merging(environment) { $1 },
                                        columns: columns, rows: rows)
            let shown = terminal.wait(for: "q ")
            if !shown.ok { stop() }
            try #require(shown.ok, "the interface never drew its key line: \(shown.screen)")
        }

        func stop() {
            terminal?.close()
            _ = daemon?.stop()
        }

        /// Stops alarmd (SIGTERM) and starts another on the same directories.
        func stopDaemon() { _ = daemon.stop(signal: SIGTERM) }

        func startDaemonAgain() throws {
            let directory = daemon.directory
            daemon = nil  // the old one's notify socket goes first
            let again = DaemonProcess(directory: directory)
            try again.startAndWaitReady()
            daemon = again
        }

        func alarms() throws -> [[String: Any]] { try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]] ?? [] }
    }

    /// `HH:MM` in UTC, `hours` from now: an alarm there does not ring while
    /// a test runs, whatever the time of day (a ringing one changes the
    /// bottom lines).
    static func later(hours: Int, minute: Int = 0) -> String {
        let hour = (Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour! + hours) % 24
        return String(format: "%02d:%02d", hour, minute)
    }

    /// The rows of the alarm list: `[x] 07:30 …`.
    static func alarmRows(_ screen: [String]) -> [String] { screen.filter { $0.hasPrefix("[x] ") || $0.hasPrefix("[ ] ") } }

    @Test func anAlarmAddedThroughTheFormIsTheDaemons() throws {
        let f = try Fixture()
        defer { f.stop() }
        f.terminal.send("a")
        try #require(f.terminal.wait(for: "New Alarm").ok)
        // The time is typed over (the field's 07:00 is replaced), Weekdays
        // is the second preset to the right of Never, then the label.
        f.terminal.send("6:45", literal: true)
        f.terminal.send("Tab", "Right", "Right", "Tab")
        f.terminal.send("Gym", literal: true)
        f.terminal.send("Enter")
        let saved = f.terminal.wait(for: "Alarm set for")
        #expect(saved.ok, "\(saved.screen)")
        let alarms = try f.alarms()
        #expect(alarms.count == 1)
        #expect(alarms.first?["time"] as? String == "06:45")
        #expect(alarms.first?["label"] as? String == "Gym")
        #expect(alarms.first?["days"] as? [String] == ["mon", "tue", "wed", "thu", "fri"])
        #expect(Self.alarmRows(saved.screen).first?.contains("06:45  Weekdays") == true, "\(saved.screen)")
    }

    @Test func aBadTimeIsShownUnderItsFieldAndEscapeChangesNothing() throws {
        let f = try Fixture { daemon in try Alarmctl.ok(["add", "7:30", "Work"], daemon) }
        defer { f.stop() }
        f.terminal.send("e")
        try #require(f.terminal.wait(for: "Edit Alarm").ok)
        f.terminal.send("25:99", literal: true)
        f.terminal.send("Enter")
        let refused = f.terminal.wait(for: "got \"25:99\"")
        #expect(refused.ok, "\(refused.screen)")
        f.terminal.send("Escape")
        #expect(f.terminal.shows { Self.alarmRows($0).count == 1 })
        #expect(try f.alarms().first?["time"] as? String == "07:30")
    }

    @Test func spaceSwitchesAnAlarmOffAndOn() throws {
        let f = try Fixture { daemon in try Alarmctl.ok(["add", "7:30", "weekdays", "Work"], daemon) }
        defer { f.stop() }
        try #require(f.terminal.shows { Self.alarmRows($0).first?.hasPrefix("[x] 07:30") == true })
        f.terminal.send("Space")
        let off = f.terminal.wait { Self.alarmRows($0).first?.hasPrefix("[ ] 07:30") == true }
        #expect(off.ok, "\(off.screen)")
        #expect(try f.alarms().first?["enabled"] as? Bool == false)
        f.terminal.send("Space")
        #expect(f.terminal.shows { Self.alarmRows($0).first?.hasPrefix("[x] 07:30") == true })
        #expect(try f.alarms().first?["enabled"] as? Bool == true)
    }

    @Test func spacePausesATimerAndPlusGivesItAMinute() throws {
        let started = Date()
        let f = try Fixture { daemon in try Alarmctl.ok(["timer", "10m", "Tea"], daemon) }
        defer { f.stop() }
        func timer() throws -> [String: Any] { try #require((try Alarmctl.json(["timer"], f.daemon)["reminders"] as? [[String: Any]])?.first) }
        func row(_ screen: [String]) -> String? { screen.first { $0.hasPrefix("  Tea ") } }
        f.terminal.send("3")
        try #require(f.terminal.shows { row($0)?.range(of: #" \d+:\d\d$"#, options: .regularExpression) != nil })
        f.terminal.send("Space")
        let paused = f.terminal.wait { row($0)?.range(of: #"paused, (9:\d\d|10:00)$"#, options: .regularExpression) != nil }
        #expect(paused.ok, "\(paused.screen)")
        var stored = try timer()
        #expect(stored["due"] == nil || stored["due"] is NSNull, "a paused timer has no due time: \(stored)")
        let left = try #require(stored["timerLeft"] as? Int)
        #expect((600 - Int(Date().timeIntervalSince(started).rounded(.up)) - 1...600).contains(left), "\(stored)")
        f.terminal.send("+")
        let more = f.terminal.wait { row($0)?.range(of: #"paused, (10:\d\d|11:00)$"#, options: .regularExpression) != nil }
        #expect(more.ok, "\(more.screen)")
        #expect(try timer()["timerLeft"] as? Int == left + 60)
        f.terminal.send("Space")
        // The row counts down again (the note saying so goes after a few seconds, so the row is what is checked).
        let resumed = f.terminal.wait { row($0)?.range(of: #"  (10:\d\d|11:00)$"#, options: .regularExpression) != nil }
        #expect(resumed.ok, "\(resumed.screen)")
        stored = try timer()
        #expect(stored["timerLeft"] == nil && stored["due"] is String, "\(stored)")
    }

    @Test func anAlarmAddedElsewhereAppearsWithoutAKey() throws {
        let f = try Fixture()
        defer { f.stop() }
        #expect(f.terminal.wait(for: "No alarms").ok)
        try Alarmctl.ok(["add", "8:15", "daily", "From the shell"], f.daemon)
        let shown = f.terminal.wait(for: "From the shell")
        #expect(shown.ok, "\(shown.screen)")
        #expect(shown.screen.contains { $0.hasPrefix("[x] 08:15  Every day  From the shell") }, "\(shown.screen)")
    }

    @Test func theStatusLineSaysWhenAlarmdIsGoneAndTheListComesBack() throws {
        let f = try Fixture { daemon in try Alarmctl.ok(["add", "7:30", "weekdays", "Work"], daemon) }
        defer { f.stop() }
        try #require(f.terminal.shows { Self.alarmRows($0).count == 1 })
        f.stopDaemon()
        let gone = f.terminal.wait(for: "alarmd is not running", timeout: 10)
        #expect(gone.ok, "\(gone.screen)")
        #expect(gone.screen.contains { $0.contains("reconnecting") }, "\(gone.screen)")
        try f.startDaemonAgain()
        let back = f.terminal.wait(timeout: 10) { screen in
            !screen.contains { $0.contains("not running") } && Self.alarmRows(screen).first?.contains("Work") == true
        }
        #expect(back.ok, "\(back.screen)")
        // And it works again: Space switches the alarm off.
        f.terminal.send("Space")
        #expect(f.terminal.shows { Self.alarmRows($0).first?.hasPrefix("[ ] 07:30") == true })
    }

    /// A click as xterm reports it (SGR 1006, 1-based column and row):
    /// on a row's switch toggles it; on the tab bar changes the tab.
    @Test func theMouseTogglesARowAndChangesTabs() throws {
        let f = try Fixture { daemon in
            try Alarmctl.ok(["add", "7:30", "weekdays", "Work"], daemon)
            try Alarmctl.ok(["remind", "add", "Buy milk"], daemon)
        }
        defer { f.stop() }
        try #require(f.terminal.shows { Self.alarmRows($0).first?.hasPrefix("[x] 07:30") == true })
        func click(column: Int, row: Int) {
            f.terminal.send("\u{1B}[<0;\(column);\(row)M", literal: true)
            f.terminal.send("\u{1B}[<0;\(column);\(row)m", literal: true)
        }
        click(column: 2, row: 3)
        #expect(f.terminal.shows { Self.alarmRows($0).first?.hasPrefix("[ ] 07:30") == true })
        #expect(try f.alarms().first?["enabled"] as? Bool == false)
        let todos = try #require(f.terminal.screen().first?.range(of: "2 To-dos")).lowerBound.utf16Offset(in: f.terminal.screen().first!)
        click(column: todos + 2, row: 1)
        #expect(f.terminal.shows { $0.contains { $0.hasPrefix("[ ] Buy milk") } })
    }

    /// The active tab and the ringing bar in the terminal's colours (SGR
    /// 30–47 with its default background); none at all under NO_COLOR, where
    /// bold and reverse video carry the same.
    @Test(arguments: [false, true]) func coloursFollowTheTerminalUnlessNoColor(noColor: Bool) throws {
        let f = try Fixture(environment: noColor ? ["NO_COLOR": "1"] : [:])
        defer { f.stop() }
        let escapes = f.terminal.screen(escapes: true).joined(separator: "\n")
        let colours = escapes.matches(of: /\x1B\[([0-9;]*)m/).flatMap { $0.output.1.split(separator: ";").compactMap { Int($0) } }
        let colourCodes = colours.filter { (30...49).contains($0) && $0 != 39 && $0 != 49 }
        if noColor {
            #expect(colourCodes.isEmpty, "\(escapes)")
            #expect(colours.contains(7), "the active tab in reverse video: \(escapes)")
        } else {
            #expect(!colourCodes.isEmpty, "\(escapes)")
        }
    }

    @Test func jMovesAToDoDownAsRemindListSees() throws {
        let f = try Fixture { daemon in
            for title in ["First", "Second", "Third"] { try Alarmctl.ok(["remind", "add", title], daemon) }
        }
        defer { f.stop() }
        f.terminal.send("2")
        try #require(f.terminal.wait(for: "[ ] First").ok)
        f.terminal.send("J")
        let moved = f.terminal.wait { $0.firstIndex { $0.hasPrefix("[ ] Second") } ?? 99 < $0.firstIndex { $0.hasPrefix("[ ] First") } ?? 0 }
        #expect(moved.ok, "\(moved.screen)")
        let titles = (try Alarmctl.json(["remind", "list"], f.daemon)["reminders"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(titles == ["Second", "First", "Third"])
        // K moves it back; the selection followed it down.
        f.terminal.send("K")
        #expect(f.terminal.shows { $0.firstIndex { $0.hasPrefix("[ ] First") } ?? 99 < $0.firstIndex { $0.hasPrefix("[ ] Second") } ?? 0 })
    }

    @Test func uUndoesSeveralChangesLatestFirst() throws {
        let f = try Fixture { daemon in
            try Alarmctl.ok(["add", Self.later(hours: 3), "daily", "Early"], daemon)
            try Alarmctl.ok(["add", Self.later(hours: 4), "daily", "Late"], daemon)
        }
        defer { f.stop() }
        try #require(f.terminal.wait(for: "Late").ok)
        f.terminal.send("s")
        try #require(f.terminal.shows { $0.contains { $0.contains("will skip its next ring") || $0.contains("will not ring on") } })
        f.terminal.send("d")
        try #require(f.terminal.wait(for: "u to undo").ok)
        f.terminal.send("d")
        let empty = f.terminal.wait(for: "No alarms")
        #expect(empty.ok, "\(empty.screen)")
        f.terminal.send("u")
        let one = f.terminal.wait { Self.alarmRows($0).count == 1 }
        #expect(one.ok, "\(one.screen)")
        f.terminal.send("u")
        let two = f.terminal.wait { Self.alarmRows($0).count == 2 }
        #expect(two.ok, "\(two.screen)")
        // The third u puts back the skip made before both deletes.
        try #require(try f.alarms().contains { $0["skipNext"] as? Bool == true })
        f.terminal.send("u")
        #expect(f.terminal.wait(for: "will ring as usual").ok)
        #expect(try f.alarms().allSatisfy { $0["skipNext"] as? Bool == false })
        f.terminal.send("u")
        #expect(f.terminal.wait(for: "Nothing to undo").ok)
    }

    @Test func uUndoesTheDoneOfARepeatingToDosLastTime() throws {
        let f = try Fixture { daemon in try Alarmctl.ok(["remind", "add", "Last", "--at", "tomorrow 9:00", "--days", "daily", "--times", "1"], daemon) }
        defer { f.stop() }
        func last() throws -> [String: Any] { try Alarmctl.json(["remind", "show", "Last"], f.daemon)["reminder"] as? [String: Any] ?? [:] }
        f.terminal.send("2")
        try #require(f.terminal.wait(for: "[ ] Last").ok)
        f.terminal.send("Space")
        // Its only time: marked done (and out of the open to-dos), not moved on.
        #expect(f.terminal.wait(for: "Nothing to do").ok)
        #expect(try last()["done"] as? Bool == true)
        f.terminal.send("u")
        #expect(f.terminal.wait(for: "[ ] Last").ok)
        #expect(try last()["done"] as? Bool == false)
    }

    /// d then u puts an alarm and a to-do back as they were, every setting a
    /// row does not show included (its zone, calendar repeat and skipped day,
    /// commands, snooze limit, notices), with its id and its place.
    @Test func undoPutsADeletedItemBackWhole() throws {
        let f = try Fixture { daemon in
            try Alarmctl.ok(["add", "19:00", "--monthly", "last-fri", "--label", "Pay day", "--until", "2030-06-30", "--except", "2030-01-25",
                             "--skip-holidays", "--volume", "40", "--snooze", "5", "--max-snoozes", "3", "--ring", "120",
                             "--tz", "Europe/Berlin", "--command", "/bin/true x", "--escalate-command", "/bin/echo esc"], daemon)
            for title in ["First", "Gym", "Third"] { try Alarmctl.ok(["remind", "add", title], daemon) }
            try Alarmctl.ok(["remind", "edit", "Gym", "--at", "2030-01-07 07:00", "--days", "mon,wed", "--before", "15m,1h",
                             "--sound", "bell", "--command", "/bin/true y", "--notes", "two\nlines"], daemon)
        }
        defer { f.stop() }
        func export() throws -> [String: Any] { try Alarmctl.json(["export"], f.daemon)["document"] as? [String: Any] ?? [:] }
        func items(_ document: [String: Any], _ key: String) -> [NSDictionary] { (document[key] as? [[String: Any]] ?? []).map { $0 as NSDictionary } }
        let before = try export()
        try #require(items(before, "alarms").count == 1 && items(before, "reminders").count == 3)
        try #require(f.terminal.wait(for: "Pay day").ok)
        f.terminal.send("d")
        try #require(f.terminal.wait(for: "u to undo").ok)
        #expect(try f.alarms().isEmpty)
        f.terminal.send("u")
        #expect(f.terminal.wait(for: "restored").ok)
        f.terminal.send("2")
        try #require(f.terminal.wait(for: "[ ] Gym").ok)
        f.terminal.send("j")
        f.terminal.send("d")
        let gone = f.terminal.wait { screen in !screen.contains { $0.hasPrefix("[ ] Gym") } }
        #expect(gone.ok, "\(gone.screen)")
        f.terminal.send("u")
        #expect(f.terminal.wait(for: "restored").ok)
        let after = try export()
        #expect(items(after, "alarms") == items(before, "alarms"), "\(after) against \(before)")
        #expect(items(after, "reminders") == items(before, "reminders"), "\(after) against \(before)")
    }

    @Test func aReminderThatFallsDueTakesTheBottomLinesAndZSnoozesIt() throws {
        let f = try Fixture()
        defer { f.stop() }
        try Alarmctl.ok(["remind", "add", "Call mom", "--in", "2s"], f.daemon)
        let ringing = f.terminal.wait(for: "Ringing: Call mom", timeout: 10)
        #expect(ringing.ok, "\(ringing.screen)")
        #expect(ringing.screen.contains { $0.contains("z Snooze") && $0.contains("x Stop") }, "\(ringing.screen)")
        f.terminal.send("z")
        let snoozed = f.terminal.wait(for: "Snoozed until")
        #expect(snoozed.ok, "\(snoozed.screen)")
        #expect(!snoozed.screen.contains { $0.contains("Ringing:") })
        let reminder = (try Alarmctl.json(["remind", "list"], f.daemon)["reminders"] as? [[String: Any]] ?? []).first
        #expect(reminder?["phase"] as? String == "snoozed")
    }

    @Test func aToDoStoppedWithoutBeingDoneIsOverdue() throws {
        let f = try Fixture()
        defer { f.stop() }
        try Alarmctl.ok(["remind", "add", "Call mom", "--in", "2s"], f.daemon)
        try #require(f.terminal.wait(for: "Ringing: Call mom", timeout: 10).ok)
        f.terminal.send("x")
        f.terminal.send("2")
        let overdue = f.terminal.wait { $0.contains { $0.hasPrefix("[ ] Call mom") && $0.contains("Overdue, was due ") } }
        #expect(overdue.ok, "\(overdue.screen)")
    }

    @Test func twoRingingAtOnceAreSaidAndStoppedOneAfterTheOther() throws {
        let f = try Fixture()
        defer { f.stop() }
        // The timer falls due first: it comes first, though to-dos are listed before timers.
        try Alarmctl.ok(["timer", "2s", "Tea"], f.daemon)
        try Alarmctl.ok(["remind", "add", "Call mom", "--in", "3s"], f.daemon)
        let both = f.terminal.wait(timeout: 10) { $0.contains { $0.contains("Ringing: Tea") && $0.contains("1 more ringing") } }
        #expect(both.ok, "\(both.screen)")
        f.terminal.send("x")
        let next = f.terminal.wait(for: "Ringing: Call mom")
        #expect(next.ok, "\(next.screen)")
        #expect(!next.screen.contains { $0.contains("more ringing") }, "\(next.screen)")
        f.terminal.send("x")
        #expect(f.terminal.shows { !$0.contains { $0.contains("Ringing:") } }, "both stopped")
        #expect(try Alarmctl.json(["status"], f.daemon)["ringing"] as? [String] == [])
    }

    /// Every line of a screen laid out for `columns`: the tab bar first,
    /// the key line last, each alarm row whole, nothing left from another size.
    static func checkLayout(_ screen: [String], columns: Int, rows: Int, alarms: Int) {
        #expect(screen.count == rows, "\(screen)")
        #expect(screen.first?.hasPrefix(" 1 Alarms") == true, "\(screen)")
        #expect(screen.prefix(rows).last?.hasPrefix(" a Add") == true, "\(screen)")
        let rowsShown = alarmRows(screen)
        #expect(rowsShown.count == alarms, "\(screen)")
        for line in screen { #expect(Self.columns(line) <= columns, "wider than \(columns): \(line)") }
        for row in rowsShown { #expect(row.range(of: #"^\[[x ]\] \d\d:\d\d  "#, options: .regularExpression) != nil, "broken row: \(row)") }
    }

    /// Display columns, counted independently of the interface: CJK and
    /// full-width forms take two.
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            let v = scalar.value
            let wide = (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
                || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v)
            return total + (wide ? 2 : 1)
        }
    }

    @Test func resizingRedrawsEveryLineForTheNewSize() throws {
        let f = try Fixture(columns: 120, rows: 40) { daemon in
            try Alarmctl.ok(["add", Self.later(hours: 3), "weekdays", "Work with a rather long label that will not fit a small terminal"], daemon)
            try Alarmctl.ok(["add", Self.later(hours: 5), "saturdays", "Long lie"], daemon)
            try Alarmctl.ok(["add", Self.later(hours: 7), "every", "2", "weeks", "on", "fri", "Fortnightly swim"], daemon)
        }
        defer { f.stop() }
        // The first screen waits on the interface's start too: longer on a loaded machine.
        let wide = f.terminal.wait(timeout: 15) { Self.alarmRows($0).count == 3 }
        #expect(wide.ok, "\(wide.screen)")
        Self.checkLayout(wide.screen, columns: 120, rows: 40, alarms: 3)
        f.terminal.resize(columns: 60, rows: 20)
        let small = f.terminal.wait { $0.count == 20 && Self.alarmRows($0).allSatisfy { Self.columns($0) <= 60 } }
        #expect(small.ok, "\(small.screen)")
        Self.checkLayout(small.screen, columns: 60, rows: 20, alarms: 3)
        // The long label is cut with an ellipsis, not wrapped.
        #expect(small.screen.contains { $0.contains("Work with") && $0.contains("…") }, "\(small.screen)")
        f.terminal.resize(columns: 120, rows: 40)
        let back = f.terminal.wait { $0.count == 40 && Self.alarmRows($0).count == 3 && $0.contains { $0.contains("small terminal") } }
        #expect(back.ok, "\(back.screen)")
        Self.checkLayout(back.screen, columns: 120, rows: 40, alarms: 3)
    }

    @Test(.disabled(if: Locales.unavailableReason != nil, "\(Locales.unavailableReason ?? "")"))
    func theSameScreensInTraditionalChinese() throws {
        let f = try Fixture(language: "zh_TW.UTF-8") { daemon in
            try Alarmctl.ok(["add", "14:05", "daily", "午睡"], daemon)
            try Alarmctl.ok(["add", "9:00", "weekends", "Long lie"], daemon)
        }
        defer { f.stop() }
        // An alarm added through the form with no label gets the default
        // label in the reader's language.
        f.terminal.send("a")
        let form = f.terminal.wait(for: "新增鬧鐘")
        #expect(form.ok, "\(form.screen)")
        #expect(form.screen.contains { $0.contains("重複") && $0.contains("永不") }, "\(form.screen)")
        f.terminal.send("7:30", literal: true)
        f.terminal.send("Tab", "Right", "Right", "Enter")
        // Settled: the list's rows, and its keys at the foot where the form's were.
        let shown = f.terminal.wait { Self.alarmRows($0).count == 3 && $0.last { !$0.isEmpty }?.contains("新增") == true }
        #expect(shown.ok, "\(shown.screen)")
        let rows = Self.alarmRows(shown.screen)
        #expect(shown.screen.first?.contains("鬧鐘") == true, "\(shown.screen)")
        #expect(rows.contains { $0.contains("平日") && $0.contains("鬧鐘") }, "\(rows)")
        #expect(rows.contains { $0.contains("每天") && $0.contains("午睡") }, "\(rows)")
        #expect(rows.contains { $0.contains("假日") }, "\(rows)")
        // The label column starts at the same display column on every row.
        let labelColumns = rows.compactMap { row -> Int? in
            for label in ["鬧鐘", "午睡", "Long lie"] {
                if let range = row.range(of: label) { return Self.columns(String(row[..<range.lowerBound])) }
            }
            return nil
        }
        #expect(labelColumns.count == 3 && Set(labelColumns).count == 1, "\(rows)")
        #expect(shown.screen.last { !$0.isEmpty }?.contains("新增") == true, "\(shown.screen)")
    }

    @Test func randomKeysLeaveTheInterfaceWorkingAndTheDataReadable() throws {
        let f = try Fixture { daemon in
            try Alarmctl.ok(["add", "7:30", "weekdays", "Work"], daemon)
            try Alarmctl.ok(["remind", "add", "Buy milk"], daemon)
            try Alarmctl.ok(["timer", "10m", "Tea"], daemon)
        }
        defer { f.stop() }
        let pid = try #require(f.terminal.panePID())
        // Every key the interface knows and many it does not, in every
        // state a key can reach, except the two that end it (q, and Ctrl+C,
        // the terminal's interrupt) and Ctrl+Z, which suspends it as the
        // terminal's job control does for any curses program.
        let named = ["Space", "Enter", "Escape", "Tab", "BTab", "Up", "Down", "Left", "Right", "Home", "End", "PPage", "NPage",
                     "BSpace", "DC", "F1", "F5", "C-p", "C-u", "C-w", "C-a", "C-e", "C-d", "M-x"]
        let literal = Array("aedsupzxJK123?jkhlgG0789-+:/ ñ鬧⏰").map(String.init)
        var random = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            if Bool.random(using: &random) {
                f.terminal.send(named.randomElement(using: &random)!)
            } else {
                f.terminal.send(literal.randomElement(using: &random)!, literal: true)
            }
            if Int.random(in: 0..<40, using: &random) == 0 { usleep(20_000) }
        }
        usleep(300_000)
        #expect(f.terminal.panePID() == pid, "the interface is gone")
        #expect(kill(pid, 0) == 0)
        // The daemon still answers, and what it holds still reads.
        _ = try f.alarms()
        _ = try Alarmctl.json(["remind", "list", "--all"], f.daemon)
        // It still answers keys: out of any form or help, to the timers
        // tab and back (each tab's own text, whatever the keys deleted).
        f.terminal.send("Escape")
        f.terminal.send("Escape")
        f.terminal.send("3")
        f.terminal.send("3")
        let timers = f.terminal.wait { screen in
            screen.contains { $0.contains("No timers") || ($0.hasPrefix("  ") && $0.range(of: #"(\d:\d\d|ringing)$"#, options: .regularExpression) != nil) }
        }
        #expect(timers.ok, "\(timers.screen)")
        f.terminal.send("1")
        let alarms = f.terminal.wait { $0.contains { $0.contains("No alarms") } || !Self.alarmRows($0).isEmpty }
        #expect(alarms.ok, "\(alarms.screen)")
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Glibc
import Testing

/// The real `alarmctl` against the real `alarmd` (temporary state, UTC): each
/// command's effect, its human and `--json` output, and its exit codes.
///
/// Serialized: the tests that wait for a reminder to ring are timing-sensitive,
/// and a machine busy with several daemons at once makes them slow to ring.
@Suite(.serialized) struct AlarmctlTests {
    static let weekday = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun)"

    static func startDaemon() throws -> DaemonProcess {
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        return daemon
    }

    static func ids(_ reply: [String: Any], _ key: String) -> [String] {
        (reply[key] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    @Test func alarmsFromAddToRemove() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }

        // Added evening first: the list is sorted by time of day, not by when.
        try Alarmctl.ok(["add", "6:00pm", "--label", "Late", "--disabled", "--tz", "Europe/Berlin"], daemon)
        let added = try Alarmctl.ok(["add", "7:30", "--days", "weekdays", "--label", "Work"], daemon)
        #expect(added.matches(#"Added alarm [0-9a-f]{8} 07:30 Work, Weekdays: rings in [0-9]+ (d|h|min|s)( [0-9]+ (h|min|s))? \((Mon|Tue|Wed|Thu|Fri) 07:30\)\n"#), "\(added)")

        let reply = try Alarmctl.json(["list"], daemon)
        let alarms = reply["alarms"] as? [[String: Any]] ?? []
        #expect(alarms.map { $0["time"] as? String } == ["07:30", "18:00"], "sorted by time of day")
        let work = try #require(alarms.first?["id"] as? String)
        let late = try #require(alarms.last?["id"] as? String)
        #expect(alarms[1]["timeZone"] as? String == "Europe/Berlin")
        #expect(alarms[1]["enabled"] as? Bool == false)

        let list = Self.lines(try Alarmctl.ok(["list"], daemon).naming([work: "WORK-ID1", late: "LATE-ID2"]))
        #expect(list.count == 3)
        #expect(list.first == "ID        TIME                   LABEL, REPEAT   ON/OFF  NEXT")
        #expect(list.dropFirst().first?.matches(#"WORK-ID1  07:30                  Work, Weekdays  on      (Mon|Tue|Wed|Thu|Fri) 07:30"#) == true, "\(list)")
        #expect(list.last == "LATE-ID2  18:00 (Europe/Berlin)  Late            off     —")

        let shown = Self.lines(try Alarmctl.ok(["show", String(work.prefix(6))], daemon))
        #expect(shown.first == "id:         \(work)")
        for line in ["time:       07:30", "repeat:     Weekdays", "label:      Work", "snooze:     9 min, no limit", "enabled:    yes", "skip next:  no", "state:      waiting"] {
            #expect(shown.contains(line), "missing \(line) in \(shown)")
        }

        let edited = try Alarmctl.ok(["edit", String(work.prefix(8)), "--label", "Job", "--time", "7:45", "--snooze", "5", "--max-snoozes", "2", "--ring", "90"], daemon)
        #expect(edited.matches(#"Changed alarm [0-9a-f]{8} 07:45 Job, Weekdays: rings in [0-9]+ (d|h|min|s)( [0-9]+ (h|min|s))? \((Mon|Tue|Wed|Thu|Fri) 07:45\)\n"#), "\(edited)")
        let job = try #require(try Alarmctl.json(["show", work], daemon)["alarm"] as? [String: Any])
        #expect(job["label"] as? String == "Job")
        #expect(job["ringSeconds"] as? Int == 90)
        #expect((job["snooze"] as? [String: Any])?["minutes"] as? Int == 5)
        #expect((job["snooze"] as? [String: Any])?["maxCount"] as? Int == 2)

        try Alarmctl.ok(["edit", late, "--tz", "", "--days", "sat,sun"], daemon)
        let unpinned = try #require(try Alarmctl.json(["show", late], daemon)["alarm"] as? [String: Any])
        #expect(unpinned["timeZone"] is NSNull)
        #expect(unpinned["days"] as? [String] == ["sat", "sun"])

        let switched = try Alarmctl.ok(["enable", late, work], daemon)
        #expect(Self.lines(switched).count == 2 && switched.hasPrefix("Enabled alarm "))
        let enabled = (try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]] ?? []).map { $0["enabled"] as? Bool }
        #expect(enabled == [true, true])
        try Alarmctl.ok(["disable", work], daemon)
        #expect(Self.lines(try Alarmctl.ok(["list"], daemon))[1].contains("  off     —"))
        try Alarmctl.ok(["enable", work], daemon)

        try Alarmctl.ok(["skip", work], daemon)
        let skipped = try Alarmctl.json(["show", work], daemon)["alarm"] as? [String: Any]
        #expect(skipped?["skipNext"] as? Bool == true)
        // The occurrence passed over, before the one that rings.
        let skipping = try #require(skipped?["skipping"] as? String)
        #expect(skipping < (skipped?["next"] as? String ?? ""))
        #expect(Self.lines(try Alarmctl.ok(["list"], daemon))[1].contains("  skips "))
        // Asked twice, said so the second time: the same occurrence passes, not the one after.
        let again = try Alarmctl.ok(["skip", work], daemon)
        #expect(again.hasPrefix("Already skipping the next occurrence of alarm "), "\(again)")
        #expect((try Alarmctl.json(["show", work], daemon)["alarm"] as? [String: Any])?["next"] as? String == skipped?["next"] as? String)
        try Alarmctl.ok(["unskip", work], daemon)
        #expect((try Alarmctl.json(["show", work], daemon)["alarm"] as? [String: Any])?["skipNext"] as? Bool == false)
        #expect(try Alarmctl.ok(["unskip", work], daemon).hasPrefix("Nothing skipped for alarm "))

        let removed = try Alarmctl.run(["rm", String(work.prefix(8)), "ffff0000", late], daemon)
        #expect(removed.status == 1)
        #expect(removed.standardOutput.matches(#"Removed alarm "[^"]+" \(\#(work.prefix(8))\)\nRemoved alarm "[^"]+" \(\#(late.prefix(8))\)\n"#), "\(removed.standardOutput)")
        #expect(removed.standardError == "alarmctl: no alarm with id or name \"ffff0000\"\nalarmctl: 1 of 3 alarms could not be removed\n")
        #expect(try Alarmctl.ok(["list"], daemon) == "No alarms.\n")
    }

    /// `--command` is split into an argument vector by alarmctl and stored as
    /// those exact words; `--no-command` removes it.
    @Test func commandsAreStoredAsArgumentVectors() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        try Alarmctl.ok(["add", "7:30", "--label", "Hook", "--command", #"notify-send 'two words' "\$HOME" ;rm"#], daemon)
        let alarm = try #require((try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]])?.first)
        #expect(alarm["command"] as? [String] == ["notify-send", "two words", "$HOME", ";rm"])
        let id = try #require(alarm["id"] as? String)
        try Alarmctl.ok(["edit", String(id.prefix(8)), "--no-command"], daemon)
        #expect((try Alarmctl.json(["show", String(id.prefix(8))], daemon)["alarm"] as? [String: Any])?["command"] as? [String] == [])
        try Alarmctl.ok(["remind", "add", "Tea", "--command", "/usr/bin/true --flag"], daemon)
        let reminder = try #require((try Alarmctl.json(["remind", "list"], daemon)["reminders"] as? [[String: Any]])?.first)
        #expect(reminder["command"] as? [String] == ["/usr/bin/true", "--flag"])
        let bad = try Alarmctl.run(["add", "7:30", "--command", "unbalanced 'quote"], daemon)
        #expect(bad.status == 64)
        #expect(bad.standardError.contains("--command must be a program and its arguments with balanced quotes"))
        let relative = try Alarmctl.run(["add", "7:30", "--command", "bin/thing"], daemon)
        #expect(relative.status == 1)
        #expect(relative.standardError.contains("command must start with a program name on PATH or an absolute path"), "\(relative.standardError)")
    }

    @Test func remindersKeepTheirManualOrder() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }

        #expect(try Alarmctl.ok(["remind", "add", "Buy milk", "--at", "2030-01-07 14:00"], daemon)
            .matches(#"Added reminder [0-9a-f]{8} Buy milk \(due 2030-01-07 14:00\)\n"#))
        try Alarmctl.ok(["remind", "add", "Tax", "--in", "2h", "--notes", "blue folder"], daemon)
        // A repeat is said where the reminder is confirmed, as list says it.
        let repeating = try Alarmctl.ok(["remind", "add", "Swim", "--at", "2030-01-08 07:00", "--days", "tue,thu"], daemon)
        #expect(repeating.matches(#"Added reminder [0-9a-f]{8} Swim \(due 2030-01-08 07:00, Tue, Thu\)\n"#), "\(repeating)")
        try Alarmctl.ok(["remind", "rm", String(repeating.split(separator: " ")[2])], daemon)
        try Alarmctl.ok(["remind", "add", "Plain"], daemon)
        let ids = Self.ids(try Alarmctl.json(["remind", "list"], daemon), "reminders")
        try #require(ids.count == 3)
        let names = [ids[0]: "MILK-ID1", ids[1]: "TAX-ID02", ids[2]: "PLAIN-ID"]

        let list = Self.lines(try Alarmctl.ok(["remind", "list"], daemon).naming(names))
        #expect(list.count == 4)
        // Open ones only, so no DONE column.
        #expect(list[0] == "POS  ID        TITLE     DUE")
        #expect(list[1] == "  1  MILK-ID1  Buy milk  2030-01-07 14:00")
        // Due within the week: its weekday, as list's NEXT says it.
        #expect(list[2].matches(#"  2  TAX-ID02  Tax       (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:\d\d"#), "\(list[2])")
        #expect(list[3] == "  3  PLAIN-ID  Plain     —")

        #expect(try Alarmctl.ok(["remind", "done", String(ids[0].prefix(8))], daemon).naming(names) == "Done: MILK-ID1 Buy milk (due 2030-01-07 14:00)\n")
        let open = Self.lines(try Alarmctl.ok(["remind", "list"], daemon).naming(names))
        #expect(open.count == 3 && !open.contains { $0.contains("MILK-ID1") }, "done ones are hidden: \(open)")
        // --all numbers the open ones as the list does; a done one has no place.
        #expect(Self.lines(try Alarmctl.ok(["remind", "list", "--all"], daemon).naming(names))[1] == "  —  MILK-ID1  [x]   Buy milk  2030-01-07 14:00")
        #expect(try Alarmctl.ok(["status"], daemon).contains("2 open, 1 done"), "status counts as the list does")

        // The list after a move shows the open reminders, numbered from 1.
        let moved = Self.lines(try Alarmctl.ok(["remind", "move", String(ids[2].prefix(8)), "top"], daemon).naming(names))
        #expect(moved.dropFirst().map { String($0.prefix(13)) } == ["  1  PLAIN-ID", "  2  TAX-ID02"], "\(moved)")
        let all = try Alarmctl.json(["remind", "list", "--all"], daemon)["reminders"] as? [[String: Any]] ?? []
        #expect(all.map { $0["title"] as? String } == ["Plain", "Buy milk", "Tax"])

        let shown = Self.lines(try Alarmctl.ok(["remind", "show", String(ids[1].prefix(8))], daemon))
        #expect(shown.contains("notes:     blue folder"))
        #expect(shown.contains("position:  2"), "its number in remind list, which done ones do not count: \(shown)")

        #expect(try Alarmctl.ok(["remind", "edit", ids[1], "--title", "Taxes", "--no-due"], daemon).naming(names) == "Changed reminder TAX-ID02 Taxes (no due time)\n")
        try Alarmctl.ok(["remind", "undone", ids[0]], daemon)
        #expect(try Alarmctl.ok(["remind", "rm", ids[2]], daemon) == "Removed reminder \"Plain\" (\(ids[2].prefix(8)))\n")
        let after = try Alarmctl.json(["remind", "list"], daemon)["reminders"] as? [[String: Any]] ?? []
        #expect(after.map { $0["title"] as? String } == ["Buy milk", "Taxes"])
        #expect(after.map { $0["position"] as? Int } == [0, 1], "positions stay dense")
        #expect(after.map { $0["done"] as? Bool } == [false, false])
        #expect(after.last?["due"] is NSNull)
    }

    @Test func nextAndStatus() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        try Alarmctl.ok(["add", "7:30", "--days", "daily", "--label", "Daily"], daemon)
        try Alarmctl.ok(["remind", "add", "Far away", "--at", "2099-01-01T00:00:00Z"], daemon)
        let alarm = Self.ids(try Alarmctl.json(["list"], daemon), "alarms")[0]

        let next = Self.lines(try Alarmctl.ok(["next", "--count", "3"], daemon))
        #expect(next.count == 4)
        #expect(next.first?.hasPrefix("WHEN ") == true, "a header: \(next)")
        for line in next.dropFirst() {
            #expect(line.matches(#"\d{4}-\d\d-\d\d \#(Self.weekday) 07:30  alarm  \#(alarm.prefix(8))  Daily"#), "\(line)")
        }
        #expect(Self.lines(try Alarmctl.ok(["next", "3"], daemon)) == next, "a number alone is the count")
        let prefix = try Alarmctl.run(["next", "1000"], daemon)
        #expect(prefix.status == 1 && prefix.standardError.contains("\"1000\""), "four digits may be an id's prefix: \(prefix.standardError)")
        let firings = try Alarmctl.json(["next", "--count", "2"], daemon)["firings"] as? [[String: Any]] ?? []
        #expect(firings.map { $0["kind"] as? String } == ["alarm", "alarm"])

        // Then one warning line per reason alarms may not be heard here (no
        // sound or notification server in this test).
        let status = Self.lines(try Alarmctl.ok(["status"], daemon))
        #expect(status.count >= 7)
        #expect(status.dropFirst(7).allSatisfy { $0.hasPrefix("warning:    alarms may not be heard: ") }, "\(status)")
        #expect(status[0].matches(#"version:    \S+"#))
        #expect(Array(status[1...3]) == ["alarms:     1", "reminders:  1", "ringing:    nothing"])
        #expect(status[4].matches(#"next:       \d{4}-\d\d-\d\d \#(Self.weekday) 07:30  alarm "Daily" \(\#(alarm.prefix(8))\)"#), "\(status[4])")
        #expect(status[5].hasPrefix("time zone:  "))
        // Root (CI) has a wake-up timer of its own; another user is told why not.
        #expect(status[6].hasPrefix("wake:       ") && (status[6].contains("07:29 via alarmd's own timer") || status[6].contains("none — ")), "\(status[6])")

        let json = try Alarmctl.json(["status"], daemon)
        #expect(json["alarms"] as? Int == 1)
        #expect(json["ringing"] as? [String] == [])
        #expect((json["next"] as? [String: Any])?["id"] as? String == alarm)

        // --socket wins over ALARMD_SOCKET, before or after the command.
        for arguments in [["--socket", daemon.socketPath, "status"], ["status", "--socket", daemon.socketPath]] {
            let result = try Alarmctl.run(arguments, daemon, environment: ["ALARMD_SOCKET": "/nonexistent/io.alarmd"])
            #expect(result.status == 0, "\(result.standardError)")
        }
    }

    @Test func daemonErrorsExitWith1AndNameTheProblem() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }

        let label = try Alarmctl.run(["add", "7:30", "--label", "bad\u{7}"], daemon)
        #expect(label.status == 1)
        #expect(label.standardOutput == "")
        #expect(label.standardError.hasPrefix("alarmctl: ") && label.standardError.contains("label"), "\(label.standardError)")

        let unknown = try Alarmctl.run(["show", "ffffffff"], daemon)
        #expect(unknown.status == 1)
        #expect(unknown.standardError == "alarmctl: no alarm with id or name \"ffffffff\"\n")

        let reminder = try Alarmctl.run(["remind", "done", "ffffffff"], daemon)
        #expect(reminder.status == 1)
        #expect(reminder.standardError == "alarmctl: no reminder with id or name \"ffffffff\"\n")

        let short = try Alarmctl.run(["show", "ab"], daemon)
        #expect(short.status == 1)
        #expect(short.standardError == "alarmctl: no alarm with id or name \"ab\"\n")

        for command in [["snooze"], ["dismiss"]] {
            let result = try Alarmctl.run(command, daemon)
            #expect(result.status == 1)
            #expect(result.standardError.hasPrefix("alarmctl: ") && result.standardError.contains("ringing"), "\(result.standardError)")
        }

        let bad = try Alarmctl.run(["import", "-"], daemon, input: Data(#"{"format":"alarmd","version":99}"#.utf8))
        #expect(bad.status == 1)
        #expect(bad.standardError.contains("version"), "\(bad.standardError)")
    }

    @Test func exportThenImportRestoresEverything() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        try Alarmctl.ok(["add", "7:30", "--days", "mon,wed", "--label", "Gym", "--snooze", "4"], daemon)
        try Alarmctl.ok(["add", "21:15", "--disabled"], daemon)
        try Alarmctl.ok(["remind", "add", "Call mum", "--at", "2030-05-01 18:00", "--notes", "birthday"], daemon)
        let alarmsBefore = try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]] ?? []
        let remindersBefore = try Alarmctl.json(["remind", "list", "--all"], daemon)["reminders"] as? [[String: Any]] ?? []

        let path = daemon.directory.path + "/backup.json"
        #expect(try Alarmctl.ok(["export", path], daemon) == "Exported 2 alarms and 1 reminder to \(path)\n")
        let toStdout = try Alarmctl.ok(["export"], daemon)
        #expect(toStdout == (try String(contentsOfFile: path, encoding: .utf8)))
        // --json: the daemon's whole reply, which holds the same document.
        let reply = try Alarmctl.json(["export"], daemon)
        let document = try #require(reply["document"] as? [String: Any])
        #expect(document as NSDictionary == (try JSONSerialization.jsonObject(with: Data(toStdout.utf8)) as? NSDictionary))
        let both = try Alarmctl.run(["export", path, "--json"], daemon)
        #expect(both.status == 64, "\(both.standardError)")

        try Alarmctl.ok(["rm"] + alarmsBefore.compactMap { $0["id"] as? String }, daemon)
        try Alarmctl.ok(["remind", "rm", remindersBefore[0]["id"] as? String ?? ""], daemon)
        #expect(try Alarmctl.ok(["list"], daemon) == "No alarms.\n")

        let imported = try Alarmctl.ok(["import", path], daemon)
        #expect(imported.hasSuffix("Imported: 3 added, 0 updated, 0 removed\n") && imported.contains("Added alarm \""), "\(imported)")
        let alarmsAfter = try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]] ?? []
        let remindersAfter = try Alarmctl.json(["remind", "list", "--all"], daemon)["reminders"] as? [[String: Any]] ?? []
        for key in ["id", "time", "label", "days", "enabled", "snooze", "created"] {
            #expect(alarmsAfter.map { $0[key] as? NSObject } == alarmsBefore.map { $0[key] as? NSObject }, "\(key)")
        }
        for key in ["id", "title", "notes", "due", "position"] {
            #expect(remindersAfter.map { $0[key] as? NSObject } == remindersBefore.map { $0[key] as? NSObject }, "\(key)")
        }

        // From standard input, merging by id: still two alarms, not four.
        let again = try Alarmctl.run(["import", "-", "--json"], daemon, input: Data(toStdout.utf8))
        #expect(again.status == 0)
        #expect(try again.json()["alarms"] as? Int == 2)
        #expect((try Alarmctl.json(["list"], daemon)["alarms"] as? [Any])?.count == 2)
    }

    @Test func snoozeAndDismissWithoutAnID() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        try Alarmctl.ok(["remind", "add", "Tea", "--in", "1s"], daemon)
        let tea = Self.ids(try Alarmctl.json(["remind", "list"], daemon), "reminders")[0]

        let rang = try waitUntil(timeout: 10) {
            (try Alarmctl.json(["status"], daemon)["ringing"] as? [String] ?? []).contains(tea)
        }
        try #require(rang, "the reminder did not ring; daemon stderr: \(daemon.standardError)")
        #expect(Self.lines(try Alarmctl.ok(["remind", "list"], daemon))[1].hasSuffix("  ringing"))

        let snoozed = try Alarmctl.run(["snooze"], daemon)
        #expect(snoozed.status == 0, "\(snoozed.standardError)")
        // `Wed 00:04` when the snooze crosses midnight (CI once ran this at 23:59).
        #expect(snoozed.standardOutput.matches(#"Snoozed "Tea" \(\#(tea.prefix(8))\) until ([A-Z][a-z]{2} )?\d\d:\d\d \(snooze 1\)\n"#), "\(snoozed.standardOutput)")
        let status = try Alarmctl.json(["status"], daemon)
        #expect(status["ringing"] as? [String] == [])
        #expect(Self.lines(try Alarmctl.ok(["remind", "list"], daemon))[1].hasSuffix("  snoozed"))

        // Snooze, then dismiss: with nothing ringing, dismiss takes the one snoozed item.
        #expect(try Alarmctl.ok(["dismiss"], daemon) == "Dismissed \"Tea\" (\(tea.prefix(8)))\n")
        let line = Self.lines(try Alarmctl.ok(["remind", "list"], daemon))[1]
        #expect(!line.hasSuffix("ringing") && !line.hasSuffix("snoozed"), "\(line)")

        let nothing = try Alarmctl.run(["dismiss"], daemon)
        #expect(nothing.status == 1)
        #expect(nothing.standardOutput == "")
        #expect(nothing.standardError == "alarmctl: nothing is ringing or snoozed\n", "\(nothing.standardError)")
    }

    /// Alarms set as people say them, against the real daemon: a repeat in
    /// words, a moment from now, a pause for a week, and an exact duplicate
    /// refused until forced. Each change says when the alarm rings next.
    @Test func alarmsSetInWords() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let work = try Alarmctl.ok(["add", "weekdays", "at", "7", "--label", "Work"], daemon)
        #expect(work.matches(#"Added alarm [0-9a-f]{8} 07:00 Work, Weekdays: rings in [0-9]+ (d|h|min|s)( [0-9]+ (h|min|s))? \((Mon|Tue|Wed|Thu|Fri) 07:00\)\n"#), "\(work)")
        let pizza = try Alarmctl.ok(["add", "in", "30", "min", "--label", "Pizza"], daemon)
        #expect(pizza.matches(#"Added alarm [0-9a-f]{8} [0-9]{2}:[0-9]{2} Pizza, Once on [^:]+: rings in (29|30) min \([^)]+\)\n"#), "\(pizza)")
        let fortnight = try Alarmctl.json(["add", "every 2 weeks on fri 9:00", "--label", "Cleaning"], daemon)["alarm"] as? [String: Any]
        #expect((fortnight?["rule"] as? [String: Any])?["interval"] as? Int == 2)
        // A range and days taken out, in words; the label after them.
        let gym = try Alarmctl.ok(["add", "6:30", "every", "day", "except", "sun", "gym"], daemon)
        #expect(gym.contains(" 06:30 gym, Mon, Tue, Wed, Thu, Fri, Sat: rings "), "\(gym)")
        let school = try Alarmctl.json(["add", "7:15 mon to fri", "--label", "School"], daemon)["alarm"] as? [String: Any]
        #expect(school?["days"] as? [String] == ["mon", "tue", "wed", "thu", "fri"], "\(String(describing: school))")
        let dangling = try Alarmctl.run(["add", "7:30", "every", "day", "except"], daemon)
        #expect(dangling.status == 64 && dangling.standardError.contains("\"except\" reads as a repeat"), "\(dangling.standardError)")

        let twin = try Alarmctl.run(["add", "7:00", "--days", "weekdays", "--label", "work"], daemon)
        #expect(twin.status == 1 && twin.standardError.contains("is the same: 07:00 Work, Weekdays"), "\(twin.standardError)")
        #expect((try Alarmctl.json(["list"], daemon)["alarms"] as? [Any])?.count == 5)
        try Alarmctl.ok(["add", "7:00", "--days", "weekdays", "--label", "work", "--force"], daemon)
        #expect((try Alarmctl.json(["list"], daemon)["alarms"] as? [Any])?.count == 6)

        let paused = try Alarmctl.ok(["pause", "cleaning", "--for", "1w"], daemon)
        #expect(paused.hasPrefix("Paused alarm "), "\(paused)")
        let shown = try Alarmctl.json(["show", "Cleaning"], daemon)["alarm"] as? [String: Any]
        let today = CivilTime.floorDiv(Int64(Date().timeIntervalSince1970), 86_400)
        #expect([today + 6, today + 7, today + 8].map(RecurrenceRule.dateText).contains(shown?["pausedUntil"] as? String ?? ""), "\(String(describing: shown?["pausedUntil"]))")

        // Every alarm off, and on again: each switched once, and said when none is left to switch.
        try Alarmctl.ok(["disable", "Pizza"], daemon)
        let off = try Alarmctl.ok(["disable", "--all"], daemon)
        #expect(off.components(separatedBy: "Disabled alarm ").count - 1 == 5, "\(off)")
        #expect(try Alarmctl.ok(["disable", "all"], daemon) == "Every alarm is off already.\n")
        #expect(try Alarmctl.ok(["disable", "--all", "--json"], daemon) == "", "one reply a line, none here")
        // The one-off Pizza stays off: switched on, it would ring at its time's next occurrence.
        let on = try Alarmctl.ok(["enable", "all"], daemon)
        #expect(on.components(separatedBy: "Enabled alarm ").count - 1 == 5 && !on.contains("Pizza"), "\(on)")
        #expect(try Alarmctl.ok(["enable", "--all"], daemon) == "Every repeating alarm is on already.\n")
        let both = try Alarmctl.run(["enable", "Pizza", "--all"], daemon)
        #expect(both.status == 64 && both.standardError == "alarmctl: enable: give alarm ids or --all, not both\n", "\(both.standardError)")
    }

    /// Chosen days pass silently: skip and unskip days and ranges, a pause
    /// that starts later, and `edit --days` keeping the days skipped.
    @Test func chosenDaysAreSkipped() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        func exceptions(_ name: String) throws -> [String] {
            let alarm = try Alarmctl.json(["show", name], daemon)["alarm"] as? [String: Any]
            return ((alarm?["rule"] as? [String: Any])?["exceptions"] as? [String]) ?? []
        }
        try Alarmctl.ok(["add", "7:00", "--days", "daily", "--label", "Daily"], daemon)
        let skipped = try Alarmctl.ok(["skip", "daily", "2030-01-07..2030-01-09,", "2030-02-01"], daemon)
        #expect(skipped.hasPrefix("Skipping chosen days of alarm "), "\(skipped)")
        #expect(try exceptions("Daily") == ["2030-01-07", "2030-01-08", "2030-01-09", "2030-02-01"])
        try Alarmctl.ok(["unskip", "daily", "2030-01-08"], daemon)
        #expect(try exceptions("Daily") == ["2030-01-07", "2030-01-09", "2030-02-01"])
        // Days a space apart, each said in words: `jun 8 jun 9`.
        try Alarmctl.ok(["skip", "daily", "jun", "8", "jun", "9"], daemon)
        #expect(try exceptions("Daily").count == 5 && exceptions("Daily").contains { $0.hasSuffix("-06-09") })
        try Alarmctl.ok(["unskip", "daily", "jun 8 jun 9"], daemon)
        #expect(try exceptions("Daily") == ["2030-01-07", "2030-01-09", "2030-02-01"])

        // edit --days keeps them; the repeat is the new days.
        try Alarmctl.ok(["edit", "daily", "--days", "weekdays"], daemon)
        let edited = try Alarmctl.json(["show", "Daily"], daemon)["alarm"] as? [String: Any]
        #expect(try exceptions("Daily") == ["2030-01-07", "2030-01-09", "2030-02-01"])
        #expect(edited?["repeat"] as? String == "Weekdays, except 3 dates", "\(String(describing: edited?["repeat"]))")

        // A pause that starts later skips its days, those it rings on (the
        // weekend of Sat 2 March 2030 it does not); one from today pauses.
        try Alarmctl.ok(["pause", "daily", "--from", "2030-03-02", "--until", "2030-03-05"], daemon)
        #expect(try exceptions("Daily").suffix(2) == ["2030-02-01", "2030-03-04"])

        // A one-off alarm on one of a later pause's days is paused until after them
        // (its one day has nothing to skip it from), and resume lets it ring.
        try Alarmctl.ok(["add", "2030-03-03", "9:00", "--label", "Dentist"], daemon)
        let trip = try Alarmctl.run(["pause", "--all", "--from", "2030-03-02", "--until", "2030-03-05"], daemon)
        #expect(trip.status == 0, "\(trip.standardError)")
        #expect((try Alarmctl.json(["show", "Dentist"], daemon)["alarm"] as? [String: Any])?["pausedUntil"] as? String == "2030-03-05")
        try Alarmctl.ok(["resume", "Dentist"], daemon)
        #expect((try Alarmctl.json(["show", "Dentist"], daemon)["alarm"] as? [String: Any])?["pausedUntil"] == nil)
        try Alarmctl.ok(["rm", "Dentist"], daemon)

        // A one-off alarm has no days to skip; a time is not a day.
        try Alarmctl.ok(["add", "6:00", "--label", "Once"], daemon)
        let once = try Alarmctl.run(["skip", "once", "2030-01-07"], daemon)
        #expect(once.status == 64 && once.standardError.contains("rings once"), "\(once.standardError)")
        let timed = try Alarmctl.run(["skip", "daily", "tomorrow 7:00"], daemon)
        #expect(timed.status == 64 && timed.standardError.contains("DAYS must be days or ranges of days"), "\(timed.standardError)")
    }

    /// What a new user typed first in a held-out walk, with a phone's
    /// Clock app in mind: other words for commands, a time after `edit`'s
    /// id, labels and due times after the time, a name of several words
    /// unquoted, the one timer there is, and ranges of days as written.
    @Test func aNewUsersFirstWordsAreTaken() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        try Alarmctl.ok(["add", "6:30", "weekdays", "--label", "work"], daemon)
        try Alarmctl.ok(["add", "7:00", "--label", "Work", "--days", "sat"], daemon)
        #expect(try Alarmctl.ok(["off", "work"], daemon).hasPrefix("Disabled alarm "), "the one written as typed wins over Work")
        #expect(try Alarmctl.ok(["on", "work"], daemon).hasPrefix("Enabled alarm "))
        let typo = try Alarmctl.run(["lsit"], daemon)
        #expect(typo.status == 64 && typo.standardError == "alarmctl: unknown command \"lsit\"; did you mean list?\n", "\(typo.standardError)")
        #expect(try Alarmctl.ok(["edit", "work", "6:45"], daemon).contains(" 06:45 work, Weekdays: "))

        let nap = try Alarmctl.ok(["add", "in", "20", "min", "nap"], daemon)
        #expect(nap.contains(" nap, Once on "), "\(nap)")
        #expect(try Alarmctl.ok(["delete", "nap"], daemon).hasPrefix("Removed alarm \"nap\""))
        // A number alone after a time or a length is a slip, not a label.
        let seven = try Alarmctl.run(["add", "7", "30"], daemon)
        #expect(seven.status == 64 && seven.standardError.contains("the label \"30\" is only a number"), "\(seven.standardOutput)\(seven.standardError)")
        // A timer's length as the app's field reads it: minutes alone, minutes:seconds.
        let soup = try Alarmctl.ok(["timer", "5", "soup"], daemon)
        #expect(soup.contains("Started timer \"soup\"") && soup.contains("in 5 min"), "\(soup)")
        #expect(try Alarmctl.ok(["timer", "1:30"], daemon).contains("in 1 min 30 s"))
        let spaced = try Alarmctl.run(["timer", "2", "30"], daemon)
        #expect(spaced.status == 64 && spaced.standardError.contains("\"30\" after the duration is a number without a unit"), "\(spaced.standardOutput)\(spaced.standardError)")
        try Alarmctl.ok(["timer", "rm", "--all"], daemon)
        let hours = try Alarmctl.run(["timer", "2", "hours", "30"], daemon)
        #expect(hours.status == 64 && hours.standardError.contains("\"30\" after the duration is a number without a unit"), "\(hours.standardOutput)\(hours.standardError)")

        let milk = try Alarmctl.ok(["todo", "add", "buy", "milk", "tomorrow", "5pm"], daemon)
        #expect(milk.contains("buy milk (due ") && milk.contains(" 17:00)"), "\(milk)")
        #expect(try Alarmctl.ok(["remind", "add", "call", "911"], daemon).contains("call 911 (no due time)"))
        // A deadline's words are no part of the title.
        #expect(try Alarmctl.ok(["remind", "add", "submit", "report", "by", "friday", "5pm"], daemon).contains("submit report (due "))
        #expect(try Alarmctl.ok(["remind", "add", "taxes", "due", "apr", "15"], daemon).contains("taxes (due "))
        #expect(try Alarmctl.ok(["remind", "add", "increase", "dose", "by", "5"], daemon).contains("increase dose by 5 (no due time)"), "a quantity")
        #expect(try Alarmctl.ok(["remind", "done", "buy", "milk"], daemon).hasPrefix("Done:"), "two words, one name")

        #expect(try Alarmctl.ok(["timer", "10m", "tea"], daemon).hasPrefix("Started timer \"tea\""))
        #expect(try Alarmctl.ok(["pause", "tea"], daemon).contains("paused"), "pause with a timer's name is the timer's")
        #expect(try Alarmctl.ok(["resume", "tea"], daemon).contains("rings at"))
        #expect(try Alarmctl.ok(["timer", "pause"], daemon).contains("paused"), "the one timer there is")
        #expect(try Alarmctl.ok(["timer", "add", "1m"], daemon).contains("paused"))
        #expect(try Alarmctl.ok(["timer", "continue"], daemon).contains("rings at"))
        // A phone's +1 min: `timer NAME +DURATION`, or `timer +DURATION` for the only one.
        #expect(try Alarmctl.ok(["timer", "tea", "+2m"], daemon).contains("rings at"))
        #expect(try Alarmctl.ok(["timer", "+1m"], daemon).contains("rings at"))
        #expect(try Alarmctl.ok(["timer", "stop"], daemon).hasPrefix("Cancelled timer \"tea\""))
        // More time said either way round, for a name of two words too.
        try Alarmctl.ok(["timer", "10m", "green", "tea"], daemon)
        try Alarmctl.ok(["timer", "20m", "eggs"], daemon)
        for words in [["timer", "+1m", "green", "tea"], ["timer", "green", "tea", "+1m"], ["timer", "add", "1m", "green", "tea"], ["timer", "add", "green", "tea", "1m"],
                      ["timer", "add", "1", "min", "green", "tea"]] {
            #expect(try Alarmctl.ok(words, daemon).hasPrefix("Timer \"green tea\""), "\(words)")
        }
        let longer = try Alarmctl.json(["remind", "show", "green tea"], daemon)["reminder"] as? [String: Any]
        let due = try #require(ISO8601DateFormatter().date(from: longer?["due"] as? String ?? ""))
        #expect((14 * 60 - 5...15 * 60).contains(Int(due.timeIntervalSinceNow)), "five more minutes: \(due)")
        // A name with a length in it: the cut that names a timer.
        try Alarmctl.ok(["timer", "10m"], daemon)
        #expect(try Alarmctl.ok(["timer", "add", "Timer", "10", "min", "5s"], daemon).hasPrefix("Timer \"Timer 10 min\""))
        let bare = try Alarmctl.run(["timer", "+5", "tea"], daemon)
        #expect(bare.status == 64 && bare.standardError.hasSuffix("got \"+5 tea\"\n"), "said as typed: \(bare.standardError)")
        try Alarmctl.ok(["timer", "rm", "--all"], daemon)

        // --all: every timer the verb applies to.
        try Alarmctl.ok(["timer", "10m", "tea"], daemon)
        try Alarmctl.ok(["timer", "20m", "eggs"], daemon)
        let pausedAll = try Alarmctl.ok(["timer", "pause", "--all"], daemon)
        #expect(pausedAll.contains("Timer \"tea\"") && pausedAll.contains("Timer \"eggs\"") && !pausedAll.contains("rings at"), "\(pausedAll)")
        #expect(try Alarmctl.ok(["timer", "pause", "--all"], daemon) == "No timer is counting down.\n")
        #expect(try Alarmctl.ok(["timer", "resume", "--all"], daemon).components(separatedBy: "rings at").count == 3)
        #expect(try Alarmctl.run(["timer", "--all"], daemon).status == 64)
        #expect(try Alarmctl.run(["timer", "rm", "tea", "--all"], daemon).standardError.contains("give ids or --all, not both"))
        #expect(try Alarmctl.run(["timer", "rm", "--all", "--label", "x"], daemon).status == 64, "--label starts a timer")
        #expect(try Alarmctl.ok(["timer", "resume", "--all", "--json"], daemon) == "", "one reply a line, none here")
        #expect(try Alarmctl.run(["timer", "tea", "+2m", "--label", "x"], daemon).status == 64)
        let cancelled = try Alarmctl.ok(["timer", "cancel", "--all"], daemon)
        #expect(cancelled.contains("Cancelled timer \"tea\"") && cancelled.contains("Cancelled timer \"eggs\""), "\(cancelled)")
        #expect(try Alarmctl.ok(["timer", "rm", "--all"], daemon) == "No timers running.\n")
        // A ringing timer is not the one pause or add means: the one counting down is.
        try Alarmctl.ok(["timer", "1s", "bell"], daemon)
        #expect(try waitUntil(timeout: 10) { !(try Alarmctl.json(["status"], daemon)["ringing"] as? [String] ?? []).isEmpty })
        try Alarmctl.ok(["timer", "10m", "tea"], daemon)
        #expect(try Alarmctl.ok(["timer", "pause"], daemon).contains("Timer \"tea\""))
        #expect(try Alarmctl.ok(["timer", "add", "1m"], daemon).contains("Timer \"tea\""))
        try Alarmctl.ok(["timer", "rm", "--all"], daemon)

        #expect(try Alarmctl.ok(["add", "7:15", "--repeat", "weekdays", "--label", "gym"], daemon).contains("gym, Weekdays"), "--repeat is --days")
        try Alarmctl.ok(["skip", "gym", "from", "dec", "14", "to", "dec", "18"], daemon)
        #expect(try Alarmctl.ok(["show", "gym"], daemon).contains("skipped:"))
        let skipped = try Alarmctl.ok(["skip", "work", "dec", "14-18"], daemon)
        // Said once, on the changed alarm's line.
        #expect((skipped.contains("skips Dec 14–Dec 18") || skipped.contains("skips 20")) && !skipped.contains("Days skipped:"), "\(skipped)")
        #expect(try Alarmctl.ok(["show", "work"], daemon).contains("skipped:"))
    }

    /// Wherever an id is taken, a label or title is too: whole or an
    /// unambiguous prefix, case-insensitive. An ambiguous one lists the
    /// candidates and changes nothing; an open reminder is found before a
    /// done one of the same title.
    @Test func itemsAreNamedByTheirLabelOrTitle() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        try Alarmctl.ok(["add", "7:00", "--days", "weekdays", "--label", "上班"], daemon)
        try Alarmctl.ok(["add", "6:10", "--label", "Early train"], daemon)
        try Alarmctl.ok(["add", "6:00", "--label", "Early bird"], daemon)

        #expect(try Alarmctl.ok(["disable", "上班"], daemon).hasPrefix("Disabled alarm"))
        let ambiguous = try Alarmctl.run(["rm", "early"], daemon)
        #expect(ambiguous.status == 1)
        #expect(ambiguous.standardError.hasPrefix("alarmctl: \"early\" matches several items; name one by its id:\n"), "\(ambiguous.standardError)")
        #expect(ambiguous.standardError.contains("  \"Early train\"\n") && ambiguous.standardError.contains("  \"Early bird\"\n"), "\(ambiguous.standardError)")
        #expect((try Alarmctl.json(["list"], daemon)["alarms"] as? [Any])?.count == 3, "nothing was removed")
        #expect(try Alarmctl.ok(["rm", "EARLY TRAIN"], daemon).hasPrefix("Removed alarm \"Early train\""))
        #expect(try Alarmctl.ok(["show", "early"], daemon).contains("Early bird"), "the one left is an unambiguous prefix")
        let off = try Alarmctl.json(["show", "上班"], daemon)["alarm"] as? [String: Any]
        #expect(off?["enabled"] as? Bool == false)

        try Alarmctl.ok(["remind", "add", "milk"], daemon)
        #expect(try Alarmctl.ok(["remind", "undone", "milk"], daemon).hasPrefix("Still not done: "))
        try Alarmctl.ok(["remind", "done", "milk"], daemon)
        let twice = try Alarmctl.ok(["remind", "done", "milk"], daemon)
        #expect(twice.hasPrefix("Already done: ") && !twice.contains("(done"), "\(twice)")
        try Alarmctl.ok(["remind", "add", "Milk"], daemon)
        // undone names the done one, where an open one of that name is there too.
        let undone = try Alarmctl.ok(["remind", "undone", "MILK"], daemon)
        #expect(undone.hasPrefix("Not done: "), "\(undone)")
        let both = (try Alarmctl.json(["remind", "list"], daemon)["reminders"] as? [[String: Any]] ?? []).map { $0["title"] as? String ?? "" }
        #expect(both.sorted() == ["Milk", "milk"], "\(both)")
        try Alarmctl.ok(["remind", "done", "milk"], daemon)
        try Alarmctl.ok(["remind", "add", "book flights"], daemon)
        #expect(try Alarmctl.ok(["remind", "done", "milk"], daemon).hasPrefix("Done"), "the open one, not the done one")
        try Alarmctl.ok(["remind", "add", "call mum"], daemon)
        try Alarmctl.ok(["remind", "move", "Book Flights", "top"], daemon)
        let open = (try Alarmctl.json(["remind", "list"], daemon)["reminders"] as? [[String: Any]] ?? []).map { $0["title"] as? String ?? "" }
        #expect(open == ["book flights", "call mum"])
        let missing = try Alarmctl.run(["remind", "done", "bread"], daemon)
        #expect(missing.standardError == "alarmctl: no reminder with id or name \"bread\"\n")
        // Two done namesakes and an open one: undone cannot tell which is meant.
        try Alarmctl.ok(["remind", "add", "MILK"], daemon)
        let which = try Alarmctl.run(["remind", "undone", "milk"], daemon)
        #expect(which.status == 1 && which.standardError.hasPrefix("alarmctl: \"milk\" matches several items; name one by its id:\n"), "\(which.standardError)")
        #expect(which.standardError.contains("  \"Milk\"") && which.standardError.contains("  \"milk\""), "\(which.standardError)")
    }

    /// What a fourth new user typed first, against a real daemon: a
    /// shorthand option, several names in one rm, a to-do moved up, a skip of
    /// a day the alarm does not ring, unskip undoing every skip, a trip next
    /// week, the timer list, and a ringing timer named and snoozed by minutes.
    @Test func whatAFourthNewUserTyped() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        #expect(try Alarmctl.ok(["add", "6:45", "--weekdays", "--label", "Wake up"], daemon).contains("Wake up, Weekdays"))
        try Alarmctl.ok(["add", "8:00", "--label", "Foo"], daemon)
        try Alarmctl.ok(["add", "9:00", "--label", "Bar"], daemon)
        #expect(try Alarmctl.ok(["rm", "Foo", "Bar"], daemon).contains("Removed alarm \"Bar\""))
        #expect((try Alarmctl.json(["list"], daemon)["alarms"] as? [Any])?.count == 1)

        let weekend = try Alarmctl.run(["skip", "Wake up", "sat"], daemon)
        #expect(weekend.status == 1 && weekend.standardError.contains("nothing to skip"), "\(weekend.standardError)")
        let week = try Alarmctl.ok(["skip", "Wake up", "next", "week"], daemon)
        #expect(week.contains("anyway") && week.contains("skips "), "\(week)")
        #expect(try Alarmctl.ok(["unskip", "Wake up"], daemon).hasPrefix("No longer skipping"))
        #expect(!(try Alarmctl.ok(["show", "Wake up"], daemon).contains("skipped:")), "unskip alone rings every skipped day again")
        let trip = try Alarmctl.ok(["pause", "next", "week"], daemon)
        #expect(trip.hasPrefix("Quiet from") && trip.contains("Paused alarm"), "\(trip)")
        // A skip, then a pause over the skipped morning: the first morning back rings.
        try Alarmctl.ok(["add", "8:00", "--days", "weekdays", "--label", "Back"], daemon)
        try Alarmctl.ok(["skip", "Back"], daemon)
        try Alarmctl.ok(["pause", "Back", "--until", "2030-01-07"], daemon)
        let back = try #require(try Alarmctl.json(["show", "Back"], daemon)["alarm"] as? [String: Any])
        #expect(back["skipNext"] as? Bool == false && (back["next"] as? String)?.hasPrefix("2030-01-07") == true, "\(back)")
        // `--until dec 14` unquoted, and `until` as a word.
        #expect(try Alarmctl.ok(["pause", "Back", "--until", "dec", "14"], daemon).contains("paused until Dec 14"))
        #expect(try Alarmctl.ok(["pause", "Back", "until", "dec", "15"], daemon).contains("paused until Dec 15"))
        #expect(try Alarmctl.ok(["add", "明天早上七點半", "晨跑"], daemon).contains("07:30 晨跑"), "Chinese numerals count the hour")
        #expect(try Alarmctl.ok(["edit", "Back", "saturdays"], daemon).contains("Back, Sat:"), "days after edit's id are its new days")
        #expect(try Alarmctl.ok(["add", "18:00", "tue,thu", "Gym"], daemon).contains("18:00 Gym, Tue, Thu:"), "listed days after the time repeat")
        #expect(try Alarmctl.ok(["pause", "all", "until", "dec", "20"], daemon).contains("paused until Dec 20"), "all is --all")
        #expect(try Alarmctl.run(["stop"], daemon).standardError.contains("nothing is ringing"), "stop is dismiss")

        try Alarmctl.ok(["todo", "Buy milk"], daemon)
        try Alarmctl.ok(["todo", "Call plumber"], daemon)
        try Alarmctl.ok(["remind", "move", "Call plumber", "up"], daemon)
        let order = (try Alarmctl.json(["remind", "list"], daemon)["reminders"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(order == ["Call plumber", "Buy milk"], "\(order)")
        try Alarmctl.ok(["remind", "done", "Buy milk"], daemon)
        let done = try Alarmctl.run(["remind", "move", "Buy milk", "1"], daemon)
        #expect(done.status == 1 && done.standardError.contains("not an open to-do"), "a done to-do has no place to move to: \(done.standardError)")

        try Alarmctl.ok(["timer", "10m", "Tea"], daemon)
        #expect(try Alarmctl.ok(["timer", "list"], daemon).contains("Tea"))
        try Alarmctl.ok(["timer", "1s", "Egg"], daemon)
        let rang = try waitUntil(timeout: 10) { !(try Alarmctl.json(["status"], daemon)["ringing"] as? [String] ?? []).isEmpty }
        try #require(rang, "the timer did not ring; daemon stderr: \(daemon.standardError)")
        #expect(try Alarmctl.ok(["status"], daemon).contains("\"Egg\" ("), "status names what rings")
        // Ringing, its RINGS column says when it rang (TZ=UTC), not when it will stop.
        let egg = (try Alarmctl.json(["timer"], daemon)["reminders"] as? [[String: Any]] ?? []).first { $0["title"] as? String == "Egg" }
        let rangAt = try #require((egg?["due"] as? String)?.dropFirst(11).prefix(5), "\(String(describing: egg))")
        let ringingRow = try Alarmctl.ok(["timers"], daemon).split(separator: "\n").first { $0.contains("Egg") } ?? ""
        #expect(ringingRow.contains("ringing") && ringingRow.hasSuffix(rangAt), "\(ringingRow), rang at \(rangAt)")
        #expect(try Alarmctl.ok(["snooze", "10"], daemon).hasPrefix("Snoozed \"Egg\""))
        let timers = try Alarmctl.ok(["timers"], daemon)
        #expect(timers.contains("snoozed, 10 min") || timers.contains("snoozed, 9 min"), "a snoozed timer's time left is its snooze's: \(timers)")
    }

    /// An id prefix that fits several items, and a snooze or dismiss without
    /// an id while several items ring: refused, naming the candidates.
    @Test func ambiguousPrefixesAndSeveralRingingItemsAreNamed() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let first = "abcd0000-0000-4000-8000-000000000001", second = "abcd0000-0000-4000-8000-000000000002"
        let document = #"{"format":"alarmd","version":1,"alarms":[{"id":"\#(first)","time":"07:00","label":"One"},{"id":"\#(second)","time":"08:00","label":"Two"}]}"#
        try Alarmctl.ok(["import", "-"], daemon, input: Data(document.utf8))
        let ambiguous = try Alarmctl.run(["show", "abcd0000"], daemon)
        #expect(ambiguous.status == 1)
        #expect(ambiguous.standardError.contains(first) && ambiguous.standardError.contains(second), "\(ambiguous.standardError)")
        let raw = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.RemoveAlarm","parameters":{"id":"abcd"}}"#)
        #expect(raw.error?.name == "io.alarmd.AmbiguousId", "\(raw.text)")
        #expect(raw.error?.parameters["matches"] == .array([.string(first), .string(second)]), "\(raw.text)")
        #expect((try Alarmctl.json(["list"], daemon)["alarms"] as? [Any])?.count == 2, "nothing was removed")

        try Alarmctl.ok(["remind", "add", "Tea", "--in", "1s"], daemon)
        try Alarmctl.ok(["remind", "add", "Cake", "--in", "1s"], daemon)
        let reminders = Self.ids(try Alarmctl.json(["remind", "list"], daemon), "reminders")
        let both = try waitUntil(timeout: 10) { (try Alarmctl.json(["status"], daemon)["ringing"] as? [String] ?? []).count == 2 }
        try #require(both, "the reminders did not both ring; daemon stderr: \(daemon.standardError)")
        for command in [["snooze"], ["dismiss"]] {
            let result = try Alarmctl.run(command, daemon)
            #expect(result.status == 1)
            for id in reminders { #expect(result.standardError.contains(id), "\(command): \(result.standardError)") }
            #expect(result.standardError.contains("Tea") && result.standardError.contains("Cake"), "\(result.standardError)")
        }
        let refused = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.Dismiss"}"#)
        #expect(refused.error?.name == "io.alarmd.NotRinging", "\(refused.text)")
        #expect(refused.error?.parameters["ringing"]?.arrayValue?.count == 2, "\(refused.text)")
        #expect((try Alarmctl.json(["status"], daemon)["ringing"] as? [String] ?? []).count == 2, "neither was touched")
    }

    @Test func watchPrintsEventsAsTheyHappen() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let json = try BackgroundAlarmctl(["watch", "--json"], daemon)
        let human = try BackgroundAlarmctl(["watch"], daemon)
        // Give both time to subscribe before anything happens.
        usleep(500_000)
        try Alarmctl.ok(["remind", "add", "Tea", "--in", "2s"], daemon)
        let tea = Self.ids(try Alarmctl.json(["remind", "list"], daemon), "reminders")[0]

        let fired = json.waitForLine(timeout: 10) { $0.contains(#""kind":"fired""#) }
        let line = try #require(fired, "no fired event; lines: \(json.lines), stderr: \(json.standardError)")
        let event = try #require((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? [String: Any])
        #expect(event["id"] as? String == tea)
        #expect(event["itemKind"] as? String == "reminder")
        #expect(event["title"] as? String == "Tea")
        // The occurrence it belongs to and when it happened, and the item itself.
        let due = try #require((try Alarmctl.json(["remind", "show", tea], daemon)["reminder"] as? [String: Any])?["due"] as? String)
        #expect(event["scheduled"] as? String == due)
        #expect(event["actual"] is String)
        #expect((event["reminder"] as? [String: Any])?["title"] as? String == "Tea")
        #expect((event["reminder"] as? [String: Any])?["due"] as? String == due)
        #expect(event["alarm"] == nil)
        for earlier in json.lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(earlier.utf8))) is [String: Any], "every line is one JSON object: \(earlier)")
        }

        let humanLine = human.waitForLine(timeout: 5) { $0.contains("  fired  ") }
        #expect(humanLine?.matches(#"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d  fired      \#(tea.prefix(8))  Reminder "Tea"  \((on time|[0-9.]+ (ms|s) late)\)"#) == true, "\(human.lines)")

        #expect(json.terminate() == SIGTERM)
        #expect(human.terminate() == SIGTERM)
        #expect(!json.process.isRunning && !human.process.isRunning)
    }
}

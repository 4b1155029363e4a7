// SPDX-License-Identifier: Apache-2.0
import AlarmStore
import AlarmTestSupport
import Foundation
import Testing

/// Calendar rules end to end, through alarmctl and a real daemon: pauses,
/// holidays read from iCalendar files (and re-read on SIGHUP), recurring
/// reminders, and advance notices on Watch and in the journal.
@Suite(.serialized) struct CalendarTests {
    /// Today's and later dates in UTC (the daemons here run in UTC).
    static func date(daysFromNow days: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date().addingTimeInterval(TimeInterval(days) * 86_400))
    }

    static func alarm(_ reply: [String: Any]) -> [String: Any] { reply["alarm"] as? [String: Any] ?? [:] }

    @Test func pauseAndResumeAllAlarms() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        let work = Self.alarm(try Alarmctl.json(["add", "7:30", "--days", "daily", "--label", "Work"], daemon))
        let gym = Self.alarm(try Alarmctl.json(["add", "18:00", "--every", "2d", "--label", "Gym"], daemon))
        let back = Self.date(daysFromNow: 10)
        let paused = try Alarmctl.ok(["pause", "--all", "--until", back], daemon)
        #expect(paused.split(separator: "\n").count == 2 && paused.contains("paused until"), "\(paused)")

        let shown = Self.alarm(try Alarmctl.json(["show", work["id"] as? String ?? ""], daemon))
        #expect(shown["pausedUntil"] as? String == back)
        #expect((shown["next"] as? String)?.hasPrefix(back + "T07:30:00") == true, "\(shown)")
        let list = try Alarmctl.ok(["list"], daemon)
        #expect(list.contains("paused until"), "\(list)")

        let resumed = Self.alarm(try Alarmctl.json(["resume", gym["id"] as? String ?? ""], daemon))
        #expect(resumed["pausedUntil"] == nil)
        #expect((resumed["next"] as? String).map { !$0.hasPrefix(back) } == true, "\(resumed)")

        // A pause that starts later is skipped days; resume ends those too.
        let workID = work["id"] as? String ?? ""
        _ = try Alarmctl.ok(["resume", workID], daemon)
        _ = try Alarmctl.ok(["pause", workID, "--from", Self.date(daysFromNow: 2), "--until", Self.date(daysFromNow: 5)], daemon)
        let later = Self.alarm(try Alarmctl.json(["show", workID], daemon))
        #expect((later["rule"] as? [String: Any])?["exceptions"] as? [String] == (2...4).map { Self.date(daysFromNow: $0) }, "\(later)")
        let ended = try Alarmctl.ok(["resume", workID], daemon)
        #expect(ended.hasPrefix("Resumed alarm") && !ended.contains("skips") && ended.contains("\nDays that ring again: "), "\(ended)")
        // The three days as one run, first–last.
        let again = ended.split(separator: "\n").last.map(String.init) ?? ""
        #expect(again.filter { $0 == "–" }.count == 1 && !again.contains(","), "\(again)")
        // Nothing left to end: said, and nothing written.
        let updated = Self.alarm(try Alarmctl.json(["show", workID], daemon))["updated"] as? String
        #expect(try Alarmctl.ok(["resume", workID], daemon).hasPrefix("Not paused: alarm "))
        #expect(Self.alarm(try Alarmctl.json(["show", workID], daemon))["updated"] as? String == updated)
        let rule = Self.alarm(try Alarmctl.json(["show", workID], daemon))["rule"] as? [String: Any]
        #expect(rule?["exceptions"] as? [String] == [], "\(String(describing: rule))")

        // A day that is not one names the option and the forms.
        let bad = try Alarmctl.run(["pause", "--all", "--until", "next week"], daemon)
        #expect(bad.status == 64 && bad.standardError.hasPrefix("alarmctl: --until must be a time (7:30, 7am, noon, 下午2點), a day (tomorrow, fri, next tue,")
                && bad.standardError.hasSuffix(", got \"next week\"\n"), "\(bad.standardError)")
    }

    @Test func aDatedAlarmAndAMonthlyOneReadInWords() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        let flight = try Alarmctl.ok(["add", "5:10", "--date", "2030-12-24", "--label", "Flight"], daemon)
        #expect(flight.contains("Flight, Once on Tue, Dec 24"), "\(flight)")
        let rent = Self.alarm(try Alarmctl.json(["add", "9:00", "--monthly", "31", "--starting", "2030-01-01", "--label", "Rent"], daemon))
        #expect(rent["repeat"] as? String == "Monthly on day 31")
        #expect((rent["rule"] as? [String: Any])?["byMonthDay"] as? [Int] == [31])
        let refused = try Alarmctl.run(["add", "9:00", "--monthly", "2nd-someday"], daemon)
        #expect(refused.status == 64 && refused.standardError.contains("--monthly must be a day of the month (1–31), -1 for the last day"), "\(refused.standardError)")
        let both = try Alarmctl.run(["add", "9:00", "--date", "2030-12-24", "--every", "2d"], daemon)
        #expect(both.status == 64 && both.standardError.contains("--every and --date cannot be used together"), "\(both.standardError)")
        // The preview says what a 31st does to short months.
        let preview = try Alarmctl.ok(["preview", "9:00", "--monthly", "31", "--from", "2030-01-01", "--count", "3"], daemon)
        #expect(preview.hasPrefix("Monthly on day 31 (months without day 31 are skipped, as RFC 5545 says)\n2030-01-31 Thu 09:00"), "\(preview)")
    }

    /// A repeating reminder marked done comes back at its next day, and the
    /// history says it was completed.
    @Test func aRepeatingReminderComesBack() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        let due = Self.date(daysFromNow: 2)
        let added = try Alarmctl.json(["remind", "add", "Water the plants", "--at", due + " 18:00", "--every", "3d"], daemon)
        let id = try #require((added["reminder"] as? [String: Any])?["id"] as? String)
        let done = try Alarmctl.json(["remind", "done", id], daemon)["reminder"] as? [String: Any] ?? [:]
        #expect(done["done"] as? Bool == false)
        #expect((done["due"] as? String)?.hasPrefix(Self.date(daysFromNow: 5) + "T18:00:00") == true, "\(done)")
        let list = try Alarmctl.ok(["remind", "list"], daemon)
        #expect(list.contains("(Every 3 days)"), "\(list)")
        let text = try Alarmctl.ok(["remind", "done", id], daemon)
        #expect(text.contains(Self.date(daysFromNow: 8)), "\(text)")
        // Two completed events in the history, one for each occurrence.
        try withStore(at: daemon.databasePath) { store throws in
            #expect(try store.history().filter { $0.event == .completed }.count == 2)
        }

        // An all-day one with notices reads as a day.
        let birthday = try Alarmctl.ok(["remind", "add", "Birthday", "--on", "2030-03-14", "--yearly", "03-14", "--before", "1d"], daemon)
        #expect(birthday.contains("(due 2030-03-14, Yearly on Mar 14)"), "\(birthday)")
        let shown = try Alarmctl.ok(["remind", "show", String(birthday.split(separator: " ")[2])], daemon)
        #expect(shown.contains("due:       2030-03-14 (all day)") && shown.contains("repeat:    Yearly on Mar 14") && shown.contains("notices:   1 d before"), "\(shown)")
    }

    /// `--before 1m`: a `notice` event on Watch and in the journal about a
    /// minute before the reminder is due, and no sound.
    @Test func anAdvanceNoticeComesAtItsTime() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        let watch = try BackgroundAlarmctl(["watch", "--json"], daemon)
        usleep(500_000)
        let due = Date().addingTimeInterval(65)
        let formatter = ISO8601DateFormatter()
        let added = try Alarmctl.json(["remind", "add", "Call the dentist", "--at", formatter.string(from: due), "--before", "1m"], daemon)
        let id = try #require((added["reminder"] as? [String: Any])?["id"] as? String)
        let line = try #require(watch.waitForLine(timeout: 20) { $0.contains(#""kind":"notice""#) }, "lines: \(watch.lines)")
        let noticeAt = Date()
        let event = (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? [String: Any] ?? [:]
        #expect(event["id"] as? String == id && event["detail"] as? String == "due in 1 min", "\(event)")
        let early = due.timeIntervalSince(noticeAt)
        #expect(early > 55 && early < 66, "the notice came \(early) s before the due time, not about 60")
        #expect(!watch.lines.contains { $0.contains(#""kind":"fired""#) }, "it does not ring early")
        _ = watch.terminate()
        if JournalFixture.isAvailable {
            let entries = JournalFixture.entries(itemID: id) { $0.contains { $0["ALARMD_EVENT"] == "notice" } }
            let entry = entries.first { $0["ALARMD_EVENT"] == "notice" }
            #expect(entry?["MESSAGE"] == "Reminder \"Call the dentist\" is coming up (due in 1 min)", "\(entries)")
            #expect(entry?["MESSAGE_ID"] == "f2848bdb21c9435992f0bd9699baddbe")
        }
    }

    /// `[Alarms] Holidays=`: days of an iCalendar file pass an alarm with
    /// --skip-holidays over; SIGHUP re-reads it, and a file that does not
    /// parse is named with its line in the journal while the others count.
    @Test func holidaysComeFromICalendarFilesAndReload() throws {
        let directory = TemporaryDirectory()
        let tomorrow = Self.date(daysFromNow: 1).replacingOccurrences(of: "-", with: "")
        let good = directory.path + "/holidays.ics", bad = directory.path + "/broken.ics"
        try Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:h1\r\nDTSTART;VALUE=DATE:\(tomorrow)\r\nSUMMARY:Holiday\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
            .write(to: URL(fileURLWithPath: good))
        try Data("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20261225\nRRULE:FREQ=HOURLY\nEND:VEVENT\nEND:VCALENDAR\n".utf8)
            .write(to: URL(fileURLWithPath: bad))
        let daemon = DaemonProcess(directory: directory, config: "[Alarms]\nHolidays=\(good) \(bad)\n")
        try daemon.startAndWaitReady()
        defer { daemon.stop() }

        let skipping = Self.alarm(try Alarmctl.json(["add", "23:59", "--days", "daily", "--skip-holidays"], daemon))
        let plain = Self.alarm(try Alarmctl.json(["add", "23:58", "--days", "daily"], daemon))
        // Today's 23:59 may be over already; tomorrow's is a holiday either way.
        let next = skipping["next"] as? String ?? ""
        #expect(!next.hasPrefix(Self.date(daysFromNow: 1)), "\(skipping)")
        #expect(next.hasPrefix(Self.date(daysFromNow: 0)) || next.hasPrefix(Self.date(daysFromNow: 2)), "\(skipping)")
        #expect(skipping["skipHolidays"] as? Bool == true && plain["skipHolidays"] == nil)
        if JournalFixture.isAvailable {
            let problems = { JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd"], of: daemon).compactMap { $0["MESSAGE"] }.filter { $0.hasPrefix("Holidays: \(bad)") } }
            #expect(waitUntil(timeout: 10) { !problems().isEmpty })
            #expect(problems().first == "Holidays: \(bad): line 4: RRULE \"FREQ=HOURLY\": FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY; its days do not count as holidays",
                    "\(problems())")
        }

        // Without the file's holiday after a reload, tomorrow rings again.
        try Data("BEGIN:VCALENDAR\nEND:VCALENDAR\n".utf8).write(to: URL(fileURLWithPath: good))
        kill(daemon.process.processIdentifier, SIGHUP)
        let id = skipping["id"] as? String ?? ""
        #expect(waitUntil(timeout: 10) {
            let next = Self.alarm((try? Alarmctl.json(["show", id], daemon)) ?? [:])["next"] as? String ?? ""
            return next.hasPrefix(Self.date(daysFromNow: 0)) || next.hasPrefix(Self.date(daysFromNow: 1))
        }, "daemon: \(daemon.standardError)")
    }
}

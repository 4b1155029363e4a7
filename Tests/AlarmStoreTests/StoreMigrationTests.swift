// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmTestSupport
import CSQLite
import Foundation
import Testing
@testable import AlarmStore

@Suite("Schema migration")
struct StoreMigrationTests {
    /// `type, name, sql` of every schema object, to compare two schemas.
    private func schema(of path: String) throws -> [String] {
        let database = try SQLiteDatabase(path: path, flags: SQLITE_OPEN_READONLY)
        defer { database.close() }
        return try database.texts("SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_schema ORDER BY name")
    }

    @Test func theFixtureIsTheFirstMigration() throws {
        try withTemporaryDirectory { directory throws in
            try rawExecute(directory + "/fixture.sqlite3", try fixture("schema-v1.sql"))
            try rawExecute(directory + "/migration.sqlite3", Schema.migrations[0])
            let fromFixture = try schema(of: directory + "/fixture.sqlite3")
            #expect(fromFixture.count == 3)
            #expect(fromFixture == (try schema(of: directory + "/migration.sqlite3")))
        }
    }

    @Test func aVersion1FileIsMigratedAndKeepsItsData() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/v1.sqlite3"
            try rawExecute(path, try fixture("schema-v1.sql"))
            try rawExecute(path, """
                INSERT INTO alarms VALUES
                    (x'01A1A2A3B1B241C281D2E1E2E3E4E501', 6, 45, 62, 'Work ☕', 'alarm-clock-elapsed',
                     1, 10, 1, 1767225600123456, 1767312000654321),
                    (x'02A1A2A3B1B241C281D2E1E2E3E4E502', 22, 0, 0, 'Bed', '/usr/share/sounds/bell.oga',
                     0, 5, 0, 1767225600123456, 1767225600123456);
                INSERT INTO reminders VALUES
                    (x'0AA1A2A3B1B241C281D2E1E2E3E4E50A', 'Call mum', '', NULL, 0, 0,
                     1767225600123456, 1767225600123456),
                    (x'0BA1A2A3B1B241C281D2E1E2E3E4E50B', 'Taxes', 'forms\nreceipts', 1800000000000001, 1, 1,
                     1767225600123456, 1767312000654321);
                """)

            let store = try Store(path: path)
            defer { store.close() }
            #expect(try store.database?.integer("PRAGMA user_version") == Int64(Store.currentSchemaVersion))

            let work = Alarm(
                id: Sample.id(1), time: try TimeOfDay(hour: 6, minute: 45), days: .weekdays, label: "Work ☕",
                sound: .themed("alarm-clock-elapsed"), snooze: SnoozeSettings(enabled: true, minutes: 10, maxCount: 0),
                ringSeconds: 300, enabled: true, skipNext: false, timeZone: nil,
                created: Sample.created, updated: Sample.updated
            )
            let bed = Alarm(
                id: Sample.id(2), time: try TimeOfDay(hour: 22, minute: 0), days: .never, label: "Bed",
                sound: .file("/usr/share/sounds/bell.oga"), snooze: SnoozeSettings(enabled: false, minutes: 5, maxCount: 0),
                enabled: false, created: Sample.created
            )
            #expect(try store.alarms().sorted { $0.id.uuidString < $1.id.uuidString } == [work, bed])
            #expect(try store.reminders() == [
                Reminder(id: Sample.id(10), title: "Call mum", created: Sample.created),
                Reminder(id: Sample.id(11), title: "Taxes", notes: "forms\nreceipts",
                         due: Date(timeIntervalSince1970: 1_800_000_000.000001), done: true, position: 1,
                         created: Sample.created, updated: Sample.updated),
            ])

            // The version 2 parts work on the migrated file.
            var pinned = work
            pinned.timeZone = Zone(identifier: "Europe/Berlin")
            pinned.skipNext = true
            pinned.snooze.maxCount = 3
            try store.update(pinned)
            #expect(try store.alarm(id: work.id) == pinned)
            try store.record(Sample.event(work.id, .fired, at: 1_000))
            #expect(try store.history().count == 1)
            // So do the version 3 parts: ringing state, which goes with its item.
            let state = RingState(anchor: Date(timeIntervalSince1970: 1_000), phase: .snoozed(until: Date(timeIntervalSince1970: 1_600)),
                                  occurrence: Date(timeIntervalSince1970: 900), snoozeCount: 2)
            try store.saveRingStates([(work.id, .alarm, state)])
            #expect(try store.ringStates() == [work.id: state])
            // And version 5's: an alarm's own volume and fade, absent (the
            // configuration's) on every migrated row.
            #expect(try store.alarms().allSatisfy { $0.volume == nil && $0.fadeSeconds == nil })
            pinned.volume = 25
            pinned.fadeSeconds = 0
            try store.update(pinned)
            #expect(try store.alarm(id: work.id)?.volume == 25)
            #expect(try store.alarm(id: work.id)?.fadeSeconds == 0)
            // And version 6's: the escalation command, and an escalated ringing.
            pinned.command = ["lamp", "on"]
            pinned.escalateCommand = ["/usr/bin/notify-phone", "still asleep"]
            try store.update(pinned)
            #expect(try store.alarm(id: work.id)?.command == ["lamp", "on"])
            #expect(try store.alarm(id: work.id)?.escalateCommand == ["/usr/bin/notify-phone", "still asleep"])
            let escalated = RingState(anchor: Date(timeIntervalSince1970: 1_000), phase: .ringing(since: Date(timeIntervalSince1970: 1_000)),
                                      occurrence: Date(timeIntervalSince1970: 1_000), escalated: true)
            try store.saveRingStates([(work.id, .alarm, escalated)])
            #expect(try store.ringStates()[work.id] == escalated)
            try store.removeAlarm(id: work.id)
            #expect(try store.ringStates().isEmpty)
        }
    }

    /// `release-0.1.0-v6.sql` is the `.dump` of a database that the release
    /// before calendar rules (schema 6) wrote through alarmctl: weekday,
    /// one-shot, pinned, switched-off alarms with volume, fade and a command,
    /// reminders with and without a due time, their ring states. Migrated
    /// in place, every item loads as it was, with no rule, pause, holidays,
    /// all-day due date or notices; and the new columns work on it.
    @Test func aDatabaseOfTheLastReleaseMigratesToRules() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/release.sqlite3"
            try rawExecute(path, try fixture("release-0.1.0-v6.sql"))
            let old = try SQLiteDatabase(path: path, flags: SQLITE_OPEN_READONLY)
            #expect(try old.integer("PRAGMA user_version") == 6)
            old.close()

            let store = try Store(path: path)
            defer { store.close() }
            #expect(try store.database?.integer("PRAGMA user_version") == Int64(Store.currentSchemaVersion))
            let alarms = try store.alarms()
            #expect(alarms.count == 5)
            #expect(alarms.allSatisfy { $0.recurrence == nil && $0.pausedUntil == nil && !$0.skipHolidays })
            let byLabel = Dictionary(uniqueKeysWithValues: alarms.map { ($0.label, $0) })
            #expect(byLabel["Work"]?.days == .weekdays && byLabel["Work"]?.volume == 40 && byLabel["Work"]?.fadeSeconds == 30)
            #expect(byLabel["Weekend"]?.days == .weekends && byLabel["Weekend"]?.snooze.minutes == 10)
            #expect(byLabel["One-shot"]?.isOneShot == true)
            #expect(byLabel["鬧鐘"]?.timeZone?.identifier == "Asia/Taipei" && byLabel["鬧鐘"]?.days == .everyDay)
            #expect(byLabel["Off"]?.enabled == false && byLabel["Off"]?.command == ["echo", "hi"])
            #expect(byLabel["Work"]?.repeatText == "Weekdays")
            let reminders = try store.reminders()
            #expect(reminders.map(\.title) == ["Buy milk", "Call mum"])
            #expect(reminders.allSatisfy { $0.recurrence == nil && !$0.allDay && $0.before.isEmpty })
            #expect(reminders[0].due != nil && reminders[1].due == nil)
            #expect(try store.ringStates().count == 7)

            // The version 7 columns on the migrated rows.
            var work = try #require(byLabel["Work"])
            work.days = .never
            work.recurrence = RecurrenceRule(.monthly, byDay: [.init(.friday, ordinal: -1)], start: CivilTime.dayNumber(year: 2026, month: 12, day: 1),
                                             end: .until(CivilTime.dayNumber(year: 2027, month: 6, day: 30)),
                                             exceptions: [CivilTime.dayNumber(year: 2026, month: 12, day: 25)])
            work.pausedUntil = CivilTime.dayNumber(year: 2027, month: 1, day: 5)
            work.skipHolidays = true
            try store.update(work)
            #expect(try store.alarm(id: work.id) == work)
            var milk = reminders[0]
            milk.recurrence = RecurrenceRule(.weekly, interval: 2, byDay: [.init(.monday), .init(.thursday)], start: 20_000, end: .count(12))
            milk.allDay = true
            milk.before = [900, 86_400]
            try store.update(milk)
            #expect(try store.reminders()[0] == milk)
        }
    }

    /// A rule column is the iCalendar lines a calendar file would hold.
    @Test func aRuleIsStoredAsICalendarLines() throws {
        let rule = RecurrenceRule(.monthly, byDay: [.init(.tuesday, ordinal: 2)], start: CivilTime.dayNumber(year: 2026, month: 12, day: 1),
                                  exceptions: [CivilTime.dayNumber(year: 2027, month: 2, day: 9), CivilTime.dayNumber(year: 2027, month: 1, day: 12)])
        let text = try #require(RuleColumn.text(rule))
        #expect(text == "DTSTART;VALUE=DATE:20261201\nRRULE:FREQ=MONTHLY;BYDAY=2TU\nEXDATE;VALUE=DATE:20270112,20270209")
        #expect(try RuleColumn.rule(text) == rule)
        #expect(try RuleColumn.rule(nil) == nil)
        for bad in ["RRULE:FREQ=DAILY", "DTSTART;VALUE=DATE:20261301\nRRULE:FREQ=DAILY", "DTSTART;VALUE=DATE:20261201\nRRULE:FREQ=HOURLY",
                    "DTSTART;VALUE=DATE:20261201\nRRULE:FREQ=DAILY\nX-FOO:1"] {
            #expect(throws: ValidationError.self) { try RuleColumn.rule(bad) }
        }
    }

    @Test func reopeningACurrentFileChangesNothing() throws {
        try withTemporaryDirectory { directory throws in
            let path = storePath(in: directory)
            try Store(path: path).close()
            let before = try schema(of: path)
            let store = try Store(path: path)
            defer { store.close() }
            #expect(try schema(of: path) == before)
            #expect(try store.database?.integer("PRAGMA user_version") == Int64(Store.currentSchemaVersion))
        }
    }
}

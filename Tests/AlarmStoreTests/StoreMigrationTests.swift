import AlarmCore
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
        try withScratchDirectory { directory throws in
            try rawExecute(directory + "/fixture.sqlite3", try fixture("schema-v1.sql"))
            try rawExecute(directory + "/migration.sqlite3", Schema.migrations[0])
            let fromFixture = try schema(of: directory + "/fixture.sqlite3")
            #expect(fromFixture.count == 3)
            #expect(fromFixture == (try schema(of: directory + "/migration.sqlite3")))
        }
    }

    @Test func aVersion1FileIsMigratedAndKeepsItsData() throws {
        try withScratchDirectory { directory throws in
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

    @Test func reopeningACurrentFileChangesNothing() throws {
        try withScratchDirectory { directory throws in
            let path = storePath(in: directory)
            try Store(path: path).close()
            let before = try schema(of: path)
            let store = try Store(path: path)
            defer { store.close() }
            #expect(try schema(of: path) == before)
            #expect(try store.database?.integer("PRAGMA user_version") == 6)
        }
    }
}

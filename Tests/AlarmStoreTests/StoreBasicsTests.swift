// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmTestSupport
import CSQLite
import Foundation
import Testing
@testable import AlarmStore

@Suite("Store files, settings and round trips")
struct StoreBasicsTests {
    @Test func everyFieldSurvivesCloseAndReopen() throws {
        try withTemporaryDirectory { directory throws in
            let path = storePath(in: directory)
            let pinned = try #require(Zone(identifier: "America/New_York"))
            let alarms = [
                Alarm(
                    id: Sample.id(1), time: try TimeOfDay(hour: 23, minute: 59), days: .weekdays,
                    label: "Wake up ☀️ — Ünïcødé 目覚まし", sound: .file("/home/me/Music/bell ☃.ogg"),
                    snooze: SnoozeSettings(enabled: false, minutes: 60, maxCount: 100), ringSeconds: 3600,
                    enabled: false, skipNext: true, timeZone: pinned,
                    command: ["/usr/bin/notify-send", "", "two words", "ünïcødé --flag=\"x\""],
                    created: Sample.created, updated: Sample.updated
                ),
                Alarm(
                    id: Sample.id(2), time: try TimeOfDay(hour: 0, minute: 0), days: .never, label: "x",
                    sound: .none, snooze: SnoozeSettings(enabled: true, minutes: 1, maxCount: 0), ringSeconds: 1,
                    enabled: true, skipNext: false, timeZone: nil, created: Sample.created
                ),
                Alarm(id: Sample.id(3), time: try TimeOfDay(hour: 6, minute: 5), days: .everyDay,
                      sound: .themed("alarm-clock-elapsed"), created: Date(timeIntervalSince1970: -86_400.5)),
            ]
            var paused = Reminder(id: Sample.id(12), title: "Tea", due: nil, isTimer: true, created: Sample.created)
            paused.timerLeft = 245
            let reminders = [
                Reminder(id: Sample.id(10), title: "Buy milk", notes: "", due: nil, done: false, position: 7,
                         imagePath: nil, created: Sample.created),
                Reminder(id: Sample.id(11), title: "Ünïcødé ✓ 📞", notes: "line one\nline two\ttabbed",
                         due: Date(timeIntervalSince1970: 1_800_000_000.000001), done: true, position: 0,
                         imagePath: "/home/me/Pictures/cat ☃.png", command: ["logger", "-t", "todo"],
                         created: Sample.created, updated: Sample.updated),
                paused,
            ]

            try withStore(at: path) { store throws in
                for alarm in alarms { try store.insert(alarm) }
                for reminder in reminders { try store.insert(reminder) }
            }

            let reopened = try Store(path: path)
            defer { reopened.close() }
            #expect(try reopened.alarms().sorted { $0.id.uuidString < $1.id.uuidString } == alarms)
            for alarm in alarms {
                #expect(try reopened.alarm(id: alarm.id) == alarm)
            }
            // Positions are the store's: the order of insertion.
            var expected = reminders
            expected[0].position = 0
            expected[1].position = 1
            expected[2].position = 2
            #expect(try reopened.reminders() == expected)
            #expect(try reopened.reminder(id: Sample.id(12))?.timerLeft == 245, "a paused timer keeps its time left")
            #expect(try reopened.reminder(id: Sample.id(11)) == expected[1])
            #expect(try reopened.alarm(id: Sample.id(99)) == nil)
            #expect(try reopened.reminder(id: Sample.id(99)) == nil)
            #expect(try reopened.alarm(id: Sample.id(1))?.timeZone?.identifier == "America/New_York")
        }
    }

    @Test func directoriesAreCreated0700AndFilesAre0600() throws {
        try withTemporaryDirectory { directory throws in
            let path = storePath(in: directory)
            let store = try Store(path: path)
            defer { store.close() }
            try store.insert(try Sample.alarm(1))

            #expect(permissions(of: directory + "/state") == 0o700)
            #expect(permissions(of: directory + "/state/alarmd") == 0o700)
            #expect(permissions(of: path) == 0o600)
            // While the store is open after a write, WAL mode keeps both side files.
            #expect(permissions(of: path + "-wal") == 0o600)
            #expect(permissions(of: path + "-shm") == 0o600)
        }
    }

    @Test func pragmasAreInForce() throws {
        try withTemporaryStore { store throws in
            let database = try #require(store.database)
            #expect(try database.texts("PRAGMA journal_mode") == ["wal"])
            #expect(try database.integer("PRAGMA synchronous") == 2)
            #expect(try database.integer("PRAGMA foreign_keys") == 1)
            #expect(try database.integer("PRAGMA busy_timeout") == 5000)
            #expect(try database.integer("PRAGMA user_version") == Int64(Store.currentSchemaVersion))
            #expect(Store.currentSchemaVersion == 10)
        }
    }

    @Test func defaultPathFollowsXDG() {
        #expect(Store.defaultPath(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/me"])
            == "/x/state/alarmd/alarmd.sqlite3")
        #expect(Store.defaultPath(environment: ["HOME": "/home/me"]) == "/home/me/.local/state/alarmd/alarmd.sqlite3")
        #expect(Store.defaultPath(environment: ["XDG_STATE_HOME": "", "HOME": "/home/me"])
            == "/home/me/.local/state/alarmd/alarmd.sqlite3")
        // The XDG specification says to ignore a relative path.
        #expect(Store.defaultPath(environment: ["XDG_STATE_HOME": "state", "HOME": "/home/me"])
            == "/home/me/.local/state/alarmd/alarmd.sqlite3")
    }

    @Test func anEmptyFileIsANewDatabase() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/empty.sqlite3"
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
            let store = try Store(path: path)
            defer { store.close() }
            #expect(try store.alarms().isEmpty)
            try store.insert(try Sample.alarm(1))
            #expect(try store.alarms().count == 1)
        }
    }

    @Test func aPathThatCannotBeCreatedIsCannotOpen() throws {
        try withTemporaryDirectory { directory throws in
            let blocker = directory + "/not-a-directory"
            #expect(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
            let path = blocker + "/alarmd.sqlite3"
            do throws(StoreError) {
                _ = try Store(path: path)
                Issue.record("opened a database below a regular file")
            } catch {
                guard case .cannotOpen(let reported, let detail) = error else {
                    Issue.record("expected cannotOpen, got \(error)")
                    return
                }
                #expect(reported == path)
                #expect(detail.contains("Not a directory"))
                #expect(error.description.hasPrefix(path + ": cannot open"))
            }
            #expect(try contents(of: blocker) == Data("x".utf8))
        }
    }

    @Test func aClosedStoreRefusesWork() throws {
        try withTemporaryStore { store throws in
            store.close()
            store.close()
            do throws(StoreError) {
                _ = try store.alarms()
                Issue.record("read from a closed store")
            } catch {
                guard case .sqlite(let code, _, _) = error else {
                    Issue.record("expected .sqlite, got \(error)")
                    return
                }
                #expect(code == SQLITE_MISUSE)
            }
        }
    }

    /// Mapped reads (the daemon's start-up) read the same items, and turning
    /// them off removes the map: it would otherwise count in resident memory.
    @Test func mappedReadsReadTheSameAndTheMapGoesAway() throws {
        try withTemporaryDirectory { directory throws in
            let path = storePath(in: directory)
            let writer = try Store(path: path)
            for index in 0..<500 {
                try writer.insert(Alarm(id: UUID(), time: try TimeOfDay(hour: index % 24, minute: index % 60),
                                        label: "alarm \(index)", created: Sample.created))
            }
            // Closing checkpoints the log into the file: reads then come from the file itself.
            writer.close()
            let store = try Store(path: path)
            var plain: [Alarm] = []
            try store.loadAlarms { plain.append($0) }
            // A map's line ends with the file's canonical path (no "//"); the
            // `-shm` file is always mapped, and its name only starts with it.
            let canonical = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            // Read to the end: `String(contentsOfFile:)` trusts the size procfs
            // reports (0) and returns only the first read's 4 KiB of the list,
            // which this test process's maps outgrow.
            func mapped() throws -> Bool {
                let maps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd() ?? Data()
                return String(decoding: maps, as: UTF8.self)
                    .split(separator: "\n").contains { $0.hasSuffix(" " + canonical) }
            }
            #expect(try !mapped())
            try store.setMappedReads(true)
            var viaMap: [Alarm] = []
            try store.loadAlarms { viaMap.append($0) }
            #expect(try mapped(), "reads went through a map of \(path)")
            try store.setMappedReads(false)
            #expect(try !mapped())
            #expect(viaMap == plain)
            #expect(plain.count == 500)
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmTestSupport
import CSQLite
import Foundation
import Testing
@testable import AlarmStore

/// Files the store must refuse without writing to them.
@Suite("Refusing foreign, damaged and newer files")
struct StoreRefusalTests {
    /// Opens `path`, expecting a refusal, and checks that neither the file nor the
    /// directory changed. Returns the error.
    private func refusal(
        _ path: String, directoryMayGainSideFiles: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> StoreError? {
        let directory = (path as NSString).deletingLastPathComponent
        let bytes = try contents(of: path)
        let mode = permissions(of: path)
        let listing = try directoryListing(directory)
        var thrown: StoreError?
        do throws(StoreError) {
            let store = try Store(path: path)
            store.close()
            Issue.record("opened \(path)", sourceLocation: sourceLocation)
        } catch {
            thrown = error
        }
        #expect(try contents(of: path) == bytes, "the file's bytes changed", sourceLocation: sourceLocation)
        #expect(permissions(of: path) == mode, sourceLocation: sourceLocation)
        if !directoryMayGainSideFiles {
            #expect(try directoryListing(directory) == listing, sourceLocation: sourceLocation)
        }
        return thrown
    }

    @Test(arguments: [
        "hello\n",
        "meeting notes: bring the projector\n" + String(repeating: "lorem ipsum dolor sit amet ", count: 1_000),
        "SQLite format 2\u{0}" + String(repeating: "x", count: 200),
    ])
    func aTextFileIsNotADatabase(text: String) throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/notes.txt"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let error = try refusal(path)
            #expect(error == .notADatabase(path: path))
            #expect(error?.description == "\(path): not an SQLite database; refusing to touch it")
        }
    }

    @Test func aNewerSchemaIsRefused() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/future.sqlite3"
            try rawExecute(path, "CREATE TABLE alarms (id BLOB PRIMARY KEY, everything TEXT); PRAGMA user_version = 99;")
            let error = try refusal(path)
            #expect(error == .newerSchema(path: path, found: 99, supported: Store.currentSchemaVersion))
            #expect(error?.description
                == "\(path): schema version 99 is newer than this alarmd supports (\(Store.currentSchemaVersion)); upgrade alarmd")
        }
    }

    @Test func garbagePagesAreCorrupt() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/damaged.sqlite3"
            try makeStoreWithData(path)
            var bytes = try contents(of: path)
            #expect(bytes.count > 4 * 4096)
            // Keep page 1 (the header and the schema), scribble over the rest.
            for offset in 4096..<bytes.count { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 31 &+ 7) }
            try bytes.write(to: URL(fileURLWithPath: path))

            let error = try refusal(path, directoryMayGainSideFiles: true)
            guard case .corrupt(let reported, let detail) = error else {
                Issue.record("expected corrupt, got \(String(describing: error))")
                return
            }
            #expect(reported == path)
            #expect(!detail.isEmpty)
            #expect(error?.description.hasPrefix("\(path): corrupt database (") == true)
        }
    }

    @Test func aDamagedSchemaPageIsCorrupt() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/damaged.sqlite3"
            try makeStoreWithData(path)
            var bytes = try contents(of: path)
            // Keep the 100-byte file header, scribble over the rest of page 1.
            for offset in 100..<4096 { bytes[offset] = 0xEE }
            try bytes.write(to: URL(fileURLWithPath: path))

            let error = try refusal(path, directoryMayGainSideFiles: true)
            guard case .corrupt = error else {
                Issue.record("expected corrupt, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func anotherProgramsDatabaseIsRefused() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/other.sqlite3"
            try rawExecute(path, "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada');")
            let error = try refusal(path)
            guard case .corrupt(_, let detail) = error else {
                Issue.record("expected corrupt, got \(String(describing: error))")
                return
            }
            #expect(detail.contains("another program"))
        }
    }

    /// A large store may skip the quick check at open (it reads every page);
    /// damage outside the item tables then shows in a ``StoreCheck``,
    /// run later on a connection of its own, while the items still load.
    @Test func aSkippedQuickCheckRunsLaterOnItsOwnConnection() throws {
        try withTemporaryDirectory { directory throws in
            let path = directory + "/large.sqlite3"
            try makeStoreWithData(path)
            try withStore(at: path) { store throws in
                try store.record((0..<2_000).map { Sample.event(Sample.id(1), .fired, at: 1_800_000_000 + Double($0), detail: String(repeating: "x", count: 100)) })
            }
            // The history was written last, so it fills the last pages.
            var bytes = try contents(of: path)
            for offset in (bytes.count - 3 * 4096)..<bytes.count { bytes[offset] = UInt8(truncatingIfNeeded: offset &* 31 &+ 7) }
            try bytes.write(to: URL(fileURLWithPath: path))

            #expect(throws: StoreError.self) { try Store(path: path).close() }
            let store = try Store(path: path, quickCheckLimit: 0)
            defer { store.close() }
            #expect(store.needsQuickCheck)
            var count = 0
            try store.loadItems { _, _ in count += 1 }
            #expect(count == 200)
            do throws(StoreError) {
                _ = try StoreCheck(path: path).run()
                Issue.record("the quick check passed a damaged file")
            } catch {
                guard case .corrupt(let reported, _) = error else { Issue.record("expected corrupt, got \(error)"); return }
                #expect(reported == path)
            }
            #expect(try Store(path: directory + "/small.sqlite3", quickCheckLimit: 1 << 20).needsQuickCheck == false)
        }
    }

    /// A store with enough alarms to fill several pages, closed, without side files.
    private func makeStoreWithData(_ path: String) throws {
        let label = String(repeating: "long label ", count: 20)
        try withStore(at: path) { store throws in
            try store.replaceAll(alarms: try (0..<200).map { try Sample.alarm(UInt8($0), label: label) }, reminders: [])
        }
    }
}

/// Rows SQLite accepts but alarmd cannot use are reported as corrupt, naming the row
/// and the field; the store does not crash and does not repair them behind the
/// person's back.
@Suite("Invalid rows")
struct InvalidRowTests {
    private func withStore(_ body: (Store) throws -> Void) throws {
        try withTemporaryStore { store throws in
            try store.insert(try Sample.alarm(1))
            try store.insert(Sample.reminder(2))
            try body(store)
        }
    }

    private func corruptDetail(_ body: () throws(StoreError) -> Void) -> String? {
        do throws(StoreError) {
            try body()
            Issue.record("read an invalid row without complaint")
        } catch {
            if case .corrupt(_, let detail) = error { return detail }
            Issue.record("expected corrupt, got \(error)")
        }
        return nil
    }

    @Test func unknownTimeZone() throws {
        try withStore { store throws in
            try store.database?.execute("UPDATE alarms SET time_zone = 'Mars/Olympus_Mons'")
            let detail = corruptDetail { () throws(StoreError) in _ = try store.alarms() }
            #expect(detail?.contains("alarm \(Sample.id(1).uuidString)") == true)
            #expect(detail?.contains("time_zone \"Mars/Olympus_Mons\"") == true)
            #expect(corruptDetail { () throws(StoreError) in _ = try store.alarm(id: Sample.id(1)) } != nil)
        }
    }

    @Test func invalidLabelAndSoundAndTitle() throws {
        try withStore { store throws in
            try store.database?.execute("UPDATE alarms SET label = 'two\nlines'")
            #expect(corruptDetail { () throws(StoreError) in _ = try store.alarms() }?.contains("label") == true)
            try store.database?.execute("UPDATE alarms SET label = 'ok', sound = '-rf'")
            #expect(corruptDetail { () throws(StoreError) in _ = try store.alarms() }?.contains("sound") == true)
            try store.database?.execute("UPDATE reminders SET title = ''")
            let detail = corruptDetail { () throws(StoreError) in _ = try store.reminders() }
            #expect(detail?.contains("reminder \(Sample.id(2).uuidString)") == true)
            #expect(detail?.contains("title") == true)
        }
    }

    @Test func unknownEventKind() throws {
        try withStore { store throws in
            try store.record(Sample.event(Sample.id(1), .fired, at: 1_000))
            try store.database?.execute("UPDATE events SET event = 'exploded'")
            let detail = corruptDetail { () throws(StoreError) in _ = try store.history() }
            #expect(detail?.contains("event \"exploded\"") == true)
            #expect(store.openStatementCount == 0)
        }
    }
}

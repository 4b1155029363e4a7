// SPDX-License-Identifier: Apache-2.0
import AlarmCore
@testable import AlarmDaemon
import AlarmStore
import Foundation
import Testing

/// Every history event in the journal exactly once, across a crash: a row
/// committed but never journaled is journaled at the next start, and an entry
/// journaled before the crash is not written again. The real alarmd against
/// the real journald.
@Suite("Journal recovery", .serialized)
struct JournalRecoveryTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func row(_ id: UUID, _ kind: EventKind, at offset: TimeInterval) -> HistoryEvent {
        HistoryEvent(itemID: id, itemKind: .reminder, event: kind, scheduled: t0, actual: t0.addingTimeInterval(offset))
    }

    @Test func onlyRowsWithoutAnEntryAreJournaledAndEachOnce() {
        let a = UUID(), b = UUID()
        let rows = [Self.row(a, .fired, at: 0), Self.row(a, .dismissed, at: 5), Self.row(b, .fired, at: 0), Self.row(b, .fired, at: 0)]
        let present: Set<String> = [JournalRecovery.key(rows[0])]
        #expect(JournalRecovery.missing(rows, present: present) == [rows[1], rows[2]])
        #expect(JournalRecovery.missing(rows, present: Set(rows.map(JournalRecovery.key))).isEmpty)
        // The key is what the entry's fields say.
        #expect(JournalRecovery.key(rows[0]) == JournalRecovery.key(itemID: a.uuidString.lowercased(), event: "fired", usec: "1800000000000000"))
    }

    /// The state a crash between a firing's commit and its journal entry
    /// leaves: the row is there, the entry is not.
    @Test(.enabled(if: JournalFixture.isAvailable, "\(JournalFixture.unavailableReason ?? "")"))
    func aRowCommittedButNeverJournaledIsJournaledAtTheNextStartOnce() throws {
        let id = UUID()
        let actual = Scheduler.toStorePrecision(Date().addingTimeInterval(-30))
        let directory = TemporaryDirectory()
        var daemon: DaemonProcess? = DaemonProcess(directory: directory)
        try withStore(at: daemon!.databasePath) { store in
            try store.insert(Reminder(id: id, title: "Entry lost in a crash", due: actual, created: actual.addingTimeInterval(-60)))
            try store.record(HistoryEvent(itemID: id, itemKind: .reminder, event: .fired, scheduled: actual, actual: actual))
        }
        try daemon!.startAndWaitReady()
        let entries = JournalFixture.entries(itemID: id.uuidString.lowercased()) { $0.contains { $0["ALARMD_RECOVERED"] == "1" } }
        let fired = entries.filter { $0["ALARMD_EVENT"] == "fired" }
        #expect(fired.count == 1, "\(entries)")
        #expect(fired.first?["ALARMD_RECOVERED"] == "1")
        #expect(fired.first?["ALARMD_EVENT_USEC"] == String(Scheduler.usec(actual)))
        #expect(fired.first?["ALARMD_SCHEDULED_USEC"] == String(Scheduler.usec(actual)))
        #expect(fired.first?["MESSAGE"]?.contains("Entry lost in a crash") == true, "\(fired)")
        #expect(daemon!.stop() == 0)
        daemon = nil

        // A clean stop moved the checkpoint: the next start finds nothing to look for.
        let again = DaemonProcess(directory: directory)
        try again.startAndWaitReady()
        Thread.sleep(forTimeInterval: 1.5)
        #expect(again.stop() == 0)
        #expect(!JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd", "PRIORITY=7"], of: again).contains { $0["MESSAGE"]?.hasPrefix("Looking for the journal entries") == true })
        #expect(JournalFixture.entries(itemID: id.uuidString.lowercased()).filter { $0["ALARMD_EVENT"] == "fired" }.count == 1)
    }

    /// Killed after the entry went out but before any checkpoint: the next
    /// start looks for it, finds it, and writes nothing.
    @Test(.enabled(if: JournalFixture.isAvailable, "\(JournalFixture.unavailableReason ?? "")"))
    func anEntryJournaledBeforeACrashIsNotJournaledAgain() throws {
        let id = UUID()
        let due = Scheduler.toStorePrecision(Date().addingTimeInterval(2))
        let directory = TemporaryDirectory()
        var daemon: DaemonProcess? = DaemonProcess(directory: directory)
        try withStore(at: daemon!.databasePath) { store in
            try store.insert(Reminder(id: id, title: "Journaled once", due: due, created: due.addingTimeInterval(-60)))
        }
        try daemon!.startAndWaitReady()
        let first = JournalFixture.entries(itemID: id.uuidString.lowercased()) { $0.contains { $0["ALARMD_EVENT"] == "fired" } }
        #expect(first.filter { $0["ALARMD_EVENT"] == "fired" }.count == 1)
        daemon!.stop(signal: SIGKILL)
        daemon = nil

        let again = DaemonProcess(directory: directory)
        try again.startAndWaitReady()
        // The check at the start is said at debug level; it is done once the
        // journal shows the checkpoint moved (a clean stop would move it anyway).
        #expect(waitUntil(timeout: 10) {
            JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd", "PRIORITY=7"], of: again).contains { $0["MESSAGE"]?.hasPrefix("Looking for the journal entries") == true }
        })
        #expect(waitUntil(timeout: 10) { (try? Self.checkpoint(again.databasePath)) ?? 0 > 0 })
        #expect(again.stop() == 0)
        let entries = JournalFixture.entries(itemID: id.uuidString.lowercased())
        #expect(entries.filter { $0["ALARMD_EVENT"] == "fired" }.count == 1, "\(entries)")
        #expect(!entries.contains { $0["ALARMD_RECOVERED"] == "1" })
    }

    static func checkpoint(_ path: String) throws -> Int64 {
        try withStore(at: path) { store in try store.historyAfterJournalCheckpoint(limit: 0).through }
    }
}

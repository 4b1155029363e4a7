// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import Dispatch
import FoundationEssentials
import SystemCalls

/// Every history event in the journal exactly once, even across a crash.
///
/// A firing's history row is committed first and journaled after (nothing is
/// told that a crash could take back), so a crash between the two leaves a
/// row without its entry. The store keeps a checkpoint: every row up to it is
/// known to be journaled. It moves at a clean stop and after each start's
/// check; the rows after it are looked for in the journal by their item,
/// event and instant (`ALARMD_EVENT_USEC`, in every entry), and those missing
/// are journaled then, with their original instant and `ALARMD_RECOVERED=1`.
/// Nothing is journaled twice: an entry found is not written again, and one
/// the journal cannot be read back for is not guessed at (a warning says so).
extension Scheduler {
    /// Rows looked at in one start, and journal entries read for them.
    static let journalRecoveryRows = 100_000
    static let journalRecoveryEntries = 1_000_000
    /// How long the journal may take to show what was sent to it.
    static let journalRecoveryWait: TimeInterval = 5

    /// Looks for the entries of the rows after the checkpoint, off the owner
    /// (reading the journal may take a while and ringing must not wait), then
    /// moves the checkpoint through the writer.
    func recoverJournal() {
        let rows: (events: [HistoryEvent], through: Int64)
        do { rows = try store.historyAfterJournalCheckpoint(limit: Self.journalRecoveryRows) } catch {
            return logSaveFailure(error)
        }
        guard !rows.events.isEmpty else { return }
        var known: [UUID: Item] = [:]
        for event in rows.events where known[event.itemID] == nil { known[event.itemID] = owned.table[event.itemID] }
        let (journal, owner, items) = (journal, owner, known)
        DispatchQueue(label: "alarmd.journal-recovery").async { [weak self] in
            JournalRecovery.run(rows.events, items: items, journal: journal, wait: Self.journalRecoveryWait, entryLimit: Self.journalRecoveryEntries)
            guard let self else { return }
            owner.post { self.commit(DurableWriter.Batch(journalCheckpoint: rows.through)) }
        }
    }

    /// At a clean stop, once every entry of a committed row has been handed
    /// to the journal: the checkpoint moves to the last row.
    func checkpointJournal() {
        do {
            let last = try store.lastHistorySeq()
            commit(DurableWriter.Batch(journalCheckpoint: last))
        } catch {
            logSaveFailure(error)
        }
    }
}

/// The journal side of the recovery: which rows have no entry, and their
/// entries written.
enum JournalRecovery {
    /// The fields that name an event in its entry.
    static let fields = ["ALARMD_ITEM_ID", "ALARMD_EVENT", "ALARMD_EVENT_USEC"]

    static func key(itemID: String, event: String, usec: String) -> String { itemID + " " + event + " " + usec }

    static func key(_ row: HistoryEvent) -> String {
        key(itemID: row.itemID.lowercasedText, event: row.event.rawValue, usec: String(Scheduler.usec(row.actual)))
    }

    /// The rows among `rows` whose key is not in `present`, each once.
    static func missing(_ rows: [HistoryEvent], present: Set<String>) -> [HistoryEvent] {
        var seen = present
        return rows.filter { seen.insert(key($0)).inserted }
    }

    /// Reads the journal back and writes the entries missing; says so in a
    /// warning, and writes nothing, when it cannot be read back.
    static func run(_ rows: [HistoryEvent], items: [UUID: Item], journal: Journal, wait: TimeInterval, entryLimit: Int) {
        guard journal.isAvailable else { return }
        let token = UUID().lowercasedText
        journal.send("Looking for the journal entries of \(rows.count) events recorded since the last start", priority: .debug,
                     fields: [("ALARMD_JOURNAL_CHECK", token)])
        let reader: JournalReader
        do throws(JournalReader.Failure) { reader = try JournalReader() } catch {
            return cannotRead(rows.count, because: error.description, journal: journal)
        }
        guard reader.waitFor(identifier: journal.identifier, field: "ALARMD_JOURNAL_CHECK", value: token, timeout: wait) else {
            return cannotRead(rows.count, because: "the check entry did not show in \(Int(wait)) s", journal: journal)
        }
        let oldest = rows.map(\.actual).min()!
        var present = Set<String>()
        reader.forEach(identifier: journal.identifier, since: min(oldest, Date()).addingTimeInterval(-600), fields: fields, limit: entryLimit) { entry in
            guard let id = entry["ALARMD_ITEM_ID"], let event = entry["ALARMD_EVENT"], let usec = entry["ALARMD_EVENT_USEC"] else { return }
            present.insert(key(itemID: id, event: event, usec: usec))
        }
        let lost = missing(rows, present: present)
        guard !lost.isEmpty else { return }
        journal.send("\(lost.count) of \(rows.count) events recorded before the last stop had no journal entry; journaling them now", priority: .notice)
        for row in lost {
            let item = items[row.itemID] ?? Self.removed(row)
            Scheduler.log(DaemonEvent(kind: row.event, item: item, scheduled: row.scheduled, actual: row.actual, snoozeCount: 0, detail: row.detail),
                          to: journal, recovered: true)
        }
    }

    private static func cannotRead(_ count: Int, because reason: String, journal: Journal) {
        journal.send("Cannot read the journal back (\(reason)); \(count) events recorded before the last stop were not checked for their entries, and any missing stay missing",
                     priority: .warning)
    }

    /// An item removed since: named by its id only.
    private static func removed(_ row: HistoryEvent) -> Item {
        switch row.itemKind {
        case .alarm: .alarm(Alarm(id: row.itemID, time: .nineAM, label: "(removed)", created: row.actual))
        case .reminder: .reminder(Reminder(id: row.itemID, title: "(removed)", created: row.actual))
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import Dispatch
import FoundationEssentials
import Synchronization

/// The scheduler's durable writer: commits on a store connection and a queue
/// of its own, so the scheduler's queue never waits for an `fdatasync`.
///
/// **Group commit.** Batches handed over while a commit runs wait, and the
/// next transaction takes all of them: eight clients changing things at once
/// share one sync instead of queueing for eight. One that the store refuses (a
/// duplicate id, say) fails alone; a failed `COMMIT` fails every batch in it.
///
/// Batches commit in the order they were submitted, so a later write of an
/// item always lands after an earlier one. It is the daemon's only writer:
/// the scheduler's own connection only reads.
final class DurableWriter: Sendable {
    /// What one step of the scheduler changed, to commit as a unit, in this
    /// order: everything replaced, items, moves, states, history.
    struct Batch: Sendable {
        /// Names the batch in its outcome.
        var serial: UInt64 = 0
        /// Every alarm and reminder, replacing all there are (an import).
        var replacement: (alarms: [Alarm], reminders: [Reminder])?
        var items: [DaemonMachine.Write] = []
        /// Reminders moved in the manual order, one after the other.
        var moves: [(id: UUID, position: Int)] = []
        var states: [(id: UUID, kind: ItemKind, state: RingState)] = []
        /// History rows of announced firings, with the journal entries that go
        /// out once they are committed.
        var records = PendingRecords()
        /// History rows of a request, journaled by its completion.
        var history: [HistoryEvent] = []
        /// Every history row up to this `seq` is in the journal.
        var journalCheckpoint: Int64?
    }

    /// What became of a batch; collected on the scheduler's queue.
    enum Outcome: Sendable {
        case saved(Batch)
        case failed(Batch, StoreError)
    }

    private let queue = DispatchQueue(label: "alarmd.writer", qos: .userInteractive)
    /// The writer's own connection. Only `queue` takes the lock, so it is never
    /// contended; it is what lets the compiler check that nothing else touches
    /// the connection. After ``close()`` its operations fail, and a batch
    /// submitted then fails like any other.
    private let connection: Mutex<Store>
    private struct Shared {
        var waiting: [Batch] = []
        /// A commit of everything waiting is queued or running.
        var scheduled = false
        var outcomes: [Outcome] = []
    }
    private let shared = Mutex(Shared())
    /// Called once after each transaction, when ``takeOutcomes()`` has the
    /// outcomes of all its batches: one hand-off per commit, not per batch.
    private let committed: @Sendable () -> Void

    /// Opens a second connection to the store at `path`, which the scheduler's
    /// own connection has already checked and migrated.
    init(path: String, committed: @escaping @Sendable () -> Void) throws(StoreError) {
        connection = Mutex(try Store.anotherConnection(to: path))
        self.committed = committed
    }

    /// Commits `batch` with whatever else is waiting; its outcome follows (see `committed`).
    func submit(_ batch: Batch) {
        let start = shared.withLock { shared -> Bool in
            shared.waiting.append(batch)
            defer { shared.scheduled = true }
            return !shared.scheduled
        }
        if start { queue.async { [self] in commitWaiting() } }
    }

    /// Takes every batch waiting into one transaction, until none is left.
    private func commitWaiting() {
        while true {
            let batches = shared.withLock { shared -> [Batch] in
                defer { shared.waiting.removeAll() }
                if shared.waiting.isEmpty { shared.scheduled = false }
                return shared.waiting
            }
            guard !batches.isEmpty else { return }
            let outcomes = connection.withLock { Self.commit(batches, on: $0) }
            shared.withLock { $0.outcomes.append(contentsOf: outcomes) }
            committed()
        }
    }

    /// Commits `batches` in one transaction. The common case takes no
    /// savepoint per batch; only if the store refuses one (a duplicate id, a
    /// full disk) is the transaction redone with a savepoint each, so that just
    /// the refused batch fails.
    private static func commit(_ batches: [Batch], on store: Store) -> [Outcome] {
        if batches.count > 1 {
            do throws(StoreError) {
                try store.transaction { () throws(StoreError) in
                    for batch in batches { try write(batch, on: store) }
                }
                return batches.map { .saved($0) }
            } catch {
                // Rolled back whole; sorted out batch by batch below.
            }
        }
        return commitEachInASavepoint(batches, on: store)
    }

    private static func commitEachInASavepoint(_ batches: [Batch], on store: Store) -> [Outcome] {
        var outcomes: [Outcome] = []
        do throws(StoreError) {
            try store.transaction { () throws(StoreError) in
                for batch in batches {
                    do throws(StoreError) {
                        try store.transaction { () throws(StoreError) in try write(batch, on: store) }
                        outcomes.append(.saved(batch))
                    } catch {
                        outcomes.append(.failed(batch, error))
                    }
                }
            }
            return outcomes
        } catch {
            return batches.map { .failed($0, error) }
        }
    }

    private static func write(_ batch: Batch, on store: Store) throws(StoreError) {
        if let replacement = batch.replacement { try store.replaceAll(alarms: replacement.alarms, reminders: replacement.reminders) }
        for write in batch.items {
            switch write {
            case .insert(.alarm(let alarm)): try store.insert(alarm)
            case .insert(.reminder(let reminder)): try store.insert(reminder)
            case .update(.alarm(let alarm)): try store.update(alarm)
            case .update(.reminder(let reminder)): try store.update(reminder)
            case .remove(let id, .alarm): try store.removeAlarm(id: id)
            case .remove(let id, .reminder): try store.removeReminder(id: id)
            case .none: break
            }
        }
        for move in batch.moves { try store.moveReminder(id: move.id, to: move.position) }
        try store.saveRingStates(batch.states)
        try store.record(batch.records.rows + batch.history)
        if let seq = batch.journalCheckpoint { try store.advanceJournalCheckpoint(to: seq) }
    }

    /// Waits until every batch submitted so far has been committed or has failed.
    func drain() {
        queue.sync {}
    }

    /// The outcomes of finished batches, oldest first, each handed out once.
    func takeOutcomes() -> [Outcome] {
        shared.withLock { shared in
            defer { shared.outcomes.removeAll() }
            return shared.outcomes
        }
    }

    /// Reads from the store on the writer's queue, after every batch
    /// submitted before it (so a reader sees its own changes), and hands the
    /// result to `completion` there: the owner's queue never waits for the
    /// disk.
    func read<T: Sendable>(_ body: @escaping @Sendable (Store) throws(StoreError) -> T, completion: @escaping @Sendable (Result<T, StoreError>) -> Void) {
        queue.async { [self] in
            let result = connection.withLock { store -> Result<T, StoreError> in
                do throws(StoreError) { return .success(try body(store)) } catch { return .failure(error) }
            }
            completion(result)
        }
    }

    /// Finishes what was submitted and closes the connection.
    func close() {
        queue.sync { connection.withLock { $0.close() } }
    }
}

import AlarmCore
import AlarmStore
import Dispatch
import Foundation
import Synchronization

/// Commits firings saved ahead, and history rows, on a store connection and a
/// queue of its own, so the scheduler's queue never waits for the durable
/// commit a busy period needs every eighth of a second: a firing that falls
/// due during that commit would be late by the length of an `fdatasync`.
///
/// The two connections never race on a row: before the scheduler writes an
/// item that has a save in flight here, it calls ``drain()`` (SQLite would
/// order the two commits, but not in the order the scheduler decided them).
final class AheadWriter: @unchecked Sendable {
    /// Ringing states and history rows to commit in one transaction.
    struct Batch: Sendable {
        var states: [(id: UUID, kind: ItemKind, state: RingState)]
        /// The rows, with the journal entries that go out once they are committed.
        var records: PendingRecords
    }

    /// What became of a batch; collected on the scheduler's queue.
    enum Outcome: Sendable {
        case saved(Batch)
        case failed(Batch, StoreError)
    }

    private let queue = DispatchQueue(label: "alarmd.writer", qos: .userInteractive)
    /// Confined to `queue`. After ``close()`` its operations fail, and a batch
    /// submitted then fails like any other.
    private let store: Store
    private let outcomes = Mutex<[Outcome]>([])

    /// Opens a second connection to the store at `path`, which the scheduler's
    /// own connection has already checked and migrated.
    init(path: String) throws(StoreError) {
        store = try Store.anotherConnection(to: path)
    }

    /// Commits `batch` in the background, then calls `done`, after which
    /// ``takeOutcomes()`` has its outcome.
    func submit(_ batch: Batch, then done: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            let outcome: Outcome
            do throws(StoreError) {
                try store.transaction { () throws(StoreError) in
                    try store.saveRingStates(batch.states)
                    try store.record(batch.records.rows)
                }
                outcome = .saved(batch)
            } catch {
                outcome = .failed(batch, error)
            }
            outcomes.withLock { $0.append(outcome) }
            done()
        }
    }

    /// Waits until every batch submitted so far has been committed or has failed.
    func drain() {
        queue.sync {}
    }

    /// The outcomes of finished batches, oldest first, each handed out once.
    func takeOutcomes() -> [Outcome] {
        outcomes.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }

    /// Finishes what was submitted and closes the connection.
    func close() {
        queue.sync { store.close() }
    }
}

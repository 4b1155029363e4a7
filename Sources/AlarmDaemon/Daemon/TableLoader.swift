// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import Dispatch
import FoundationEssentials
import Synchronization

/// Builds the scheduler's ``ItemTable`` on a second core while the store is
/// still being read.
///
/// The reader (the scheduler's thread) steps through the alarms, decodes and
/// checks them; every batch goes over to the loader's queue, which reads that
/// batch's ringing states on a connection of its own (one range query), works
/// out each alarm's wake-up and files it (the queue is the output worker's,
/// idle before the daemon serves anyone). Each side is about
/// half of a million-alarm start-up, so overlapping them roughly halves it.
final class TableLoader: Sendable {
    private let queue: DispatchQueue
    private let now: Date
    private let wake: @Sendable (Item, RingState) -> Date?

    /// The loader's side, on `queue`.
    private struct State {
        var states: Store?
        var table = ItemTable()
        var fresh: [(id: UUID, kind: ItemKind, state: RingState)] = []
        var failure: StoreError?
    }
    private let state: QueueBound<State>
    /// The reader's side: the batch it fills. Only the reader touches it; the
    /// lock is uncontended, there because the reader's thread is the caller's.
    private let batch: Mutex<[Alarm]>

    /// Opens the loader's own connection to the store at `path`. Items whose
    /// saved state is missing start from `now`; a state saved ahead of an
    /// instant not yet come is taken back (``RingingMachine/loaded(_:now:)``).
    init(path: String, now: Date, queue: DispatchQueue, wake: @escaping @Sendable (Item, RingState) -> Date?) throws(StoreError) {
        self.queue = queue
        self.now = now
        self.wake = wake
        var batch: [Alarm] = []
        batch.reserveCapacity(Store.loadBatchSize)
        self.batch = Mutex(batch)
        let state = QueueBound(State(), queue: queue)
        self.state = state
        let opened = queue.sync { () -> StoreError? in
            do throws(StoreError) {
                let store = try Store.anotherConnection(to: path)
                state.states = store
                // Closed when loading ends, which removes the map (Store.setMappedReads).
                try store.setMappedReads(true)
                // Counting reads the whole table once; here it overlaps the reader's
                // first batch (and warms the page cache for it) instead of preceding it.
                let count = try store.itemCount()
                // Room for an eighth more: growing a full million-entry table later
                // would copy all of it inside one request. Untouched room is not resident.
                state.table.reserveCapacity(count + count / 8 + 64)
                return nil
            } catch {
                return error
            }
        }
        if let opened { throw opened }
    }

    /// An alarm from the reader, in id order.
    func add(_ alarm: Alarm) {
        let full = batch.withLock { batch in
            batch.append(alarm)
            return batch.count == Store.loadBatchSize
        }
        if full { handOver() }
    }

    /// A reminder with the state the reader found for it.
    func add(_ reminder: Reminder, _ stored: RingState?) {
        queue.async { [self] in
            guard state.failure == nil else { return }
            file(.reminder(reminder), stored)
        }
    }

    /// Waits for everything handed over and returns the table, with the items
    /// that had no saved state (to be saved), or the first failed read.
    func finish() throws(StoreError) -> (table: ItemTable, fresh: [(id: UUID, kind: ItemKind, state: RingState)]) {
        handOver()
        // Moved out, not copied: a second reference would make the scheduler's
        // first change copy a million-entry table.
        let (table, fresh, failure) = queue.sync {
            defer {
                state.table = ItemTable()
                state.fresh = []
                state.states?.close()
                state.states = nil
            }
            return (state.table, state.fresh, state.failure)
        }
        if let failure { throw failure }
        return (table, fresh)
    }

    private func handOver() {
        let taken = batch.withLock { batch -> [Alarm]? in
            guard !batch.isEmpty else { return nil }
            let alarms = batch
            batch.removeAll(keepingCapacity: true)
            return alarms
        }
        guard let alarms = taken else { return }
        queue.async { [self] in
            guard state.failure == nil, let states = state.states else { return }
            do throws(StoreError) {
                try states.withRingStates(of: alarms) { alarm, stored in file(.alarm(alarm), stored) }
            } catch {
                state.failure = error
            }
        }
    }

    private func file(_ item: Item, _ stored: RingState?) {
        let ringState = stored.map { RingingMachine.loaded($0, now: now) } ?? RingState(anchor: now)
        if stored == nil { state.fresh.append((item.id, item.kind, ringState)) }
        state.table.set(item, state: ringState, wake: wake(item, ringState))
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import Dispatch
import Foundation

/// Builds the scheduler's ``ItemTable`` on a second core while the store is
/// still being read.
///
/// The reader (the scheduler's thread) steps through the alarms, decodes and
/// checks them; every batch goes over to the loader's queue, which reads that
/// batch's ringing states on a connection of its own (one range query), works
/// out each alarm's wake-up and files it (the queue is the output worker's,
/// idle before the daemon serves anyone). Each side is about
/// half of a million-alarm start-up, so overlapping them roughly halves it.
final class TableLoader: @unchecked Sendable {
    private let queue: DispatchQueue
    private let now: Date
    private let wake: @Sendable (Item, RingState) -> Date?
    // Touched on `queue` only.
    private var states: Store?
    private var table = ItemTable()
    private var fresh: [(id: UUID, kind: ItemKind, state: RingState)] = []
    private var failure: StoreError?
    // Touched by the reader only.
    private var batch: [Alarm] = []

    /// Opens the loader's own connection to the store at `path`. Items whose
    /// saved state is missing start from `now`; a state saved ahead of an
    /// instant not yet come is taken back (``RingingMachine/loaded(_:now:)``).
    init(path: String, now: Date, queue: DispatchQueue, wake: @escaping @Sendable (Item, RingState) -> Date?) throws(StoreError) {
        self.queue = queue
        self.now = now
        self.wake = wake
        batch.reserveCapacity(Store.loadBatchSize)
        let opened = queue.sync { () -> StoreError? in
            do throws(StoreError) {
                let store = try Store.anotherConnection(to: path)
                states = store
                // Closed when loading ends, which removes the map (Store.setMappedReads).
                try store.setMappedReads(true)
                // Counting reads the whole table once; here it overlaps the reader's
                // first batch (and warms the page cache for it) instead of preceding it.
                let count = try store.itemCount()
                // Room for an eighth more: growing a full million-entry table later
                // would copy all of it inside one request. Untouched room is not resident.
                table.reserveCapacity(count + count / 8 + 64)
                return nil
            } catch {
                return error
            }
        }
        if let opened { throw opened }
    }

    /// An alarm from the reader, in id order.
    func add(_ alarm: Alarm) {
        batch.append(alarm)
        if batch.count == Store.loadBatchSize { handOver() }
    }

    /// A reminder with the state the reader found for it.
    func add(_ reminder: Reminder, _ stored: RingState?) {
        queue.async { [self] in
            guard failure == nil else { return }
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
                self.table = ItemTable()
                self.fresh = []
                states?.close()
                states = nil
            }
            return (self.table, self.fresh, self.failure)
        }
        if let failure { throw failure }
        return (table, fresh)
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        let alarms = batch
        batch.removeAll(keepingCapacity: true)
        queue.async { [self] in
            guard failure == nil, let states else { return }
            do throws(StoreError) {
                try states.withRingStates(of: alarms) { alarm, stored in file(.alarm(alarm), stored) }
            } catch {
                failure = error
            }
        }
    }

    private func file(_ item: Item, _ stored: RingState?) {
        let state = stored.map { RingingMachine.loaded($0, now: now) } ?? RingState(anchor: now)
        if stored == nil { fresh.append((item.id, item.kind, state)) }
        table.set(item, state: state, wake: wake(item, state))
    }
}

import AlarmCore
import AlarmStore
import Dispatch
import Foundation

/// Builds the scheduler's ``ItemTable`` on a second core while the store is
/// still being read: decoding rows and filling the table each take about half
/// of a million-alarm start-up, so overlapping them roughly halves it.
///
/// `add` is called from one thread (the reader); rows go over in batches, and
/// the table, with each item's wake-up, is filled on the loader's own queue.
final class TableLoader: @unchecked Sendable {
    private static let batchSize = 4096
    private let queue = DispatchQueue(label: "alarmd.load", qos: .userInteractive)
    private let wake: @Sendable (Item, RingState) -> Date?
    private let check: @Sendable (Alarm) throws(StoreError) -> Void
    // Touched on `queue` only.
    private var table = ItemTable()
    private var failure: StoreError?
    // Touched by the reader only.
    private var batch: [(Item, RingState)] = []

    /// `check` validates each alarm on the loader's core (the reader skips it).
    init(capacity: Int, check: @escaping @Sendable (Alarm) throws(StoreError) -> Void, wake: @escaping @Sendable (Item, RingState) -> Date?) {
        self.wake = wake
        self.check = check
        // Room for an eighth more: growing a full million-entry table later
        // would copy all of it inside one request. Untouched room is not resident.
        table.reserveCapacity(capacity + capacity / 8 + 64)
        batch.reserveCapacity(Self.batchSize)
    }

    func add(_ item: Item, _ state: RingState) {
        batch.append((item, state))
        if batch.count == Self.batchSize { handOver() }
    }

    /// Waits for every row handed over and returns the table, or the first
    /// alarm that failed its check.
    func finish() throws(StoreError) -> ItemTable {
        handOver()
        // Moved out, not copied: a second reference would make the scheduler's
        // first change copy a million-entry table.
        let (table, failure) = queue.sync {
            defer { self.table = ItemTable() }
            return (self.table, self.failure)
        }
        if let failure { throw failure }
        return table
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        let rows = batch
        batch.removeAll(keepingCapacity: true)
        queue.async { [self] in
            guard failure == nil else { return }
            for (item, state) in rows {
                if case .alarm(let alarm) = item {
                    do throws(StoreError) { try check(alarm) } catch {
                        failure = error
                        return
                    }
                }
                table.set(item, state: state, wake: wake(item, state))
            }
        }
    }
}

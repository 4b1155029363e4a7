import AlarmCore
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
    // Touched on `queue` only.
    private var table = ItemTable()
    // Touched by the reader only.
    private var batch: [(Item, RingState)] = []

    init(capacity: Int, wake: @escaping @Sendable (Item, RingState) -> Date?) {
        self.wake = wake
        table.reserveCapacity(capacity)
        batch.reserveCapacity(Self.batchSize)
    }

    func add(_ item: Item, _ state: RingState) {
        batch.append((item, state))
        if batch.count == Self.batchSize { handOver() }
    }

    /// Waits for every row handed over and returns the table.
    func finish() -> ItemTable {
        handOver()
        return queue.sync { table }
    }

    private func handOver() {
        guard !batch.isEmpty else { return }
        let rows = batch
        batch.removeAll(keepingCapacity: true)
        queue.async { [self] in
            for (item, state) in rows { table.set(item, state: state, wake: wake(item, state)) }
        }
    }
}

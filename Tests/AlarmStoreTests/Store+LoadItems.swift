// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore

extension Store {
    /// Streams every item with its saved ringing state (`nil` when it has none):
    /// alarms in id order, then reminders in their manual order, with no array
    /// of a million items built on the way. A row that breaks the model's rules
    /// is reported as damage (``StoreError/corrupt(path:detail:)``).
    ///
    /// Test-only: the daemon's start-up (TableLoader) does the same in two
    /// halves on two cores, ``loadAlarms(_:)`` on one connection and
    /// ``withRingStates(of:_:)`` for each batch on another, so production has
    /// no use for this one-connection version.
    func loadItems(_ body: (Item, RingState?) -> Void) throws(StoreError) {
        var batch: [Alarm] = []
        batch.reserveCapacity(Self.loadBatchSize)
        func flush() throws(StoreError) {
            try withRingStates(of: batch) { alarm, state in body(.alarm(alarm), state) }
            batch.removeAll(keepingCapacity: true)
        }
        var failure: StoreError?
        try loadAlarms { alarm in
            guard failure == nil else { return }
            batch.append(alarm)
            if batch.count == Self.loadBatchSize {
                do throws(StoreError) { try flush() } catch { failure = error }
            }
        }
        if let failure { throw failure }
        try flush()
        try loadReminders { reminder, state in body(.reminder(reminder), state) }
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// History rows of firings announced before their record was committed (those
/// saved ahead), each with the journal entry that waits for it.
///
/// A firing saved ahead rings and reaches `Watch` at its instant, but its
/// journal entry goes out only once its history row is durable. So a crash
/// loses both or neither, and a restart — which records a firing saved ahead
/// that has no row (``Scheduler/start()``) — never journals one twice.
struct PendingRecords: Sendable {
    private(set) var rows: [HistoryEvent] = []
    /// The entries to journal once `rows` are committed.
    private(set) var events: [DaemonEvent] = []

    var isEmpty: Bool { rows.isEmpty }

    mutating func append(_ row: HistoryEvent, journaling event: DaemonEvent) {
        rows.append(row)
        events.append(event)
    }

    /// Everything pending, handed to whoever commits it.
    mutating func take() -> PendingRecords {
        defer { self = PendingRecords() }
        return self
    }

    /// Rows whose commit failed go back in front, so the history stays in
    /// order; their entries were journaled already (see ``Scheduler/collectAhead()``).
    mutating func putBack(rows earlier: [HistoryEvent]) {
        rows.insert(contentsOf: earlier, at: 0)
    }
}

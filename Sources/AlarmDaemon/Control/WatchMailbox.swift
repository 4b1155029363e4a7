import AlarmCore
import Synchronization

/// The events waiting for one `Watch` subscriber, between the scheduler's
/// queue (which posts them) and the control queue (which sends them).
///
/// A burst — a hundred items due at one instant — becomes one hop to the
/// control queue instead of a hundred, so the last event of the burst is not
/// kept waiting behind ninety-nine thread hand-offs. The mailbox is bounded:
/// a subscriber whose control queue cannot keep up is cut off, like one that
/// stops reading.
final class WatchMailbox: Sendable {
    /// Events a subscriber may have waiting before it is dropped.
    static let capacity = 4096

    private struct Contents {
        var events: [DaemonEvent] = []
        /// A drain is queued; posting need not queue another.
        var drainQueued = false
        var overflowed = false
    }
    private let contents = Mutex(Contents())

    /// Adds `event`; `true` when the caller must queue a drain.
    func post(_ event: DaemonEvent) -> Bool {
        contents.withLock { contents in
            guard !contents.overflowed else { return false }
            if contents.events.count == Self.capacity {
                contents.overflowed = true
                contents.events.removeAll()
            } else {
                contents.events.append(event)
            }
            defer { contents.drainQueued = true }
            return !contents.drainQueued
        }
    }

    /// Everything posted so far, and whether the subscriber fell too far behind.
    func drain() -> (events: [DaemonEvent], overflowed: Bool) {
        contents.withLock { contents in
            defer { contents.events.removeAll(keepingCapacity: true); contents.drainQueued = false }
            return (contents.events, contents.overflowed)
        }
    }
}

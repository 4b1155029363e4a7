// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Hands things from one queue to another in batches: the sender posts, and
/// only the post that finds the mailbox empty queues a drain on the receiving
/// queue. A burst — a hundred firings at one instant, the replies of fifty
/// changes that one commit made durable — costs one thread hand-off instead
/// of one each, and a thread hand-off (a futex wake-up) is most of what a
/// small request costs.
///
/// With a capacity the mailbox is bounded: once that many wait, it drops
/// them and reports it at the next drain, and the receiver cuts the consumer
/// off, as it does one that stops reading.
final class Mailbox<Element: Sendable>: Sendable {
    private let capacity: Int?
    private struct Contents {
        var waiting: [Element] = []
        /// A drain is queued; posting need not queue another.
        var drainQueued = false
        var overflowed = false
    }
    private let contents = Mutex(Contents())

    init(capacity: Int? = nil) {
        self.capacity = capacity
    }

    /// Adds `element`; `true` when the caller must queue a drain.
    func post(_ element: Element) -> Bool {
        contents.withLock { contents in
            guard !contents.overflowed else { return false }
            if let capacity, contents.waiting.count == capacity {
                contents.overflowed = true
                contents.waiting.removeAll()
            } else {
                contents.waiting.append(element)
            }
            defer { contents.drainQueued = true }
            return !contents.drainQueued
        }
    }

    /// Everything posted so far, and whether some was dropped for want of room.
    func drain() -> (elements: [Element], overflowed: Bool) {
        contents.withLock { contents in
            defer { contents.waiting.removeAll(keepingCapacity: true); contents.drainQueued = false }
            return (contents.waiting, contents.overflowed)
        }
    }
}

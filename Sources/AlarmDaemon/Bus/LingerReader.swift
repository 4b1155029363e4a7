// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

/// The user's logind `Linger`, for `Status`: the value last read, and a fresh
/// read asked of the output worker after a `Status` — at most one at a time
/// and at most once a second. A `Status` costs the owner a mutex, not a
/// D-Bus call, and a client sending thousands a second costs the output
/// worker one read a second, not one per call. Nothing polls while idle.
final class LingerReader: Sendable {
    private struct State {
        var value: Bool?
        var reading = false
        var lastRead: ContinuousClock.Instant?
    }

    static let interval: Duration = .seconds(1)
    private let state = Mutex(State())
    private let logind: Logind
    private let queue: DispatchQueue

    /// `queue` is the output worker's, which `logind` is confined to.
    init(logind: Logind, queue: DispatchQueue) {
        self.logind = logind
        self.queue = queue
    }

    /// The value last read (`nil` when unknown); asks for a fresh one when
    /// none is under way and the last is a second old or more.
    func value() -> Bool? {
        let (value, due) = state.withLock { state -> (Bool?, Bool) in
            let due = !state.reading && state.lastRead.map { ContinuousClock.now - $0 >= Self.interval } ?? true
            if due { state.reading = true }
            return (state.value, due)
        }
        if due {
            queue.async { [self] in
                let read = logind.linger()
                state.withLock { $0 = State(value: read, reading: false, lastRead: .now) }
            }
        }
        return value
    }
}

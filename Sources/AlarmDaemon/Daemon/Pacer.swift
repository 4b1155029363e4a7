// SPDX-License-Identifier: Apache-2.0
import Dispatch

/// Whether work that many changes ask for runs now or waits, so it runs at
/// most once an `interval` and the last request is never lost: the status
/// line (a thousand firings in a second each change it), the commit of
/// history rows (each is an fsync), the check of alarm sounds (a connection
/// to the sound server and a decode each time).
///
/// A pure decision, like ``RingingMachine``: the owner asks with the time
/// now and does what the answer says — runs the work, or schedules one
/// wake-up at the instant given and calls ``woke()`` from it before asking
/// again. Monotonic time: a wall-clock change must not stall the work.
struct Pacer: Sendable {
    enum Decision: Equatable, Sendable {
        /// Run the work now (counted as run).
        case run
        /// Schedule a wake-up at this instant, then ask again.
        case wait(until: DispatchTime)
        /// A wake-up is scheduled already; it will ask again.
        case waiting
    }

    let interval: DispatchTimeInterval
    /// When the work last ran; `nil` before the first (a `DispatchTime` of 0
    /// would mean "now", always).
    private(set) var lastRun: DispatchTime?
    private(set) var wakeScheduled = false

    init(interval: DispatchTimeInterval) {
        self.interval = interval
    }

    /// What to do about a request at `now`. `urgent` runs it even within the
    /// interval (a notice ten minutes before an alarm does not wait); the
    /// interval then counts from it.
    mutating func decide(now: DispatchTime, urgent: Bool = false) -> Decision {
        if !urgent, let lastRun, case let due = lastRun + interval, now < due {
            if wakeScheduled { return .waiting }
            wakeScheduled = true
            return .wait(until: due)
        }
        lastRun = now
        return .run
    }

    /// The scheduled wake-up came: the next ``decide(now:urgent:)`` may run.
    mutating func woke() {
        wakeScheduled = false
    }
}

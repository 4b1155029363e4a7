// SPDX-License-Identifier: Apache-2.0
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// A one-shot timer of the owner's ``EventLoop``: its handler runs on the
/// owner when the deadline passes, in the loop's one thread wake-up.
///
/// The loop keeps one absolute `timerfd` per clock, armed for the earliest
/// deadline on it, so a timer costs no descriptor and cannot fail to be
/// made, and arming is one system call on the caller's thread (a Dispatch
/// timer is armed through Dispatch's manager thread, a wake-up each time).
/// A `wall` timer follows `CLOCK_REALTIME`: the kernel moves it with the
/// clock, so an alarm armed for 07:00 expires at 07:00 whatever the clock
/// did meanwhile. A `monotonic` one measures elapsed time.
///
/// Arming again replaces the deadline; a handler taken by the loop just
/// before the timer was armed again or disarmed does not run. Arm and disarm
/// on the owner; the timer is disarmed when it goes.
final class LoopTimer: Sendable {
    enum Clock: CaseIterable, Sendable {
        case wall, monotonic

        var id: clockid_t { self == .wall ? CLOCK_REALTIME : CLOCK_MONOTONIC }

        /// Nanoseconds since this clock's epoch.
        func now() -> Int64 {
            var spec = timespec()
            clock_gettime(id, &spec)
            return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
        }
    }

    let clock: Clock
    private let loop: EventLoop
    private let handler: QueueBound<() -> Void>
    /// Moved by every arm and disarm: an expiry taken in an older one is stale.
    private let generation = Atomic<UInt64>(0)

    /// A disarmed timer whose `handler` runs on the loop's queue.
    init(_ clock: Clock, loop: EventLoop, handler: @escaping () -> Void) {
        self.clock = clock
        self.loop = loop
        self.handler = QueueBound(handler, queue: loop.queue)
    }

    deinit { loop.disarm(self) }

    /// Expires `nanoseconds` from now on its clock.
    func schedule(after nanoseconds: UInt64) {
        loop.arm(self, at: clock.now() &+ Int64(clamping: nanoseconds))
    }

    /// Expires at `deadline`: at once when it has passed.
    func schedule(at deadline: DispatchTime) {
        let now = DispatchTime.now()
        schedule(after: deadline > now ? deadline.uptimeNanoseconds - now.uptimeNanoseconds : 0)
    }

    /// Expires when the system's wall clock reads `instant` (a `wall` timer).
    func schedule(wall instant: Date) {
        precondition(clock == .wall, "a monotonic timer cannot follow the wall clock")
        let nanoseconds = (instant.timeIntervalSince1970 * 1_000_000_000).rounded(.up)
        loop.arm(self, at: nanoseconds >= Double(Int64.max) ? .max : Int64(max(nanoseconds, 0)))
    }

    func disarm() {
        loop.disarm(self)
    }

    /// The next generation, for an arm or disarm.
    func nextGeneration() -> UInt64 {
        generation.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// On the loop's queue: the expiry the loop took in `generation`.
    func expired(generation taken: UInt64) {
        guard generation.load(ordering: .relaxed) == taken else { return }
        handler.value()
    }
}

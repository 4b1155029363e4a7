// SPDX-License-Identifier: Apache-2.0
import Dispatch
import FoundationEssentials
import CLinux
import Glibc
import Synchronization
import SystemCalls

/// The owner's one event mechanism: a thread that waits in epoll for every
/// descriptor the owner watches — the control socket and its connections,
/// signals, the clock and the zone, the wake timer, the sync process — and
/// for the owner's timers (``LoopTimer``), and runs each handler on the
/// owner's queue with `sync`.
///
/// The queue is idle almost always, so `sync` runs the handler right here: an
/// event costs one thread wake-up. A Dispatch source costs two (its epoll
/// manager thread wakes, then wakes a worker for the queue), which was most
/// of a `Status` round trip on this kind of machine, and a firing's first
/// tenth of a millisecond.
///
/// Descriptors are level-triggered: a handler reads until the socket would
/// block. ``remove(_:)`` must come before the descriptor is closed; a handler
/// already picked up by the loop may still run once afterwards, so handlers
/// check that what they serve is still open (``LoopSource`` does).
///
/// Messages to the owner from another thread (the durable writer's "these
/// commits are done") come through here too (``post(_:)``): the loop's
/// thread is the one that reads the next requests, so answering and reading
/// run on one thread, where a `queue.async` woke a Dispatch worker for each
/// commit while this thread waited in `sync` behind it.
final class EventLoop: Sendable {
    /// What one descriptor is watched for; each handler is the queue's (the
    /// loop's thread only carries it there and runs it inside `queue.sync`).
    private struct Watch {
        var readable: QueueBound<() -> Void>?
        var writable: QueueBound<() -> Void>?

        var events: UInt32 {
            (readable == nil ? 0 : EPOLLIN.rawValue) | (writable == nil ? 0 : EPOLLOUT.rawValue)
        }
    }

    /// What ``post(_:)``, the watchers and the loop's thread share.
    private struct State {
        var watches: [Int32: Watch] = [:]
        /// Bodies to run on the queue, oldest first.
        var posted: [@Sendable () -> Void] = []
        var stopping = false
        var timers = TimerTable()
    }

    private let epoll: FileDescriptor
    /// Written to by ``post(_:)`` and by ``stop()``.
    private let wakeRead: FileDescriptor
    private let wakeWrite: FileDescriptor
    /// One absolute `timerfd` per clock, armed for its earliest timer.
    private let clockFDs: [LoopTimer.Clock: FileDescriptor]
    let queue: DispatchQueue
    private let state = Mutex(State())
    private let idle: Idle?

    /// What the loop does once it has waited `after` with nothing to serve:
    /// `action` runs on the loop's thread, away from the queue, once per such
    /// quiet spell, unless a timer is due within the second (it would wait
    /// behind the action; the spell starts again after it). It costs one
    /// wake-up after each busy spell, none while the process stays idle.
    struct Idle: Sendable {
        let after: Duration
        let action: @Sendable () -> Void
    }

    /// With `ownThread`, the loop runs on a thread it starts; without, on
    /// the thread that calls ``runHere()`` (the daemon's main thread, which
    /// would otherwise sit parked in `dispatchMain`).
    init(queue: DispatchQueue, ownThread: Bool = true, idle: Idle? = nil) throws(SystemError) {
        self.queue = queue
        self.idle = idle
        epoll = FileDescriptor(try systemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
        let ends = try StreamSocket.pair()
        wakeRead = FileDescriptor(ends.0)
        wakeWrite = FileDescriptor(ends.1)
        var clocks: [LoopTimer.Clock: FileDescriptor] = [:]
        for clock in LoopTimer.Clock.allCases {
            clocks[clock] = FileDescriptor(try systemCall("timerfd_create") { timerfd_create(clock.id, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) })
        }
        clockFDs = clocks
        try control(EPOLL_CTL_ADD, wakeRead.rawValue, events: EPOLLIN.rawValue)
        for fd in clocks.values { try control(EPOLL_CTL_ADD, fd.rawValue, events: EPOLLIN.rawValue) }
        if ownThread { SystemThread.start(name: "alarmd.events") { [self] in run() } }
    }

    /// Serves the loop on the calling thread until ``stop()``; for a loop
    /// made without a thread of its own.
    func runHere() { run() }

    // MARK: - Descriptors

    /// Runs `handler` on the queue whenever `fd` is readable.
    func add(_ fd: Int32, handler: @escaping () -> Void) throws(SystemError) {
        try change(fd) { $0.readable = QueueBound(handler, queue: queue) }
    }

    /// Runs `handler` on the queue whenever `fd` is writable, until
    /// ``stopWritable(_:)``; what is watched for reading stays so.
    func addWritable(_ fd: Int32, handler: @escaping () -> Void) throws(SystemError) {
        try change(fd) { $0.writable = QueueBound(handler, queue: queue) }
    }

    /// Stops watching `fd` for room to write.
    func stopWritable(_ fd: Int32) {
        try? change(fd) { $0.writable = nil }
    }

    /// Stops watching `fd` for reading only.
    func stopReadable(_ fd: Int32) {
        try? change(fd) { $0.readable = nil }
    }

    /// Stops watching `fd` at all; call before closing it.
    func remove(_ fd: Int32) {
        state.withLock { state in
            guard state.watches.removeValue(forKey: fd) != nil else { return }
            _ = epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd, nil)
        }
    }

    /// Applies `body` to what `fd` is watched for and tells epoll, under the
    /// lock, so that two changes cannot reach the kernel in the other order.
    private func change(_ fd: Int32, _ body: (inout Watch) -> Void) throws(SystemError) {
        try state.withLock { (state: inout State) throws(SystemError) in
            let before = state.watches[fd]
            var watch = before ?? Watch()
            body(&watch)
            let operation: Int32
            switch (before?.events ?? 0, watch.events) {
            case (let old, let new) where old == new:
                state.watches[fd] = watch.events == 0 ? nil : watch
                return
            case (0, _): operation = EPOLL_CTL_ADD
            case (_, 0): operation = EPOLL_CTL_DEL
            default: operation = EPOLL_CTL_MOD
            }
            try control(operation, fd, events: watch.events)
            state.watches[fd] = watch.events == 0 ? nil : watch
        }
    }

    private func control(_ operation: Int32, _ fd: Int32, events: UInt32) throws(SystemError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        _ = try systemCall("epoll_ctl \(operation) \(fd)") { epoll_ctl(epoll.rawValue, operation, fd, &event) }
    }

    // MARK: - Timers

    /// Arms `timer` to expire at `deadline` on its clock (nanoseconds since
    /// that clock's epoch); a later call replaces the deadline.
    func arm(_ timer: LoopTimer, at deadline: Int64) {
        state.withLock { state in
            state.timers.arm(timer, at: deadline)
            setClock(timer.clock, from: state.timers)
        }
    }

    func disarm(_ timer: LoopTimer) {
        state.withLock { state in
            guard state.timers.disarm(timer) else { return }
            setClock(timer.clock, from: state.timers)
        }
    }

    /// Sets the clock's `timerfd` to its earliest deadline, or disarms it.
    private func setClock(_ clock: LoopTimer.Clock, from timers: TimerTable) {
        var spec = itimerspec()
        if let earliest = timers.earliest(on: clock) {
            // Zero would disarm: a deadline at or before the epoch is "now".
            let at = max(earliest, 1)
            spec.it_value = timespec(tv_sec: Int(at / 1_000_000_000), tv_nsec: Int(at % 1_000_000_000))
        }
        // Fails only for a bad descriptor or value, neither of which can be here.
        _ = timerfd_settime(clockFDs[clock]!.rawValue, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Runs every timer that is due, on the queue, earliest clock first.
    /// Called before each event and each message, so that a firing waits
    /// for at most one handler, never for a whole round of them.
    private func runDueTimers() {
        for clock in LoopTimer.Clock.allCases {
            let now = clock.now()
            let due: [(LoopTimer, UInt64)] = state.withLock { state in
                guard let earliest = state.timers.earliest(on: clock), earliest <= now else { return [] }
                let due = state.timers.takeDue(on: clock, now: now)
                setClock(clock, from: state.timers)
                return due
            }
            // The descriptor's expiry is read where epoll reports it, and the
            // timers looked at again then: read here, it could take the
            // expiry of a deadline set just now that has passed already.
            for (timer, generation) in due { queue.sync { timer.expired(generation: generation) } }
        }
    }

    /// Whether a timer is armed for `nanoseconds` from now or sooner.
    private func timerDue(within nanoseconds: Int64) -> Bool {
        state.withLock { state in
            LoopTimer.Clock.allCases.contains { clock in
                state.timers.earliest(on: clock).map { $0 - clock.now() <= nanoseconds } ?? false
            }
        }
    }

    // MARK: - Messages

    /// Runs `body` on the queue, from the loop's thread; after ``stop()``
    /// with `queue.async`. Bodies run in the order they were posted.
    func post(_ body: @escaping @Sendable () -> Void) {
        // One byte while the loop has not taken what waits: the pipe never fills.
        let wake: Bool? = state.withLock { state in
            if state.stopping { return nil }
            let wake = state.posted.isEmpty
            state.posted.append(body)
            return wake
        }
        switch wake {
        case nil: queue.async(execute: body)
        case true?: poke()
        case false?: break
        }
    }

    /// Ends the loop's thread; what was posted and not run yet runs with
    /// `queue.async`. Watched descriptors and timers are not served after.
    func stop() {
        let left = state.withLock { state in
            state.stopping = true
            defer { state.posted = [] }
            return state.posted
        }
        for body in left { queue.async(execute: body) }
        poke()
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = send(wakeWrite.rawValue, &byte, 1, Int32(MSG_NOSIGNAL))
    }

    /// Empties the wake socket, then runs what was posted; `false` once stopped.
    /// Emptied first: a byte sent after that stays for the next round, and
    /// every body posted before the take runs in this one, so none waits
    /// without a byte to wake the loop.
    private func runPosted() -> Bool {
        var bytes = [UInt8](repeating: 0, count: 64)
        while recv(wakeRead.rawValue, &bytes, bytes.count, Int32(MSG_DONTWAIT)) > 0 {}
        let (stopped, bodies) = state.withLock { state in
            defer { state.posted = [] }
            return (state.stopping, state.posted)
        }
        if stopped { return false }
        for body in bodies {
            runDueTimers()
            queue.sync(execute: body)
        }
        return true
    }

    // MARK: - The loop

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        let readableMask = EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
        let writableMask = EPOLLOUT.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
        let quiet = idle.map { Int32(clamping: $0.after.components.seconds * 1000 + $0.after.components.attoseconds / 1_000_000_000_000_000) }
        // Whether the loop has served something since the last quiet spell.
        var busy = true
        while true {
            let timeout = busy ? (quiet ?? -1) : -1
            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll.rawValue, $0.baseAddress, Int32($0.count), timeout) }
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            if count == 0 {
                // A timer due within the second would wait behind the idle
                // action: the quiet spell starts again after it.
                if timerDue(within: 1_000_000_000) { continue }
                busy = false
                idle?.action()
                continue
            }
            busy = true
            for event in events.prefix(Int(count)) {
                runDueTimers()
                let fd = event.data.fd
                if fd == wakeRead.rawValue {
                    guard runPosted() else { return }
                    continue
                }
                if clockFDs.values.contains(where: { $0.rawValue == fd }) {
                    // Taken, so that epoll stops reporting it, then served by time.
                    var expirations: UInt64 = 0
                    _ = read(fd, &expirations, 8)
                    runDueTimers()
                    continue
                }
                guard let watch = state.withLock({ $0.watches[fd] }) else { continue }
                if event.events & readableMask != 0, let readable = watch.readable { queue.sync { readable.value() } }
                if event.events & writableMask != 0, let writable = watch.writable { queue.sync { writable.value() } }
            }
        }
    }
}

/// The armed ``LoopTimer``s, by clock; a handful at most, so a list.
private struct TimerTable {
    private struct Entry {
        weak var timer: LoopTimer?
        let id: ObjectIdentifier
        let clock: LoopTimer.Clock
        var deadline: Int64
        var generation: UInt64
    }

    private var entries: [Entry] = []

    mutating func arm(_ timer: LoopTimer, at deadline: Int64) {
        let id = ObjectIdentifier(timer), generation = timer.nextGeneration()
        if let index = entries.firstIndex(where: { $0.id == id }) {
            entries[index].deadline = deadline
            entries[index].generation = generation
        } else {
            entries.append(Entry(timer: timer, id: id, clock: timer.clock, deadline: deadline, generation: generation))
        }
    }

    /// Whether `timer` was armed.
    mutating func disarm(_ timer: LoopTimer) -> Bool {
        _ = timer.nextGeneration()
        let id = ObjectIdentifier(timer)
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
        entries.remove(at: index)
        return true
    }

    /// Looked at in place: a copy of an entry copies its weak reference,
    /// which takes a lock, and this runs before every event.
    func earliest(on clock: LoopTimer.Clock) -> Int64? {
        var earliest: Int64?
        for index in entries.indices where entries[index].clock == clock && entries[index].deadline < earliest ?? .max {
            if entries[index].timer != nil { earliest = entries[index].deadline }
        }
        return earliest
    }

    /// The timers due at `now`, each with the generation it was armed in.
    mutating func takeDue(on clock: LoopTimer.Clock, now: Int64) -> [(LoopTimer, UInt64)] {
        var due: [(LoopTimer, UInt64)] = []
        entries.removeAll { entry in
            guard entry.clock == clock else { return false }
            guard let timer = entry.timer else { return true }
            guard entry.deadline <= now else { return false }
            due.append((timer, entry.generation))
            return true
        }
        return due
    }
}

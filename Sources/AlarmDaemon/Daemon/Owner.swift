// SPDX-License-Identifier: Apache-2.0
import Dispatch
import SystemCalls

/// The daemon's one serial queue. Everything the daemon keeps — items and
/// their ring states, the plan and its timer, connections and their calls,
/// the configuration in force — is touched only there, and every event
/// (the wall timer, signals, clock and zone watchers, the control socket,
/// the watchdog, the sync process) reaches it in one hop, from its one
/// event mechanism, the ``EventLoop``.
///
/// Two workers run beside it and talk to it only by messages: the durable
/// writer (``DurableWriter``), and the output worker (``output``), which
/// does what may stall — D-Bus calls, spawning players and hooks, journal
/// writes, asking the service manager for `TZ`.
///
/// Other threads reach the owner by message only: ``post(_:)``. Code on the owner calls code on the
/// owner directly, and what must run there says so with ``assertCurrent()``.
/// The one exception is a blocking read or a shutdown from outside (a test,
/// `main`), which uses ``sync(_:)``: inline when already on the owner, where
/// a plain `queue.sync` would deadlock.
public final class Owner: Sendable {
    public let queue: DispatchQueue
    /// The output worker's serial queue.
    public let output: DispatchQueue
    /// Every descriptor and timer of the owner's, and the messages posted to
    /// it, in one thread that runs their handlers on ``queue``.
    let loop: EventLoop
    private static let key = DispatchSpecificKey<ObjectIdentifier>()

    /// Fails only when the process cannot have an epoll instance, a socket
    /// pair or a timer (out of descriptors or memory). With
    /// `eventsOnCallingThread`, the event loop waits for ``serveEvents()``
    /// to run it on the caller's thread instead of starting one; `idle` is
    /// what the loop does after a quiet spell (``EventLoop/Idle``).
    init(label: String = "alarmd.owner", eventsOnCallingThread: Bool = false, idle: EventLoop.Idle? = nil) throws(SystemError) {
        queue = DispatchQueue(label: label, qos: .userInteractive)
        output = DispatchQueue(label: label + ".output", qos: .userInitiated)
        queue.setSpecific(key: Self.key, value: ObjectIdentifier(queue))
        loop = try EventLoop(queue: queue, ownThread: !eventsOnCallingThread, idle: idle)
    }

    /// Runs the event loop on the calling thread until ``stopEvents()``.
    func serveEvents() { loop.runHere() }

    deinit { loop.stop() }

    /// Whether the caller runs on this owner's queue now.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == ObjectIdentifier(queue) }

    /// Runs `body` on the owner and waits for it: inline when already there.
    public func sync<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        if isCurrent { return try body() }
        let result = queue.sync { () -> Result<T, E> in
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// A message from another thread: `body` runs on the owner, through the
    /// event loop (see ``EventLoop/post(_:)``).
    func post(_ body: @escaping @Sendable () -> Void) {
        loop.post(body)
    }

    /// A timer whose `handler` runs on the owner (see ``LoopTimer``).
    func timer(_ clock: LoopTimer.Clock, handler: @escaping () -> Void) -> LoopTimer {
        LoopTimer(clock, loop: loop, handler: handler)
    }

    /// Ends the event loop: no descriptor or timer is served after this, and
    /// messages go with `queue.async`. The daemon's last step at stop.
    func stopEvents() {
        loop.stop()
    }

    /// Stops the process when called off the owner: the state it is about to
    /// touch has no other guard.
    public func assertCurrent() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

/// The daemon's one serial queue. Everything the daemon keeps — items and
/// their ring states, the plan and its timer, connections and their calls,
/// the configuration in force — is touched only there, and every event
/// source (the wall timer, signals, clock and zone watchers, the control
/// socket, the watchdog) delivers to it in one hop.
///
/// Two workers run beside it and talk to it only by messages: the durable
/// writer (``DurableWriter``), and the output worker (``output``), which
/// does what may stall — D-Bus calls, spawning players and hooks, journal
/// writes, asking the service manager for `TZ`.
///
/// Other threads reach the owner by message only: ``post(_:)`` (or an event
/// source delivering to ``queue``). Code on the owner calls code on the
/// owner directly, and what must run there says so with ``assertCurrent()``.
/// The one exception is a blocking read or a shutdown from outside (a test,
/// `main`), which uses ``sync(_:)``: inline when already on the owner, where
/// a plain `queue.sync` would deadlock.
public final class Owner: Sendable {
    public let queue: DispatchQueue
    /// The output worker's serial queue.
    public let output: DispatchQueue
    private static let key = DispatchSpecificKey<ObjectIdentifier>()
    /// The control socket's event loop, once there is one: messages from the
    /// workers reach the owner through it (``post(_:)``).
    private let loop = Mutex<EventLoop?>(nil)

    public init(label: String = "alarmd.owner") {
        queue = DispatchQueue(label: label, qos: .userInteractive)
        output = DispatchQueue(label: label + ".output", qos: .userInitiated)
        queue.setSpecific(key: Self.key, value: ObjectIdentifier(queue))
    }

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

    /// A message from a worker: `body` runs on the owner, through the event
    /// loop's thread when the control socket has one (see ``EventLoop``),
    /// else with `queue.async`.
    func post(_ body: @escaping @Sendable () -> Void) {
        if let loop = loop.withLock({ $0 }) { loop.post(body) } else { queue.async(execute: body) }
    }

    /// Sends later ``post(_:)`` messages through `loop`.
    func attach(_ loop: EventLoop) {
        self.loop.withLock { $0 = loop }
    }

    /// Stops the process when called off the owner: the state it is about to
    /// touch has no other guard.
    public func assertCurrent() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

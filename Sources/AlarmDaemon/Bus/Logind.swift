// SPDX-License-Identifier: Apache-2.0
import BusWire
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import SystemCalls

/// alarmd and logind (`org.freedesktop.login1` on the system bus):
///
/// - a `delay` inhibitor on `sleep`, held while the machine is awake, so that
///   on `PrepareForSleep(true)` the daemon gets to set the wake-up for the
///   next alarm before the machine goes down; released as soon as it has
///   (logind waits for it up to `InhibitDelayMaxSec=`, 5 s by default), and
///   taken again on `PrepareForSleep(false)`;
/// - a `block` inhibitor on `sleep:idle` while something rings, so an idle
///   timeout neither suspends nor blanks the screen mid-ring (a closed lid
///   still suspends: logind's `LidSwitchIgnoreInhibited=yes`).
///
/// Every call may block, so this lives on the output worker and reports to
/// the owner through `onPrepareForSleep`. Without a system bus or logind it
/// says so once and leaves the inhibitors out. Sendable so that the owner
/// can hand it work; every entry point checks it runs on the worker.
final class Logind: Sendable {
    static let destination = "org.freedesktop.login1"
    static let path = "/org/freedesktop/login1"
    static let manager = "org.freedesktop.login1.Manager"

    private struct State {
        var connection: BusConnection?
        var delayLock: FileDescriptor?
        var blockLock: FileDescriptor?
        var blockReason: String?
        /// Why logind cannot be used, once said.
        var reportedUnavailable = false
        /// After a failed connection, no new attempt before this: a ringing
        /// change or a `Status` on a machine without a system bus must not
        /// each pay for one.
        var retryAfter: ContinuousClock.Instant?
    }

    private let queue: DispatchQueue
    private let journal: Journal
    private let state: QueueBound<State>
    /// Behind a mutex: the owner sets it from its own thread.
    private let prepareForSleep = Mutex<(@Sendable (Bool) -> Void)?>(nil)
    static let retryInterval: Duration = .seconds(5)

    init(queue: DispatchQueue, journal: Journal) {
        self.queue = queue
        self.journal = journal
        state = QueueBound(State(), queue: queue)
    }

    /// Called on the output worker with `PrepareForSleep`'s argument: `true`
    /// before suspend, `false` after resume.
    var onPrepareForSleep: (@Sendable (Bool) -> Void)? {
        get { prepareForSleep.withLock { $0 } }
        set { prepareForSleep.withLock { $0 = newValue } }
    }

    /// Connects, listens for `PrepareForSleep` and takes the delay lock.
    func start() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let connection = connected() else { return }
        do throws(SystemError) {
            try connection.onSignal(sender: Self.destination, path: Self.path, interface: Self.manager, member: "PrepareForSleep") { [weak self] message in
                guard let sleeping = try? message.readBool() else { return }
                self?.onPrepareForSleep?(sleeping)
            }
        } catch {
            unavailable("cannot listen for PrepareForSleep (\(error))")
        }
        takeDelayLock()
    }

    /// Takes the `delay` lock on `sleep` if it is not held.
    func takeDelayLock() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state.delayLock == nil else { return }
        let lock = inhibit(what: "sleep", why: "Setting the wake-up for the next alarm", mode: "delay")
        state.delayLock = lock
    }

    /// Lets the suspend go ahead.
    func releaseDelayLock() {
        dispatchPrecondition(condition: .onQueue(queue))
        state.delayLock = nil
    }

    /// Holds a `block` lock on `sleep:idle` while `ringing` names what rings;
    /// `nil` releases it.
    func setRinging(_ ringing: String?) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let ringing else {
            state.blockLock = nil
            state.blockReason = nil
            return
        }
        let why = "Alarm ringing: \(ringing)"
        guard why != state.blockReason || state.blockLock == nil else { return }
        // The new lock is taken before the old one goes, so there is no gap.
        let lock = inhibit(what: "sleep:idle", why: why, mode: "block")
        state.blockLock = lock
        state.blockReason = lock == nil ? nil : why
    }

    /// Whether the user's service manager outlives their sessions (the
    /// `Linger` property of their logind `User`); `nil` when logind cannot
    /// say. Asked without complaint: no logind is reported elsewhere.
    func linger(uid: uid_t = getuid()) -> Bool? {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let connection = connected() else { return nil }
        do throws(SystemError) {
            let user = try connection.call(destination: Self.destination, path: Self.path, interface: Self.manager, member: "GetUser", timeout: 2) { message throws(SystemError) in
                try message.append(UInt32(uid))
            }.readString(type: "o")
            return try connection.call(destination: Self.destination, path: user, interface: "org.freedesktop.DBus.Properties", member: "Get", timeout: 2) { message throws(SystemError) in
                try message.append("org.freedesktop.login1.User")
                try message.append("Linger")
            }.readBool(inVariant: true)
        } catch {
            return nil
        }
    }

    /// Suspends again if logind's `CanSuspend` says `yes`; what happened,
    /// for the journal.
    func suspendIfAllowed() -> String {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let connection = connected() else { return "not suspending again: no system bus" }
        do throws(SystemError) {
            let can = try connection.call(destination: Self.destination, path: Self.path, interface: Self.manager, member: "CanSuspend", timeout: 2) { _ throws(SystemError) in }
                .readString()
            guard can == "yes" else { return "not suspending again: logind's CanSuspend says \(can)" }
            // The delay lock is ours: let go of it first, or logind waits for it.
            state.delayLock = nil
            _ = try connection.call(destination: Self.destination, path: Self.path, interface: Self.manager, member: "Suspend", timeout: 5) { message throws(SystemError) in
                try message.append(false) // not interactive
            }
            return "suspending again"
        } catch {
            return "not suspending again: \(error)"
        }
    }

    private func inhibit(what: String, why: String, mode: String) -> FileDescriptor? {
        guard let connection = connected() else { return nil }
        do throws(SystemError) {
            let reply = try connection.call(destination: Self.destination, path: Self.path, interface: Self.manager, member: "Inhibit", timeout: 2) { message throws(SystemError) in
                try message.append(what)
                try message.append("alarmd")
                try message.append(why)
                try message.append(mode)
            }
            return try reply.readFileDescriptor()
        } catch {
            unavailable("logind refused a \(mode) inhibitor for \(what) (\(error))")
            return nil
        }
    }

    private func connected() -> BusConnection? {
        if let connection = state.connection, connection.isConnected { return connection }
        if let retryAfter = state.retryAfter, ContinuousClock.now < retryAfter { return nil }
        let fresh = BusConnection(queue: queue)
        do throws(SystemError) {
            try fresh.connect(system: true)
        } catch {
            state.retryAfter = .now + Self.retryInterval
            unavailable("no system bus (\(error))")
            return nil
        }
        fresh.onDisconnect = { [weak self] in
            self?.state.connection = nil
            self?.state.delayLock = nil
            self?.state.blockLock = nil
        }
        state.connection = fresh
        return fresh
    }

    private func unavailable(_ reason: String) {
        guard !state.reportedUnavailable else { return }
        state.reportedUnavailable = true
        journal.send("No logind inhibitors: \(reason); alarmd goes on without them (a suspend does not wait for the wake-up to be set, an idle timeout may suspend while an alarm rings)",
                     priority: .warning)
    }

    /// Drops both locks and the connection (the daemon is stopping).
    func stop() {
        dispatchPrecondition(condition: .onQueue(queue))
        state.delayLock = nil
        state.blockLock = nil
        state.connection?.close()
        state.connection = nil
    }
}

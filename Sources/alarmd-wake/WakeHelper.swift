// SPDX-License-Identifier: Apache-2.0
import AlarmWake
import CLinux
import Dispatch
import Glibc
import SystemCalls
import VarlinkCore

/// `alarmd-wake`: the system helper that wakes the machine for users whose
/// alarmd cannot (no `CAP_WAKE_ALARM`, and a user manager older than systemd
/// 254). Socket-activated by `alarmd-wake.socket`; serves `io.alarmd.Wake`.
///
/// Everything runs on one serial queue: the listening socket, each
/// connection's reads, writes and deadline, the `CLOCK_REALTIME_ALARM` timer
/// and the signals all deliver there, and ``WakeService`` decides each
/// message. The caller is who `SO_PEERCRED` says, never what a message
/// claims. It exits when no user has a wake-up set for `--idle-exit` seconds
/// (systemd starts it again at the next connection); its state is nothing but
/// the slots, which each alarmd sets again when its connection closes under it.
///
/// A connection must send a whole message within `--connection-timeout`
/// seconds of being accepted and of its last one, or it is closed: one user
/// cannot hold connections for nothing while others need them. The one
/// exception is the connection through which a user's wake-up was set, for as
/// long as it is set: alarmd keeps that one open, to learn of a restart.
/// `@unchecked Sendable`: every member is used on ``queue`` only (checked
/// with `dispatchPrecondition` where it is entered), and Dispatch's closures
/// that reach it run there.
final class WakeHelper: @unchecked Sendable {
    static let usage = """
        Usage: alarmd-wake [--idle-exit SECONDS] [--connection-timeout SECONDS] [--version] [--help]

        Wakes the machine from suspend for alarmd, for users whose alarmd cannot set
        a wake-up itself. Started by systemd through alarmd-wake.socket (or
        systemd-socket-activate), which passes the listening socket; serves the
        Varlink interface io.alarmd.Wake on it. Needs CAP_WAKE_ALARM.

        Options:
          --idle-exit SECONDS  exit once no user has a wake-up set for this long
                               (default 10)
          --connection-timeout SECONDS
                               close a connection that sends no whole message for
                               this long, unless its user's wake-up was set through
                               it and is still set (default 10)
          --version            print the version and exit
          --help               print this help and exit

        """

    /// Connections one user may hold at once, and all users together: alarmd
    /// needs one; the limits keep a user from using up the helper's descriptors.
    static let maxConnectionsPerUser = 8
    static let maxConnections = 256
    /// Replies waiting for a peer that does not read, before it is cut off.
    static let maxPendingOutput = 64 * 1024

    private let queue = DispatchQueue(label: "alarmd-wake")
    private let listener: Int32
    private let journal = Journal(identifier: "alarmd-wake")
    private let idleExit: Double
    /// In nanoseconds.
    private let connectionTimeout: UInt64
    private var acceptSource: DispatchSourceRead?
    private var connections: [Int32: WakeHelperConnection] = [:]
    /// For each user with a wake-up set, the connection it was set through.
    private var holders: [UInt32: Int32] = [:]
    /// Armed for the earliest deadline of the connections.
    private var deadlineTimer: DispatchSourceTimer?
    private var service = WakeService()
    /// Open only while some user has a wake-up set (see ``AlarmTimer``).
    private var timer: AlarmTimer?
    /// Bumped whenever the slots change, so an idle-exit check queued before
    /// the change does nothing.
    private var generation = 0
    private var signals: SignalPipe?

    private init(listener: Int32, idleExit: Double, connectionTimeout: Double) {
        self.listener = listener
        self.idleExit = idleExit
        self.connectionTimeout = UInt64(connectionTimeout * 1e9)
    }

    /// Runs the helper; returns only on a usage error or when it cannot work.
    static func main(arguments: [String]) -> Int32 {
        var idleExit = 10.0
        var connectionTimeout = 10.0
        var rest = arguments[...]
        func seconds(_ option: String, in range: ClosedRange<Double>) -> Double? {
            guard let text = rest.popFirst(), let value = Double(text), range.contains(value) else { return nil }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h":
                print(usage, terminator: "")
                return 0
            case "--version":
                print("alarmd-wake \(WakeInterface.version)")
                return 0
            case "--idle-exit":
                guard let value = seconds(argument, in: 0...86_400) else {
                    return usageError("--idle-exit needs a number of seconds from 0 to 86400")
                }
                idleExit = value
            case "--connection-timeout":
                guard let value = seconds(argument, in: 0.1...3600) else {
                    return usageError("--connection-timeout needs a number of seconds from 0.1 to 3600")
                }
                connectionTimeout = value
            default:
                return usageError("unknown argument \(argument)")
            }
        }
        let journal = Journal(identifier: "alarmd-wake")
        guard let listener = StreamSocket.inherited() else {
            return usageError("no listening socket was passed; start it through alarmd-wake.socket, or as systemd-socket-activate -l PATH alarmd-wake")
        }
        if let error = AlarmClock.probe() {
            let reason = error.code == EPERM ? "it lacks CAP_WAKE_ALARM" : "\(error)"
            journal.send("Cannot set wake-up timers: \(reason)", priority: .error)
            complain("cannot set wake-up timers: \(reason)")
            return 1
        }
        signal(SIGPIPE, SIG_IGN)
        let helper = WakeHelper(listener: listener, idleExit: idleExit, connectionTimeout: connectionTimeout)
        if let error = helper.queue.sync(execute: helper.start) {
            complain("\(error)")
            return 1
        }
        dispatchMain()
    }

    private static func usageError(_ message: String) -> Int32 {
        complain(message)
        return 64
    }

    /// Watches the signals and the socket; `nil`, or why it cannot.
    private func start() -> SystemError? {
        do throws(SystemError) {
            signals = try SignalPipe([SIGTERM, SIGINT], queue: queue) { [journal] _ in
                journal.send("Stopping; the wake-ups set are cleared until each alarmd sets its own again", priority: .info)
                exit(0)
            }
        } catch {
            return error
        }
        StreamSocket.setNonBlocking(listener)
        let source = DispatchSource.makeReadSource(fileDescriptor: listener, queue: queue)
        source.setEventHandler { [self] in acceptWaiting() }
        source.resume()
        acceptSource = source
        let deadlines = DispatchSource.makeTimerSource(queue: queue)
        deadlines.setEventHandler { [self] in closeOverdue() }
        deadlines.schedule(deadline: .distantFuture)
        deadlines.resume()
        deadlineTimer = deadlines
        scheduleIdleExit()
        return nil
    }

    private func acceptWaiting() {
        dispatchPrecondition(condition: .onQueue(queue))
        while let fd = StreamSocket.accept(listener) {
            guard let uid = StreamSocket.peerCredentials(fd)?.uid else {
                close(fd)
                continue
            }
            let fromUser = connections.values.count(where: { $0.uid == uid })
            guard connections.count < Self.maxConnections, fromUser < Self.maxConnectionsPerUser else {
                HelperSocket.refuse(fd, with: .invalidParameter(parameter: "connection",
                                                                 message: "too many connections (at most \(Self.maxConnectionsPerUser) per user, \(Self.maxConnections) in all)"))
                continue
            }
            let connection = WakeHelperConnection(fd: fd, uid: uid, queue: queue, helper: self)
            connection.deadline = Clock.tick() + connectionTimeout
            connections[fd] = connection
            connection.start()
        }
        armDeadline()
    }

    /// The reply to a message `connection` read.
    func handle(_ message: [UInt8], from connection: WakeHelperConnection) -> VarlinkReply? {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = Clock.now(), tick = Clock.tick()
        expirePassed(now: now)
        let uid = connection.uid
        let before = service.slots.slot(of: uid)
        let reply = service.handle(message, uid: uid, now: now, tick: tick)
        let after = service.slots.slot(of: uid)
        if before != after {
            journal.send(after.map { "uid \(uid) set its wake-up to \($0.rfc3339)" } ?? "uid \(uid) cleared its wake-up",
                         priority: .debug, fields: [("ALARMD_UID", String(uid)), ("ALARMD_WAKE_AT", after?.rfc3339 ?? "")])
            releaseHolder(of: uid, tick: tick)
            if after != nil { holders[uid] = connection.fd }
            slotsChanged()
        }
        connection.deadline = holders[uid] == connection.fd ? nil : tick + connectionTimeout
        armDeadline()
        return reply
    }

    func closed(_ connection: WakeHelperConnection) {
        dispatchPrecondition(condition: .onQueue(queue))
        connections[connection.fd] = nil
        // The slot stays: alarmd sets it again if it wants another.
        if holders[connection.uid] == connection.fd { holders[connection.uid] = nil }
        armDeadline()
    }

    /// `uid`'s wake-up stops being held through the connection that set it:
    /// that connection's deadline runs from `tick`.
    private func releaseHolder(of uid: UInt32, tick: UInt64) {
        guard let fd = holders.removeValue(forKey: uid) else { return }
        connections[fd]?.deadline = tick + connectionTimeout
    }

    /// Closes the connections whose deadline has passed, and arms the timer for the next.
    private func closeOverdue() {
        let tick = Clock.tick()
        let overdue = connections.values.filter { $0.deadline.map { $0 <= tick } ?? false }
        for connection in overdue { connection.finish() }
        armDeadline()
    }

    private func armDeadline() {
        let earliest = connections.values.compactMap(\.deadline).min()
        deadlineTimer?.schedule(deadline: earliest.map { DispatchTime(uptimeNanoseconds: $0) } ?? .distantFuture, leeway: .milliseconds(50))
    }

    /// Clears the slots whose instant has passed (the timer went off, or the
    /// clock was set past them).
    private func expirePassed(now: WakeInstant) {
        guard let earliest = service.slots.earliest, earliest <= now else { return }
        let tick = Clock.tick()
        for uid in service.expire(now: now) {
            journal.send("The wake-up of uid \(uid) has passed", priority: .debug, fields: [("ALARMD_UID", String(uid))])
            releaseHolder(of: uid, tick: tick)
        }
        armDeadline()
        slotsChanged()
    }

    /// Arms the one timer for the earliest slot, or closes it (and starts the
    /// idle countdown) when there is none.
    private func slotsChanged() {
        generation += 1
        guard let earliest = service.slots.earliest else {
            timer = nil
            scheduleIdleExit()
            return
        }
        guard timer?.armed != earliest else { return }
        do throws(SystemError) {
            if timer == nil {
                timer = try AlarmTimer(queue: queue) { [weak self] in self?.expirePassed(now: Clock.now()) }
            }
            try timer?.arm(earliest)
        } catch {
            // Probed at start, so this is unexpected: said, and tried again at the next change.
            timer = nil
            journal.send("Cannot arm the wake-up timer for \(earliest.rfc3339): \(error)", priority: .error)
        }
    }

    private func scheduleIdleExit() {
        let expected = generation
        queue.asyncAfter(deadline: .now() + idleExit) { [self] in
            guard generation == expected, service.slots.isEmpty else { return }
            journal.send("No wake-up is set; exiting until the next request", priority: .debug)
            exit(0)
        }
    }
}

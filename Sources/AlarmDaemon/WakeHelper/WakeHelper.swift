import AlarmCore
import AlarmProtocol
import Dispatch
import Foundation
import Glibc

/// `alarmd-wake`: the system helper that wakes the machine for users whose
/// alarmd cannot (no `CAP_WAKE_ALARM`, and a user manager older than systemd
/// 254). Socket-activated by `alarmd-wake.socket`; serves `io.alarmd.Wake`.
///
/// Everything runs on one serial queue: the listening socket, each
/// connection's reads and writes, the `CLOCK_REALTIME_ALARM` timer and the
/// signals all deliver there, and ``WakeService`` decides each message. The
/// caller is who `SO_PEERCRED` says, never what a message claims. It exits
/// when no user has a wake-up set for ``idleExit`` seconds (systemd starts it
/// again at the next connection); its state is nothing but the slots, which
/// each alarmd sets again when its connection closes under it.
public final class WakeHelper: @unchecked Sendable {
    public static let usage = """
        Usage: alarmd-wake [--idle-exit SECONDS] [--version] [--help]

        Wakes the machine from suspend for alarmd, for users whose alarmd cannot set
        a wake-up itself. Started by systemd through alarmd-wake.socket (or
        systemd-socket-activate), which passes the listening socket; serves the
        Varlink interface io.alarmd.Wake on it. Needs CAP_WAKE_ALARM.

        Options:
          --idle-exit SECONDS  exit once no user has a wake-up set for this long
                               (default 10)
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
    private let journal: Journal
    private let idleExit: TimeInterval
    private var acceptSource: DispatchSourceRead?
    private var connections: [Int32: WakeHelperConnection] = [:]
    private var service = WakeService()
    /// Open only while some user has a wake-up set (see ``WakeTimer``).
    private var timer: WakeTimer?
    /// Bumped whenever the slots change, so an idle-exit check queued before
    /// the change does nothing.
    private var generation = 0
    private var signals: SignalWatcher?

    private init(listener: Int32, journal: Journal, idleExit: TimeInterval) {
        self.listener = listener
        self.journal = journal
        self.idleExit = idleExit
    }

    /// Runs the helper; returns only on a usage error or when it cannot work.
    public static func main(arguments: [String]) -> Int32 {
        var idleExit: TimeInterval = 10
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h":
                print(usage, terminator: "")
                return 0
            case "--version":
                print("alarmd-wake \(AlarmdVersion.string)")
                return 0
            case "--idle-exit":
                guard let text = rest.popFirst(), let seconds = TimeInterval(text), seconds >= 0, seconds <= 86_400 else {
                    return usageError("--idle-exit needs a number of seconds from 0 to 86400")
                }
                idleExit = seconds
            default:
                return usageError("unknown argument \(argument)")
            }
        }
        let journal = Journal(identifier: "alarmd-wake")
        guard let listener = UnixSocket.inherited() else {
            return usageError("no listening socket was passed; start it through alarmd-wake.socket, or as systemd-socket-activate -l PATH alarmd-wake")
        }
        if let error = WakeTimer.probe() {
            let reason = error.code == EPERM ? "it lacks CAP_WAKE_ALARM" : "\(error)"
            journal.send("Cannot set wake-up timers: \(reason)", priority: .error)
            FileHandle.standardError.write(Data("alarmd-wake: cannot set wake-up timers: \(reason)\n".utf8))
            return 1
        }
        signal(SIGPIPE, SIG_IGN)
        let helper = WakeHelper(listener: listener, journal: journal, idleExit: idleExit)
        if let error = helper.queue.sync(execute: helper.start) {
            FileHandle.standardError.write(Data("alarmd-wake: \(error)\n".utf8))
            return 1
        }
        dispatchMain()
    }

    private static func usageError(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("alarmd-wake: \(message)\n".utf8))
        return 64
    }

    /// Watches the signals and the socket; `nil`, or why it cannot.
    private func start() -> SystemError? {
        do throws(SystemError) {
            signals = try SignalWatcher([SIGTERM, SIGINT], queue: queue) { [self] _ in
                journal.send("Stopping; the wake-ups set are cleared until each alarmd sets its own again", priority: .info)
                exit(0)
            }
        } catch {
            return error
        }
        UnixSocket.setNonBlocking(listener)
        let source = DispatchSource.makeReadSource(fileDescriptor: listener, queue: queue)
        source.setEventHandler { [self] in acceptWaiting() }
        source.resume()
        acceptSource = source
        scheduleIdleExit()
        return nil
    }

    private func acceptWaiting() {
        dispatchPrecondition(condition: .onQueue(queue))
        while let fd = UnixSocket.acceptConnection(listener) {
            guard let peer = UnixSocket.peerCredentials(fd) else {
                close(fd)
                continue
            }
            let fromUser = connections.values.count(where: { $0.uid == peer.uid })
            guard connections.count < Self.maxConnections, fromUser < Self.maxConnectionsPerUser else {
                UnixSocket.refuse(fd, with: WakeInterface.invalidParameter("connection", "too many connections (at most \(Self.maxConnectionsPerUser) per user, \(Self.maxConnections) in all)"))
                continue
            }
            let connection = WakeHelperConnection(fd: fd, uid: peer.uid, queue: queue, helper: self)
            connections[fd] = connection
            connection.start()
        }
    }

    /// The reply to a message `connection` read.
    func handle(_ message: [UInt8], from connection: WakeHelperConnection) -> VarlinkReply? {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = Date()
        expirePassed(now: now)
        let before = service.slots.slot(of: connection.uid)
        let reply = service.handle(message, uid: connection.uid, now: now, tick: DispatchTime.now().uptimeNanoseconds)
        let after = service.slots.slot(of: connection.uid)
        if before != after {
            journal.send(after.map { "uid \(connection.uid) set its wake-up to \($0.rfc3339UTC)" } ?? "uid \(connection.uid) cleared its wake-up",
                         priority: .debug, fields: [("ALARMD_UID", String(connection.uid)), ("ALARMD_WAKE_AT", after?.rfc3339UTC ?? "")])
            slotsChanged()
        }
        return reply
    }

    func closed(_ connection: WakeHelperConnection) {
        dispatchPrecondition(condition: .onQueue(queue))
        connections[connection.fd] = nil
    }

    /// Clears the slots whose instant has passed (the timer went off, or the
    /// clock was set past them).
    private func expirePassed(now: Date) {
        guard let earliest = service.slots.earliest, earliest <= now else { return }
        for uid in service.expire(now: now) {
            journal.send("The wake-up of uid \(uid) has passed", priority: .debug, fields: [("ALARMD_UID", String(uid))])
        }
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
                timer = try WakeTimer.open(queue: queue) { [weak self] in self?.expirePassed(now: Date()) }.get()
            }
            try timer?.arm(earliest)
        } catch {
            // Probed at start, so this is unexpected: said, and tried again at the next change.
            timer = nil
            journal.send("Cannot arm the wake-up timer for \(earliest.rfc3339UTC): \(error)", priority: .error)
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

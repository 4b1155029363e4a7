// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import Dispatch
import FoundationEssentials
import Glibc
import SystemCalls

/// Accepts control connections and routes their calls: `org.varlink.service`
/// here, `io.alarmd` to the `ControlService`. Its state (the connections, their
/// buffers and waiting calls) is the owner's, like the scheduler's: a request
/// read from the socket runs as one step there, and a change's reply is sent
/// from there once durable. A slow or hostile client is bounded by ``Limits``.
public final class ControlServer: Sendable {
    /// Bounds that keep one client from hurting the others.
    public struct Limits: Sendable {
        /// Largest incoming message; a longer one gets an error and the connection closes.
        public var maxMessageSize = VarlinkFramer.defaultMaxMessageSize
        /// For an `io.alarmd.Import` call (see ``VarlinkFramer``).
        public var maxImportSize = VarlinkFramer.defaultMaxLargeSize
        /// Connections at once; more are told so and closed.
        public var maxClients = 256
        /// Seconds a connection may stay silent (except a `Watch` subscriber).
        public var idleTimeout: Double = 60
        /// Seconds from the first byte of a request to its last; a request
        /// still unfinished then gets an error and the connection closes.
        public var requestTimeout: Double = 10
        /// Bytes of events a `Watch` subscriber may fall behind before it is dropped.
        public var maxWatchBacklog = 256 * 1024
        /// Bytes of replies a connection may have waiting to be sent before it
        /// takes no more calls and is not read until its client has read it
        /// back under; not back under `requestTimeout` after going over, the
        /// connection closes (see ``ControlConnection``).
        public var maxReplyBacklog = 256 * 1024
        /// Bytes of replies waiting to be sent, all connections together, past
        /// which no list or export of every item starts (see ``ReplyBudget``).
        public var maxQueuedReplies = 64 << 20

        /// Bytes of unfinished requests all connections together may hold
        /// (see ``RequestBudget``): 4 MiB, or four of the longest request when
        /// `maxMessageSize` is raised, so that one always fits.
        public var maxPendingBytes: Int { max(4 << 20, 4 * maxMessageSize) }

        public init() {}
    }

    public let path: String?
    /// The listening socket. The event loop watches it once started, so a
    /// new client's connection and its first call are read by one thread
    /// wake-up (a Dispatch read source took two more: its manager thread,
    /// then a worker for the owner). Closed at stop, after the loop has let go.
    private let listenFD: Int32
    private enum ListenerState {
        /// Not watched yet (before ``start()``).
        case bound
        /// The loop watches it, and the deadline timer.
        case listening
        /// Closed by ``stop()``.
        case closed
    }
    private let owner: Owner
    private var queue: DispatchQueue { owner.queue }
    private let service: ControlService
    private let journal: Journal
    private let limits: Limits
    /// The owner's event loop: connections are read from it, one thread
    /// wake-up a request.
    private var loop: EventLoop { owner.loop }
    /// What the server keeps, the owner's (asserted on every access in
    /// debug builds).
    private struct State {
        /// Where `listenFD` is in its life.
        var listener = ListenerState.bound
        /// Shared by every connection (see ``ReceiveBuffer``).
        let receiveBuffer = ReceiveBuffer()
        /// Shared by every connection.
        let budget: RequestBudget
        let replies: ReplyBudget
        /// Lists and exports of every item being made on a worker, and those
        /// waiting for their turn, oldest first (see ``startBulkReads()``).
        var bulkReadsRunning = 0
        var bulkReadsWaiting: [(connection: WeakConnection, call: VarlinkCall)] = []
        var connections: [ObjectIdentifier: ControlConnection] = [:]
        /// Every connection's deadlines (idle, request) on one timer of the
        /// loop's: armed for the earliest asked for, then each connection is
        /// looked at when it expires. A connection comes and goes without a
        /// wake-up of any other thread (see ``LoopTimer``). Made by ``start()``.
        var deadlines: LoopTimer?
        /// What `deadlines` is armed for.
        var deadlineArmed: DispatchTime?
    }
    private let owned: QueueBound<State>

    /// Listens on the socket systemd passed, else binds `path`.
    public init(path: String, owner: Owner, service: ControlService, journal: Journal, limits: Limits = Limits()) throws(SystemError) {
        self.owner = owner
        let fd: Int32, bound: String?
        if let inherited = StreamSocket.inherited() {
            (fd, bound) = (inherited, nil)
            StreamSocket.setNonBlocking(inherited)
        } else {
            (fd, bound) = (try UnixSocket.listen(at: path), path)
        }
        listenFD = fd
        self.path = bound
        self.service = service
        self.journal = journal
        self.limits = limits
        owned = QueueBound(State(budget: RequestBudget(limit: limits.maxPendingBytes), replies: ReplyBudget(limit: limits.maxQueuedReplies)),
                           queue: owner.queue)
    }

    /// Where clients connect, for messages.
    public var description: String { path ?? "the socket passed by systemd" }

    /// Starts accepting connections.
    public func start() throws(SystemError) {
        try owner.sync { () throws(SystemError) in
            guard owned.listener == .bound else { return }
            owned.replies.onRoom = { [unowned self] in startBulkReads() }
            try loop.add(listenFD) { [weak self] in self?.acceptAll() }
            owned.deadlines = owner.timer(.monotonic) { [weak self] in self?.deadlinesPassed() }
            owned.listener = .listening
        }
    }

    /// Stops accepting and closes every connection; the socket file of a bound
    /// socket is removed (a passed one belongs to systemd).
    public func stop() {
        owner.sync {
            if owned.listener == .listening {
                loop.remove(listenFD)
                owned.deadlines?.disarm()
            }
            if owned.listener != .closed { close(listenFD) }
            owned.listener = .closed
            // Each close takes its connection out of `connections`.
            let open = Array(owned.connections.values)
            for connection in open { connection.close() }
            owned.connections.removeAll()
            owned.bulkReadsWaiting.removeAll()
        }
        if let path { unlink(path) }
    }

    /// Accepts every connection waiting. The loop may run this once more
    /// after ``stop()`` took the listener out, hence the check.
    private func acceptAll() {
        assertOnOwner()
        guard owned.listener == .listening else { return }
        while let fd = StreamSocket.accept(listenFD) { admit(fd) }
    }

    private func armDeadlines(for deadline: DispatchTime) {
        if let armed = owned.deadlineArmed, armed <= deadline { return }
        owned.deadlines?.schedule(at: deadline)
        owned.deadlineArmed = deadline
    }

    /// The earliest deadline asked for has come: each connection whose own
    /// has passed is looked at, and the timer armed for the next one.
    private func deadlinesPassed() {
        assertOnOwner()
        owned.deadlineArmed = nil
        let now = DispatchTime.now()
        for connection in Array(owned.connections.values) {
            if let due = connection.nextDeadline, due <= now { connection.deadlinePassed(now: now) }
        }
        if let next = owned.connections.values.compactMap(\.nextDeadline).min() { armDeadlines(for: next) }
    }

    private func admit(_ fd: Int32) {
        assertOnOwner()
        guard let peer = StreamSocket.peerCredentials(fd), peer.uid == getuid() else {
            let credentials = StreamSocket.peerCredentials(fd)
            let who = credentials.map { "uid \($0.uid), pid \($0.pid)" } ?? "an unknown peer"
            journal.send("Refused a control connection from \(who): only uid \(getuid()) may use alarmd", priority: .warning,
                         messageID: MessageID.peerRefused, fields: [("ALARMD_PEER_UID", credentials.map { String($0.uid) } ?? ""), ("ALARMD_PEER_PID", credentials.map { String($0.pid) } ?? "")])
            UnixSocket.refuse(fd, with: .permissionDenied())
            return
        }
        guard owned.connections.count < limits.maxClients else {
            UnixSocket.refuse(fd, with: .invalidRequest("too many connections (limit \(limits.maxClients)); try again later"))
            return
        }
        let connection = ControlConnection(fd: fd, peer: peer, queue: queue, loop: loop, limits: limits, buffer: owned.receiveBuffer, budget: owned.budget,
                                           replies: owned.replies, wake: { [unowned self] in armDeadlines(for: $0) })
        let key = ObjectIdentifier(connection)
        owned.connections[key] = connection
        connection.onClose = { [unowned self] in
            owned.connections[key] = nil
            // No wake-up for nobody: a quiet daemon stays quiet.
            if owned.connections.isEmpty, owned.deadlineArmed != nil {
                owned.deadlines?.disarm()
                owned.deadlineArmed = nil
            }
        }
        connection.start { [unowned self] connection, message in handle(message, on: connection) }
    }

    private func handle(_ message: [UInt8], on connection: ControlConnection) {
        assertOnOwner()
        let call: VarlinkCall
        do throws(VarlinkError) { call = try VarlinkCall(message: message) } catch {
            connection.finishCall(.error(error))
            return
        }
        switch call.interface {
        case "org.varlink.service":
            connection.finishCall(call.oneway ? nil : Self.serviceInterface.reply(to: call))
        case InterfaceDefinition.name where call.member == "Watch":
            watch(call, on: connection)
            connection.finishCall(nil)
        case InterfaceDefinition.name where Self.bulkReads.contains(call.member):
            owned.bulkReadsWaiting.append((WeakConnection(connection), call))
            startBulkReads()
        case InterfaceDefinition.name:
            // A read answers here and now; a change answers once its commit is
            // durable, when the writer's message reaches the owner.
            let box = WeakConnection(connection)
            let owner = owner
            service.handle(call.member, Parameters(call.parameters)) { result in
                let reply = call.oneway ? nil : Self.reply(result)
                // Every answer comes on the owner: a read at once, a change
                // from the writer's message, a sync round from its supervisor.
                owner.assertCurrent()
                box.connection?.finishCall(reply)
            }
        default:
            connection.finishCall(call.oneway ? nil : .error(.interfaceNotFound(call.interface)))
        }
    }

    /// Lists and exports of every item made at once. Each holds its
    /// snapshot, its JSON and its reply until done, megabytes each, and two
    /// keep both cores busy.
    static let maxBulkReadsAtOnce = 2

    /// Starts the lists and exports waiting, oldest first, as far as
    /// ``maxBulkReadsAtOnce`` and the shared reply budget allow; the rest
    /// start as those finish or the budget has room again. Each can take a
    /// while to build and encode (a tenth of a second for 100,000 alarms), so
    /// it is made on a worker: a `Status` on another connection never waits
    /// behind one.
    private func startBulkReads() {
        assertOnOwner()
        guard owned.listener != .closed else { return }
        while owned.bulkReadsRunning < Self.maxBulkReadsAtOnce, !owned.replies.isOver, !owned.bulkReadsWaiting.isEmpty {
            let (box, call) = owned.bulkReadsWaiting.removeFirst()
            // A client that left meanwhile is owed nothing.
            guard box.connection?.isClosed == false else { continue }
            owned.bulkReadsRunning += 1
            let queue = queue
            let service = service
            let finished: @Sendable () -> Void = { [weak self] in
                guard let self else { return }
                owned.bulkReadsRunning -= 1
                startBulkReads()
            }
            DispatchQueue.global(qos: .userInitiated).async {
                service.handle(call.member, Parameters(call.parameters)) { result in
                    let framed = call.oneway ? nil : VarlinkFramer.frame(Self.reply(result).json)
                    queue.async {
                        box.connection?.finishCall(framed: framed)
                        finished()
                    }
                }
            }
        }
    }

    /// Events a `Watch` subscriber may have waiting for this queue before it is cut off.
    static let maxWatchWaiting = 4096

    /// The calls allowed past `maxMessageSize`, up to `maxImportSize`: an
    /// import carries every item in one document or calendar.
    static let importMethods = [Import.name, ImportCalendar.name].map { InterfaceDefinition.name + "." + $0 }

    /// Methods whose reply holds every item (see ``handle(_:on:)``).
    static let bulkReads: Set<String> = ["ListAlarms", "ListReminders", "Export", "ExportCalendar"]

    static func reply(_ result: Result<JSONObject, VarlinkError>) -> VarlinkReply {
        switch result {
        case .success(let parameters): return .parameters(parameters, continues: false)
        case .failure(let error): return .error(error)
        }
    }

    /// `org.varlink.service`: `GetInfo` and `GetInterfaceDescription`.
    static let serviceInterface = VarlinkServiceInterface(product: "alarmd", version: AlarmdVersion.string, url: "man:alarmd(8)",
                                                          interface: (InterfaceDefinition.name, InterfaceDefinition.text))

    /// `Watch`: one reply per event, `continues: true` on every one, for as long
    /// as the client reads.
    private func watch(_ call: VarlinkCall, on connection: ControlConnection) {
        assertOnOwner()
        guard call.more else {
            if !call.oneway { connection.send(.error(.expectedMore())) }
            return
        }
        connection.startWatching()
        let queue = queue
        let zone = service.zone
        let box = WeakConnection(connection)
        // Called on the owner as the scheduler publishes: post, and once per
        // burst come back to encode them, after the burst's firings are out.
        let mailbox = Mailbox<DaemonEvent>(capacity: Self.maxWatchWaiting)
        let token = service.scheduler.events.subscribe { event in
            guard mailbox.post(event) else { return }
            queue.async {
                let (events, overflowed) = mailbox.drain()
                guard let connection = box.connection else { return }
                guard !overflowed else { return connection.close() }
                let zone = zone()
                for event in events {
                    connection.send(.parameters(ControlService.watchReply(event, zone: zone), continues: true))
                }
            }
        }
        let events = service.scheduler.events
        connection.onClose = { [unowned self, weak connection] in
            events.unsubscribe(token)
            if let connection { owned.connections[ObjectIdentifier(connection)] = nil }
        }
    }
}

/// Lets a reply or event that comes back later reach a connection that may
/// be gone; the connection itself, and this reference to it, only on the owner.
private final class WeakConnection: Sendable {
    private struct Reference {
        weak var connection: ControlConnection?
    }
    private let reference: QueueBound<Reference>
    var connection: ControlConnection? { reference.connection }

    init(_ connection: ControlConnection) {
        reference = QueueBound(Reference(connection: connection), queue: connection.ownerQueue)
    }
}

extension ControlServer {
    /// The server's state is the owner's: every handler asserts it, in debug builds.
    @inline(__always)
    fileprivate func assertOnOwner() {
        #if DEBUG
        owner.assertCurrent()
        #endif
    }
}

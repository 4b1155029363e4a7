import AlarmCore
import AlarmProtocol
import Dispatch
import Foundation
import Glibc

/// Accepts control connections and routes their calls: `org.varlink.service`
/// here, `io.alarmd` to the `ControlService`. Its state (the connections, their
/// buffers and waiting calls) is the owner's, like the scheduler's: a request
/// read from the socket runs as one step there, and a change's reply is sent
/// from there once durable. A slow or hostile client is bounded by ``Limits``.
public final class ControlServer: @unchecked Sendable {
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

        /// Bytes of unfinished requests all connections together may hold
        /// (see ``RequestBudget``): 4 MiB, or four of the longest request when
        /// `maxMessageSize` is raised, so that one always fits.
        public var maxPendingBytes: Int { max(4 << 20, 4 * maxMessageSize) }

        public init() {}
    }

    public let path: String?
    /// The listening socket, watched once started; closed after stop.
    private let listener: OwnedReadSource
    private let owner: Owner
    private var queue: DispatchQueue { owner.queue }
    private let service: ControlService
    private let journal: Journal
    private let limits: Limits
    /// Shared by every connection (see ``ReceiveBuffer``); used on the owner only.
    private let receiveBuffer = ReceiveBuffer()
    /// Shared by every connection; used on the owner only.
    private let budget: RequestBudget
    /// Connections are read from here, one thread wake-up a request.
    private let loop: EventLoop
    private var connections: [ObjectIdentifier: ControlConnection] = [:]

    /// Listens on the socket systemd passed, else binds `path`.
    public init(path: String, owner: Owner, service: ControlService, journal: Journal, limits: Limits = Limits()) throws(SystemError) {
        self.owner = owner
        // The socket first: a path that cannot be bound leaves no loop
        // thread behind, and no owner posting through it.
        let listenFD: Int32
        if let inherited = UnixSocket.inherited() {
            listenFD = inherited
            self.path = nil
            UnixSocket.setNonBlocking(inherited)
        } else {
            listenFD = try UnixSocket.listen(at: path)
            self.path = path
        }
        listener = OwnedReadSource(fd: listenFD, queue: owner.queue)
        loop = try EventLoop(queue: owner.queue)
        self.service = service
        self.journal = journal
        self.limits = limits
        budget = RequestBudget(limit: limits.maxPendingBytes)
        owner.attach(loop)
    }

    /// Where clients connect, for messages.
    public var description: String { path ?? "the socket passed by systemd" }

    public func start() {
        listener.activate { [unowned self] in acceptAll() }
    }

    /// Stops accepting and closes every connection; the socket file of a bound
    /// socket is removed (a passed one belongs to systemd).
    public func stop() {
        owner.sync {
            listener.cancel()
            for connection in connections.values { connection.close() }
            connections.removeAll()
        }
        loop.stop()
        if let path { unlink(path) }
    }

    private func acceptAll() {
        while let fd = UnixSocket.acceptConnection(listener.fd) { admit(fd) }
    }

    private func admit(_ fd: Int32) {
        guard let peer = UnixSocket.peerCredentials(fd), peer.uid == getuid() else {
            let credentials = UnixSocket.peerCredentials(fd)
            let who = credentials.map { "uid \($0.uid), pid \($0.pid)" } ?? "an unknown peer"
            journal.send("Refused a control connection from \(who): only uid \(getuid()) may use alarmd", priority: .warning,
                         messageID: MessageID.peerRefused, fields: [("ALARMD_PEER_UID", credentials.map { String($0.uid) } ?? ""), ("ALARMD_PEER_PID", credentials.map { String($0.pid) } ?? "")])
            UnixSocket.refuse(fd, with: .permissionDenied())
            return
        }
        guard connections.count < limits.maxClients else {
            UnixSocket.refuse(fd, with: .invalidRequest("too many connections (limit \(limits.maxClients)); try again later"))
            return
        }
        let connection = ControlConnection(fd: fd, peer: peer, queue: queue, loop: loop, limits: limits, buffer: receiveBuffer, budget: budget)
        let key = ObjectIdentifier(connection)
        connections[key] = connection
        connection.onClose = { [unowned self] in connections[key] = nil }
        connection.start { [unowned self] connection, message in handle(message, on: connection) }
    }

    private func handle(_ message: [UInt8], on connection: ControlConnection) {
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
            // Lists and exports of every item can take a while to build and
            // encode (a tenth of a second for 100,000 alarms): done on a worker,
            // so a `Status` on another connection never waits behind one.
            let box = WeakConnection(connection)
            let queue = queue
            let service = service
            DispatchQueue.global(qos: .userInitiated).async {
                service.handle(call.member, Parameters(call.parameters)) { result in
                    let framed = call.oneway ? nil : VarlinkFramer.frame(Self.reply(result).json)
                    queue.async { box.connection?.finishCall(framed: framed) }
                }
            }
        case InterfaceDefinition.name:
            // A read answers here and now; a change answers once its commit is
            // durable, when the writer's message reaches the owner.
            let box = WeakConnection(connection)
            let owner = owner
            service.handle(call.member, Parameters(call.parameters)) { result in
                let reply = call.oneway ? nil : Self.reply(result)
                owner.run { box.connection?.finishCall(reply) }
            }
        default:
            connection.finishCall(call.oneway ? nil : .error(.interfaceNotFound(call.interface)))
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
                    connection.send(.parameters(["event": ControlService.eventJSON(event, zone: zone)], continues: true))
                }
            }
        }
        let events = service.scheduler.events
        connection.onClose = { [unowned self, weak connection] in
            events.unsubscribe(token)
            if let connection { connections[ObjectIdentifier(connection)] = nil }
        }
    }
}

/// Lets a reply or event that comes back later reach a connection that may
/// be gone; the connection itself is only touched on the owner.
private final class WeakConnection: @unchecked Sendable {
    weak var connection: ControlConnection?
    init(_ connection: ControlConnection) { self.connection = connection }
}

// SPDX-License-Identifier: Apache-2.0
import BusWire
import Dispatch
import Glibc
import SystemCalls

/// A client connection to a D-Bus bus (the session bus, or the system bus
/// for logind), spoken by the protocol itself (BusWire's messages over
/// ``BusSocket``), driven by a Dispatch read source on the socket. Confined
/// to one queue; the socket closes when the connection closes or goes away.
///
/// Only what alarmd needs: method calls that wait for their reply, and
/// signals by match rule. Signals that arrive during a call wait for it to
/// end, then are handed out in order. A method call to alarmd gets an error
/// reply (it serves none). A broadcast signal reaches alarmd only through a
/// match rule, whose sender the bus checks as it delivers it. A signal
/// addressed to alarmd alone, which any peer on the bus may send (and a
/// notification server sends `ActionInvoked` so), is handed out only when
/// it comes from the sender its match names: the bus itself, or the peer
/// whose method return last answered alarmd's call to that name.
final class BusConnection: Sendable {
    private struct State {
        /// The bus while connected.
        var link: Link?
        var matches: [Match] = []
        /// Called once when the bus goes away under us.
        var onDisconnect: (() -> Void)?
    }

    /// A signal listened for, and who gets it.
    private struct Match {
        let sender: String
        let path: String
        let interface: String
        let member: String
        let arg0: String?
        let handler: (BusMessage) -> Void

        /// `owner` is the unique name of the peer that owns `sender`, when known.
        func matches(_ message: BusMessage, owner: String?) -> Bool {
            if message.destination != nil {
                guard let from = message.sender, from == sender || from == owner else { return false }
            }
            return message.path == path && message.interface == interface && message.member == member && (arg0 == nil || message.firstString == arg0)
        }
    }

    static let bus = "org.freedesktop.DBus"
    static let busPath = "/org/freedesktop/DBus"
    /// Signals received during calls, waiting for the call to end: a bound,
    /// beyond which the oldest are dropped.
    static let maximumQueued = 256

    private let queue: DispatchQueue
    private let state: QueueBound<State>

    init(queue: DispatchQueue) {
        self.queue = queue
        state = QueueBound(State(), queue: queue)
    }

    /// Called once when the bus goes away under us.
    var onDisconnect: (() -> Void)? {
        get { state.onDisconnect }
        set { state.onDisconnect = newValue }
    }

    var isConnected: Bool { state.link != nil }

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`), or with `system` to the system bus
    /// (`DBUS_SYSTEM_BUS_ADDRESS`, else `/run/dbus/system_bus_socket`), and
    /// says `Hello` to it.
    func connect(system: Bool = false, timeout: Double = 2) throws(SystemError) {
        let deadline = Self.deadline(timeout)
        let socket = try BusSocket.open(BusAddress.parse(Self.address(system: system)), deadline: deadline)
        let link = Link(socket: socket, queue: queue)
        state.link = link
        do throws(SystemError) {
            let left = max(0.001, Double(deadline - clockMicroseconds(CLOCK_MONOTONIC)) / 1_000_000)
            _ = try call(destination: Self.bus, path: Self.busPath, interface: Self.bus, member: "Hello", timeout: left) { _ throws(SystemError) in }
        } catch {
            close()
            throw error
        }
        link.readSource.activate { [unowned self] in process() }
    }

    private static func address(system: Bool) -> String {
        func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        if system { return variable("DBUS_SYSTEM_BUS_ADDRESS") ?? "unix:path=/run/dbus/system_bus_socket" }
        return variable("DBUS_SESSION_BUS_ADDRESS") ?? variable("XDG_RUNTIME_DIR").map { "unix:path=\($0)/bus" } ?? ""
    }

    private static func deadline(_ timeout: Double) -> Int64 {
        clockMicroseconds(CLOCK_MONOTONIC) + Int64(timeout * 1_000_000)
    }

    /// Reads what the bus sent and hands out the signals, until nothing is
    /// left; notices a closed connection.
    func process() {
        while let link = state.link {
            do throws(SystemError) {
                if !link.queued.isEmpty {
                    dispatch(link.queued.removeFirst())
                } else if let message = try link.framer.next() {
                    dispatch(message)
                } else {
                    switch try BusSocket.receive(link.socket.rawValue, into: &link.framer) {
                    case .bytes: continue
                    case .nothing: return
                    case .closed: return disconnected()
                    }
                }
            } catch {
                return disconnected()
            }
        }
    }

    /// Calls a method and waits (at most `timeout` seconds) for the reply.
    /// Signals that arrive meanwhile are handed out after.
    func call(destination: String, path: String, interface: String, member: String, timeout: Double = 2,
              arguments: (BusMessage) throws(SystemError) -> Void) throws(SystemError) -> BusMessage {
        guard let link = state.link else { throw SystemError("D-Bus \(member)", code: ENOTCONN) }
        let message = BusMessage.methodCall(destination: destination, path: path, interface: interface, member: member)
        try arguments(message)
        let serial = link.nextSerial()
        let bytes = try message.encoded(serial: serial)
        let deadline = Self.deadline(timeout)
        // What arrived meanwhile, read off the socket already, is handed out after.
        defer { queue.async { [weak self] in self?.process() } }
        do throws(SystemError) {
            try BusSocket.send(link.socket.rawValue, bytes, deadline: deadline)
            while true {
                while let received = try link.framer.next() {
                    guard received.replySerial == serial, received.kind == .methodReturn || received.kind == .error else {
                        link.hold(received)
                        continue
                    }
                    guard received.kind == .methodReturn else {
                        let detail = [received.errorName, received.firstString].compactMap { $0 }.joined(separator: ": ")
                        throw SystemError("D-Bus \(interface).\(member): \(detail)", code: EREMOTEIO)
                    }
                    if let sender = received.sender, sender.hasPrefix(":") { link.owners[destination] = sender }
                    return received
                }
                switch try BusSocket.receive(link.socket.rawValue, into: &link.framer) {
                case .bytes: continue
                case .nothing: try BusSocket.wait(link.socket.rawValue, for: Int16(POLLIN), deadline: deadline)
                case .closed: throw SystemError("D-Bus \(interface).\(member): the bus closed the connection", code: ECONNRESET)
                }
            }
        } catch let error where error.code == ETIMEDOUT {
            // Sent whole and not answered in time: a reply that comes later is passed over.
            throw SystemError("D-Bus \(interface).\(member): no reply in \(timeout) s", code: ETIMEDOUT)
        } catch let error where error.code == EREMOTEIO {
            throw error
        } catch {
            // The stream is no longer in step: the connection is done.
            queue.async { [weak self] in self?.disconnected() }
            throw error
        }
    }

    /// Calls `handler` for every signal `interface.member` from `sender` at
    /// `path`, and whose first argument is `arg0` when given: the bus then
    /// filters, so a broadcast like `NameOwnerChanged` reaches us only for the
    /// one name we follow.
    func onSignal(sender: String, path: String, interface: String, member: String, arg0: String? = nil,
                  handler: @escaping (BusMessage) -> Void) throws(SystemError) {
        // The values are bus names, paths and members, which cannot hold a quote.
        var rule = "type='signal',sender='\(sender)',path='\(path)',interface='\(interface)',member='\(member)'"
        if let arg0 { rule += ",arg0='\(arg0)'" }
        _ = try call(destination: Self.bus, path: Self.busPath, interface: Self.bus, member: "AddMatch") { message throws(SystemError) in
            try message.append(rule)
        }
        state.matches.append(Match(sender: sender, path: path, interface: interface, member: member, arg0: arg0, handler: handler))
    }

    func close() {
        // The link closes the socket as it goes.
        state.link = nil
        state.matches.removeAll()
    }

    private func disconnected() {
        guard state.link != nil else { return }
        close()
        let onDisconnect = state.onDisconnect
        onDisconnect?()
    }

    private func dispatch(_ message: BusMessage) {
        switch message.kind {
        case .signal:
            guard let link = state.link else { return }
            // Taken out first: a handler may use the connection again.
            for match in state.matches where match.matches(message, owner: link.owners[match.sender]) { match.handler(message) }
        case .methodCall where message.flags & BusMessage.noReplyExpected == 0:
            guard let link = state.link else { return }
            let reply = BusMessage.errorReply(to: message, name: "org.freedesktop.DBus.Error.UnknownMethod",
                                              text: "alarmd serves no methods on this connection")
            guard let bytes = try? reply.encoded(serial: link.nextSerial()) else { return }
            do throws(SystemError) { try BusSocket.send(link.socket.rawValue, bytes, deadline: Self.deadline(0.1)) } catch {
                // Not sent at all, it is simply not sent; cut short, the stream is out of step.
                if error.code != ETIMEDOUT { disconnected() }
            }
        default:
            // A reply to a call that timed out, a method call that wants none.
            return
        }
    }
}

/// What the connection holds of the bus: the socket, the read source on it,
/// the bytes and messages not yet handed out. A class, so that the socket is
/// closed when it goes, by ``BusConnection/close()`` on the queue or, for a
/// connection dropped unclosed, wherever its last reference goes.
private final class Link {
    let socket: FileDescriptor
    let readSource: OwnedReadSource
    var framer = BusFramer()
    var queued: [BusMessage] = []
    /// The unique name that last answered a call to each name called.
    var owners: [String: String] = [:]
    private var serial: UInt32 = 0

    init(socket: FileDescriptor, queue: DispatchQueue) {
        self.socket = socket
        // The source keeps the descriptor open until Dispatch is done with it.
        readSource = OwnedReadSource(fd: socket.rawValue, queue: queue) { withExtendedLifetime(socket) {} }
    }

    func nextSerial() -> UInt32 {
        serial = serial == UInt32.max ? 1 : serial + 1
        return serial
    }

    func hold(_ message: BusMessage) {
        if queued.count >= BusConnection.maximumQueued { queued.removeFirst() }
        queued.append(message)
    }

    deinit { readSource.cancel() }
}

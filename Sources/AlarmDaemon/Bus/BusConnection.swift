// SPDX-License-Identifier: Apache-2.0
import CSystemd
import Dispatch
import Glibc
import SystemCalls

/// A client connection to a D-Bus bus (the session bus, or the system bus
/// for logind) through sd-bus, driven by a
/// Dispatch read source on the bus fd. Confined to one queue; the bus is
/// flushed and unreferenced when the connection closes or goes away.
final class BusConnection: Sendable {
    private struct State {
        /// The bus while connected.
        var link: Link?
        var handlers: [(BusMessage) -> Void] = []
        /// Called once when the bus goes away under us.
        var onDisconnect: (() -> Void)?
    }

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
    /// (`DBUS_SYSTEM_BUS_ADDRESS`, else `/run/dbus/system_bus_socket`).
    func connect(system: Bool = false) throws(SystemError) {
        var opened: OpaquePointer?
        if system {
            try systemdCall("sd_bus_open_system", sd_bus_open_system(&opened))
        } else {
            try systemdCall("sd_bus_open_user", sd_bus_open_user(&opened))
        }
        guard let opened else { return }
        let link = Link(bus: opened)
        state.link = link
        // sd-bus owns the descriptor: the source gives it back by closing the
        // bus, once Dispatch is done with it (see OwnedReadSource).
        let source = OwnedReadSource(fd: sd_bus_get_fd(opened), queue: queue) { _ = sd_bus_flush_close_unref(opened) }
        source.activate { [unowned self] in process() }
        link.readSource = source
    }

    /// Runs sd-bus until it has nothing left to do: dispatches queued signals
    /// and notices a closed connection.
    func process() {
        while let bus = state.link?.bus {
            let result = sd_bus_process(bus, nil)
            if result < 0 {
                close()
                let onDisconnect = state.onDisconnect
                onDisconnect?()
                return
            }
            if result == 0 { return }
        }
    }

    /// Calls a method and waits (at most `timeout` seconds) for the reply.
    /// sd-bus queues signals that arrive meanwhile; they are dispatched after.
    func call(destination: String, path: String, interface: String, member: String, timeout: Double = 2,
              arguments: (BusMessage) throws(SystemError) -> Void) throws(SystemError) -> BusMessage {
        guard let bus = state.link?.bus else { throw SystemError("D-Bus \(member)", code: ENOTCONN) }
        var raw: OpaquePointer?
        try systemdCall("sd_bus_message_new_method_call \(member)", sd_bus_message_new_method_call(bus, &raw, destination, path, interface, member))
        let message = BusMessage(adopting: raw!)
        try arguments(message)
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd_bus_call(bus, message.raw, UInt64(timeout * 1_000_000), &error, &reply)
        defer { queue.async { [weak self] in self?.process() } }
        guard result >= 0, let reply else {
            let detail = error.message.map { String(cString: $0) } ?? String(cString: strerror(-result))
            throw SystemError("D-Bus \(interface).\(member): \(detail)", code: -result)
        }
        return BusMessage(adopting: reply)
    }

    /// Calls `handler` for every signal `interface.member` from `sender` at
    /// `path`, and whose first argument is `arg0` when given: the bus then
    /// filters, so a broadcast like `NameOwnerChanged` reaches us only for the
    /// one name we follow.
    func onSignal(sender: String, path: String, interface: String, member: String, arg0: String? = nil,
                  handler: @escaping (BusMessage) -> Void) throws(SystemError) {
        guard let link = state.link else { throw SystemError("D-Bus match \(member)", code: ENOTCONN) }
        state.handlers.append(handler)
        let signalContext = SignalContext(connection: self, index: state.handlers.count - 1)
        link.contexts.append(signalContext)
        let context = Unmanaged.passUnretained(signalContext).toOpaque()
        var slot: OpaquePointer?
        // The values are bus names, paths and members, which cannot hold a quote.
        var rule = "type='signal',sender='\(sender)',path='\(path)',interface='\(interface)',member='\(member)'"
        if let arg0 { rule += ",arg0='\(arg0)'" }
        let result = sd_bus_add_match(link.bus, &slot, rule, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let context = Unmanaged<SignalContext>.fromOpaque(userdata).takeUnretainedValue()
            // Taken out first: the handler may use the connection again.
            guard let handler = context.connection?.state.handlers[context.index] else { return 0 }
            handler(BusMessage(borrowing: message))
            return 0
        }, context)
        try systemdCall("sd_bus_add_match \(member)", result)
        if let slot { link.slots.append(slot) }
    }

    func close() {
        // The link gives the bus back as it goes.
        state.link = nil
        state.handlers.removeAll()
    }
}

/// What the connection holds of sd-bus: the bus, the read source on its
/// descriptor and the match slots. A class, so that they are given back when
/// it goes, by ``BusConnection/close()`` on the queue or, for a connection
/// dropped unclosed, wherever its last reference goes.
private final class Link {
    let bus: OpaquePointer
    var readSource: OwnedReadSource?
    var slots: [OpaquePointer] = []
    var contexts: [SignalContext] = []

    init(bus: OpaquePointer) { self.bus = bus }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        slots.removeAll()
        contexts.removeAll()
        // The read source closes the bus (so its descriptor) after its
        // cancellation; without one, nothing watches the descriptor.
        if let readSource {
            readSource.cancel()
        } else {
            sd_bus_flush_close_unref(bus)
        }
    }
}

/// What a signal callback needs to find its handler; kept alive by the
/// connection for as long as the match slot exists.
private final class SignalContext {
    weak var connection: BusConnection?
    let index: Int

    init(connection: BusConnection, index: Int) {
        self.connection = connection
        self.index = index
    }
}

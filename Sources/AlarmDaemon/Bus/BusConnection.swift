// SPDX-License-Identifier: Apache-2.0
import CSystemd
import Dispatch
import Glibc

/// A client connection to a D-Bus bus (the session bus, or the system bus
/// for logind) through sd-bus, driven by a
/// Dispatch read source on the bus fd. Confined to one queue; the bus is
/// flushed and unreferenced when the connection closes or goes away.
final class BusConnection: @unchecked Sendable {
    private var bus: OpaquePointer?
    private let queue: DispatchQueue
    private var readSource: OwnedReadSource?
    private var slots: [OpaquePointer] = []
    private var handlers: [(BusMessage) -> Void] = []
    /// Called once when the bus goes away under us.
    var onDisconnect: (() -> Void)?

    init(queue: DispatchQueue) { self.queue = queue }

    deinit { close() }

    var isConnected: Bool { bus != nil }

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
        bus = opened
        // sd-bus owns the descriptor: the source gives it back by closing the
        // bus, once Dispatch is done with it (see OwnedReadSource).
        let connected = opened
        let source = OwnedReadSource(fd: sd_bus_get_fd(opened), queue: queue) { _ = sd_bus_flush_close_unref(connected) }
        source.activate { [unowned self] in process() }
        readSource = source
    }

    /// Runs sd-bus until it has nothing left to do: dispatches queued signals
    /// and notices a closed connection.
    func process() {
        while let bus {
            let result = sd_bus_process(bus, nil)
            if result < 0 {
                close()
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
        guard let bus else { throw SystemError("D-Bus \(member)", code: ENOTCONN) }
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
        guard let bus else { throw SystemError("D-Bus match \(member)", code: ENOTCONN) }
        handlers.append(handler)
        let signalContext = SignalContext(connection: self, index: handlers.count - 1)
        contexts.append(signalContext)
        let context = Unmanaged.passUnretained(signalContext).toOpaque()
        var slot: OpaquePointer?
        // The values are bus names, paths and members, which cannot hold a quote.
        var rule = "type='signal',sender='\(sender)',path='\(path)',interface='\(interface)',member='\(member)'"
        if let arg0 { rule += ",arg0='\(arg0)'" }
        let result = sd_bus_add_match(bus, &slot, rule, { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let context = Unmanaged<SignalContext>.fromOpaque(userdata).takeUnretainedValue()
            context.connection?.handlers[context.index](BusMessage(borrowing: message))
            return 0
        }, context)
        try systemdCall("sd_bus_add_match \(member)", result)
        if let slot { slots.append(slot) }
    }

    private var contexts: [SignalContext] = []

    func close() {
        for slot in slots { sd_bus_slot_unref(slot) }
        slots.removeAll()
        contexts.removeAll()
        handlers.removeAll()
        // The read source closes the bus (so its descriptor) after its
        // cancellation; without one, nothing watches the descriptor.
        if let readSource {
            readSource.cancel()
        } else if let bus {
            sd_bus_flush_close_unref(bus)
        }
        readSource = nil
        bus = nil
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

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import BusWire
import Dispatch
import SystemCalls

/// A client of the freedesktop Notifications service
/// (`org.freedesktop.Notifications` on the session bus). Connects lazily and
/// again after the bus went away; confined to one queue.
final class DesktopNotifications {
    struct Notification {
        var summary: String
        var body: String
        /// (key, label) pairs, shown as buttons.
        var actions: [(String, String)]
        /// 0 low, 1 normal, 2 critical.
        var urgency: UInt8
        var category: String
        var resident: Bool
        var imagePath: String?
    }

    static let service = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    private let queue: DispatchQueue
    private let log: (String) -> Void
    private var connection: BusConnection?
    /// Logged once per outage, not once per notification.
    private var reportedOutage = false
    var onAction: ((UInt32, String) -> Void)?
    var onClosed: ((UInt32, UInt32) -> Void)?
    /// Called when an open connection to the bus is lost: the notifications
    /// shown through it are gone with the server, and ids count from 1 again
    /// on the next one.
    var onConnectionLost: (() -> Void)?
    /// Called when the notification server itself goes (`false`) or a server
    /// takes the name (`true`) while the bus stays: a restarted server has
    /// forgotten what the old one showed, as after a lost connection.
    var onServerChanged: ((_ present: Bool) -> Void)?

    init(queue: DispatchQueue, log: @escaping (String) -> Void) {
        self.queue = queue
        self.log = log
    }

    /// The connection, opened (with its signal matches) if needed.
    private func connected() -> BusConnection? {
        if let connection, connection.isConnected { return connection }
        let fresh = BusConnection(queue: queue)
        do {
            try fresh.connect()
            try fresh.onSignal(sender: Self.service, path: Self.path, interface: Self.service, member: "ActionInvoked") { [weak self] message in
                guard let id = try? message.readUInt32(), let key = try? message.readString() else { return }
                self?.onAction?(id, key)
            }
            try fresh.onSignal(sender: Self.service, path: Self.path, interface: Self.service, member: "NotificationClosed") { [weak self] message in
                guard let id = try? message.readUInt32(), let reason = try? message.readUInt32() else { return }
                self?.onClosed?(id, reason)
            }
            // A server that exits or restarts leaves the bus connection up;
            // only the bus says so, by the name changing owner.
            try fresh.onSignal(sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                               member: "NameOwnerChanged", arg0: Self.service) { [weak self] message in
                guard (try? message.readString()) == Self.service, let old = try? message.readString(),
                      let new = try? message.readString() else { return }
                if !old.isEmpty { self?.onServerChanged?(false) }
                if !new.isEmpty { self?.onServerChanged?(true) }
            }
            fresh.onDisconnect = { [weak self] in
                self?.connection = nil
                self?.onConnectionLost?()
            }
            connection = fresh
            if reportedOutage { log("Session bus is back; desktop notifications resume") }
            reportedOutage = false
            return fresh
        } catch {
            outage("cannot connect to the session bus (\(error))")
            return nil
        }
    }

    private func outage(_ reason: String) {
        guard !reportedOutage else { return }
        reportedOutage = true
        log("No desktop notifications: \(reason); alarms still ring by sound and are logged to the journal")
    }

    /// Shows a notification; its id, or `nil` when there is no bus or server.
    func show(_ notification: Notification) -> UInt32? {
        guard let connection = connected() else { return nil }
        do {
            let reply = try connection.call(destination: Self.service, path: Self.path, interface: Self.service, member: "Notify") { message throws(SystemError) in
                try message.append("alarmd")          // app_name
                try message.append(UInt32(0))        // replaces_id
                try message.append("alarm-clock")    // app_icon
                try message.append(notification.summary)
                try message.append(notification.body)
                try message.container("a", "s") { () throws(SystemError) in
                    for (key, label) in notification.actions {
                        try message.append(key)
                        try message.append(label)
                    }
                }
                try message.container("a", "{sv}") { () throws(SystemError) in
                    try message.hint("urgency", "y") { () throws(SystemError) in try message.append(byte: notification.urgency) }
                    try message.hint("category", "s") { () throws(SystemError) in try message.append(notification.category) }
                    try message.hint("resident", "b") { () throws(SystemError) in try message.append(notification.resident) }
                    try message.hint("desktop-entry", "s") { () throws(SystemError) in try message.append("alarmd") }
                    if let image = notification.imagePath {
                        try message.hint("image-path", "s") { () throws(SystemError) in try message.append(image) }
                    }
                }
                try message.append(Int32(0))         // expire_timeout: never
            }
            reportedOutage = false
            return try reply.readUInt32()
        } catch {
            outage("the notification server did not answer (\(error))")
            return nil
        }
    }

    /// Why a notification could not be shown now, or `nil` when a server
    /// answers (`GetServerInformation`, which shows nothing).
    func serverProblem() -> String? {
        guard let connection = connected() else { return Audibility.noSessionBus }
        do {
            _ = try connection.call(destination: Self.service, path: Self.path, interface: Self.service, member: "GetServerInformation") { _ throws(SystemError) in }
            return nil
        } catch {
            return MessageFormat.fill(Audibility.noNotificationServer, ["\(error)"])
        }
    }

    /// Closes a notification shown earlier (it may already be gone).
    func close(_ id: UInt32) {
        guard let connection = connected() else { return }
        _ = try? connection.call(destination: Self.service, path: Self.path, interface: Self.service, member: "CloseNotification") { message throws(SystemError) in
            try message.append(id)
        }
    }

    /// Escapes text for the body markup the specification allows.
    static func escapeMarkup(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}

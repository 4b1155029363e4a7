// SPDX-License-Identifier: Apache-2.0
import BusWire
import Dispatch
import Glibc
import SystemCalls

/// The systemd user manager, asked over the session bus what environment it
/// would give this service now.
///
/// A process's environment is fixed when it starts, so `systemctl --user
/// set-environment TZ=Asia/Tokyo` followed by `systemctl --user reload alarmd`
/// would change nothing on its own. On reload the daemon asks the manager
/// instead: the unit's own `Environment=` wins, then the manager's environment,
/// the order systemd itself applies when it starts the service
/// (`EnvironmentFile=` is not consulted).
enum ServiceManager {
    /// What the manager says about one variable.
    enum Lookup: Equatable {
        case value(String)
        /// Neither the unit nor the manager sets it.
        case unset
        /// The manager could not be asked; the reason, for the journal.
        case unavailable(String)
    }

    static let destination = "org.freedesktop.systemd1"
    static let managerPath = "/org/freedesktop/systemd1"

    /// Looks `names` up for the unit that runs process `pid`, waiting at most
    /// `timeout` seconds for each of the three calls, on `queue` (the
    /// daemon's output worker), which the bus connection is confined to while
    /// it lasts: `TZ` and the locale's variables at a reload.
    static func lookUp(_ names: [String], pid: pid_t = getpid(), timeout: Double = 1, on queue: DispatchQueue) -> [String: Lookup] {
        dispatchPrecondition(condition: .onQueue(queue))
        let connection = BusConnection(queue: queue)
        defer { connection.close() }
        do throws(SystemError) {
            try connection.connect()
            let unitPath = try connection.call(destination: destination, path: managerPath, interface: "org.freedesktop.systemd1.Manager",
                                               member: "GetUnitByPID", timeout: timeout) { message throws(SystemError) in
                try message.append(UInt32(bitPattern: pid))
            }.readString(type: "o")
            let unit = try property(connection, path: unitPath, interface: "org.freedesktop.systemd1.Service", name: "Environment", timeout: timeout)
            let manager = try property(connection, path: managerPath, interface: "org.freedesktop.systemd1.Manager", name: "Environment", timeout: timeout)
            return Dictionary(uniqueKeysWithValues: names.map { name in
                (name, (value(of: name, in: unit) ?? value(of: name, in: manager)).map(Lookup.value) ?? .unset)
            })
        } catch {
            return Dictionary(uniqueKeysWithValues: names.map { ($0, Lookup.unavailable(error.description)) })
        }
    }

    private static func property(_ connection: BusConnection, path: String, interface: String, name: String, timeout: Double) throws(SystemError) -> [String] {
        try connection.call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
                            member: "Get", timeout: timeout) { message throws(SystemError) in
            try message.append(interface)
            try message.append(name)
        }.readStringArray(inVariant: true)
    }

    /// The last `NAME=value` assignment wins, as in an environment block.
    static func value(of name: String, in assignments: [String]) -> String? {
        let prefix = name + "="
        return assignments.last { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
    }
}

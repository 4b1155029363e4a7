// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import BusWire
import Dispatch
import FoundationEssentials
import Glibc
import SystemCalls

/// A wake-up through the user's service manager, for an alarmd without
/// `CAP_WAKE_ALARM`: one transient timer unit, `alarmd-wake.timer`, with
/// `WakeSystem=yes`, `AccuracySec=1s` and an absolute `OnCalendar=` instant
/// in UTC, activating a service that does nothing (`/bin/true`). systemd 254
/// and later give the user manager `CAP_WAKE_ALARM` for exactly this; an
/// older manager, or one that refuses, makes ``set(_:)`` throw.
///
/// Replaced when the instant changes (a transient unit cannot be started
/// while one of its name exists, so the old one is stopped first) and
/// stopped when nothing is due. Its calls block, so it lives on the output
/// worker; every entry point checks that.
final class UserManagerTimer: Sendable {
    static let unit = "alarmd-wake.timer"
    static let service = "alarmd-wake.service"
    static let destination = "org.freedesktop.systemd1"
    static let path = "/org/freedesktop/systemd1"
    static let manager = "org.freedesktop.systemd1.Manager"

    private struct State {
        var connection: BusConnection?
        /// The instant the unit is set for, if one was started.
        var armed: Date?
    }

    private let queue: DispatchQueue
    private let state: QueueBound<State>

    init(queue: DispatchQueue) {
        self.queue = queue
        state = QueueBound(State(), queue: queue)
    }

    /// The instant the unit is set for, if one was started.
    var armed: Date? { state.armed }

    /// `OnCalendar=` for `instant`, whole seconds rounded up, in UTC.
    static func calendar(_ instant: Date) -> String {
        let text = Date(timeIntervalSince1970: instant.timeIntervalSince1970.rounded(.up)).rfc3339UTC
        return text.replacing("T", with: " ").replacing("Z", with: " UTC")
    }

    /// Sets the machine to wake at `instant`, or removes the wake-up.
    func set(_ instant: Date?) throws(SystemError) {
        dispatchPrecondition(condition: .onQueue(queue))
        let connection = try connected()
        if armed != nil || instant == nil {
            // Gone already (it elapsed, or the manager restarted) is fine.
            _ = try? connection.call(destination: Self.destination, path: Self.path, interface: Self.manager, member: "StopUnit", timeout: 2) { message throws(SystemError) in
                try message.append(Self.unit)
                try message.append("replace")
            }
            state.armed = nil
        }
        guard let instant else { return }
        _ = try connection.call(destination: Self.destination, path: Self.path, interface: Self.manager, member: "StartTransientUnit", timeout: 2) { message throws(SystemError) in
            try message.append(Self.unit)
            try message.append("replace")
            try message.container("a", "(sv)") { () throws(SystemError) in
                try message.property("Description", "s") { () throws(SystemError) in try message.append("alarmd: wake the machine for the next alarm") }
                try message.property("WakeSystem", "b") { () throws(SystemError) in try message.append(true) }
                try message.property("AccuracyUSec", "t") { () throws(SystemError) in try message.append(UInt64(1_000_000)) }
                try message.property("RemainAfterElapse", "b") { () throws(SystemError) in try message.append(false) }
                try message.property("TimersCalendar", "a(ss)") { () throws(SystemError) in
                    try message.container("a", "(ss)") { () throws(SystemError) in
                        try message.container("r", "ss") { () throws(SystemError) in
                            try message.append("OnCalendar")
                            try message.append(Self.calendar(instant))
                        }
                    }
                }
            }
            try message.container("a", "(sa(sv))") { () throws(SystemError) in
                try message.container("r", "sa(sv)") { () throws(SystemError) in
                    try message.append(Self.service)
                    try message.container("a", "(sv)") { () throws(SystemError) in
                        try message.property("Description", "s") { () throws(SystemError) in try message.append("alarmd: the machine woke for the next alarm") }
                        try message.property("ExecStart", "a(sasb)") { () throws(SystemError) in
                            try message.container("a", "(sasb)") { () throws(SystemError) in
                                try message.container("r", "sasb") { () throws(SystemError) in
                                    try message.append("/bin/true")
                                    try message.container("a", "s") { () throws(SystemError) in try message.append("/bin/true") }
                                    try message.append(false)
                                }
                            }
                        }
                    }
                }
            }
        }
        // The manager answers once the start job is queued. One that may not
        // wake the system (systemd before 254) fails the timer only when the
        // job runs ("Failed to enter waiting state: Operation not permitted"),
        // so look at the unit before saying the machine will wake.
        let unitState = activeState(connection)
        guard unitState == "active" else {
            // A failed transient unit stays loaded under its name; clear it so
            // that the next attempt can start one again.
            _ = try? connection.call(destination: Self.destination, path: Self.path, interface: Self.manager, member: "ResetFailedUnit", timeout: 2) { message throws(SystemError) in
                try message.append(Self.unit)
            }
            throw SystemError("\(Self.unit) did not start (it is \(unitState ?? "gone"); a user manager before systemd 254 cannot wake the system)", code: EPERM)
        }
        state.armed = instant
    }

    /// The timer unit's `ActiveState` once its start job has run: asked
    /// until it is no longer `activating`, for at most a second.
    private func activeState(_ connection: BusConnection) -> String? {
        var state: String?
        for _ in 0..<20 {
            state = nil
            if let unit = try? connection.call(destination: Self.destination, path: Self.path, interface: Self.manager, member: "GetUnit", timeout: 2, arguments: { message throws(SystemError) in
                try message.append(Self.unit)
            }).readString(type: "o") {
                state = try? connection.call(destination: Self.destination, path: unit, interface: "org.freedesktop.DBus.Properties", member: "Get", timeout: 2, arguments: { message throws(SystemError) in
                    try message.append("org.freedesktop.systemd1.Unit")
                    try message.append("ActiveState")
                }).readString(inVariant: true)
            }
            guard state == "activating" else { return state }
            usleep(50_000)
        }
        return state
    }

    private func connected() throws(SystemError) -> BusConnection {
        if let connection = state.connection, connection.isConnected { return connection }
        let fresh = BusConnection(queue: queue)
        try fresh.connect()
        fresh.onDisconnect = { [weak self] in
            self?.state.connection = nil
            self?.state.armed = nil
        }
        state.connection = fresh
        return fresh
    }

    /// Removes the wake-up and the connection (the daemon is stopping: a
    /// timer left behind would wake the machine for a daemon not running).
    func stop() {
        dispatchPrecondition(condition: .onQueue(queue))
        if state.armed != nil { try? set(nil) }
        state.connection?.close()
        state.connection = nil
    }
}

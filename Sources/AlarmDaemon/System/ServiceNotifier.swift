// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc
import SystemCalls

/// Talks to the service manager by its notification protocol: a datagram of
/// newline-separated `KEY=value` assignments to the socket in `NOTIFY_SOCKET`
/// (a path, or `@` and a name in the abstract namespace), as `sd_notify` sends
/// it. Nothing is sent when the daemon was not started by a service manager.
public struct ServiceNotifier: Sendable {
    private let address: UnixAddress?

    public init() {
        address = switch getenv("NOTIFY_SOCKET").map({ String(cString: $0) }) {
        case let path? where path.hasPrefix("/"): .path(path)
        case let name? where name.hasPrefix("@") && name.count > 1: .abstract(String(name.dropFirst()))
        default: nil
        }
    }

    /// Sends newline-separated `KEY=value` assignments.
    public func notify(_ assignments: String) {
        guard let address else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(assignments.utf8)
        _ = try? address.withSockaddr { target, length in
            bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, alarmd_msg_nosignal(), target, length) }
        }
    }

    public func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }
    public func status(_ status: String) { notify("STATUS=\(status)") }
    public func stopping() { notify("STOPPING=1") }
    public func watchdog() { notify("WATCHDOG=1") }

    /// `RELOADING=1` with the `MONOTONIC_USEC=` systemd 253+ asks for (older
    /// versions ignore the extra field).
    public func reloading() {
        notify("RELOADING=1\nMONOTONIC_USEC=\(clockMicroseconds(CLOCK_MONOTONIC))")
    }

    /// Half the watchdog interval when the service manager enabled the
    /// watchdog for this process (`WATCHDOG_USEC`, with `WATCHDOG_PID` ours
    /// when set), `nil` otherwise.
    public func watchdogPingInterval() -> Double? {
        guard let usec = getenv("WATCHDOG_USEC").flatMap({ UInt64(String(cString: $0)) }), usec > 0 else { return nil }
        if let pid = getenv("WATCHDOG_PID").map({ String(cString: $0) }), Int32(pid) != getpid() { return nil }
        return Double(usec) / 2_000_000
    }
}

// SPDX-License-Identifier: Apache-2.0
import CSystemd
import Glibc
import SystemCalls

/// Talks to the service manager through `sd_notify` (a no-op when the daemon was
/// not started by one, i.e. when `NOTIFY_SOCKET` is unset).
public struct ServiceNotifier: Sendable {
    public init() {}

    /// Sends newline-separated `KEY=value` assignments.
    public func notify(_ assignments: String) {
        _ = sd_notify(0, assignments)
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

    /// Half the watchdog interval when the service manager enabled the watchdog
    /// for this process, `nil` otherwise.
    public func watchdogPingInterval() -> Double? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return Double(usec) / 2_000_000
    }
}

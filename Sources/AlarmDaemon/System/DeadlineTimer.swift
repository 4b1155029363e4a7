// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// A `CLOCK_MONOTONIC` timerfd for a thread that already waits in epoll (the
/// control socket's ``EventLoop``). Arming and disarming are one system call
/// on the caller's thread; a `DispatchSourceTimer` is armed and cancelled
/// through Dispatch's manager thread, a thread wake-up each time, which every
/// short-lived `alarmctl` connection paid twice.
///
/// Relative, so it needs no agreement between this clock and the caller's
/// (`DispatchTime`): a caller that finds nothing due when it fires arms it
/// again for what is left.
final class DeadlineTimer {
    let fd: FileDescriptor

    init() throws(SystemError) {
        fd = FileDescriptor(try systemCall("timerfd_create(CLOCK_MONOTONIC)") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        })
    }

    /// Expires once, `nanoseconds` from now (at least one: zero disarms).
    func arm(after nanoseconds: UInt64) {
        var spec = itimerspec()
        let delay = max(nanoseconds, 1)
        spec.it_value = timespec(tv_sec: Int(delay / 1_000_000_000), tv_nsec: Int(delay % 1_000_000_000))
        set(&spec)
    }

    func disarm() {
        var spec = itimerspec()
        set(&spec)
    }

    /// Takes the expiry, so that a level-triggered epoll stops reporting it.
    func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(fd.rawValue, &expirations, 8)
    }

    /// Fails only for a bad descriptor or value, neither of which this type
    /// can hold.
    private func set(_ spec: inout itimerspec) {
        _ = timerfd_settime(fd.rawValue, 0, &spec, nil)
    }
}

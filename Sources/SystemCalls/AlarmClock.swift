// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// `timerfd`s on `CLOCK_REALTIME_ALARM`: armed for an absolute wall-clock
/// instant, one wakes the machine from suspend when it expires (through the
/// RTC). Creating one needs `CAP_WAKE_ALARM`; without it the kernel says `EPERM`.
///
/// There is no disarming: a cancelled alarm timer goes on reporting its old
/// expiry (in `/proc/PID/fdinfo` and `timerfd_gettime`, seen on Linux 6.18),
/// so anyone checking would see a wake-up that is not there. Its owner closes
/// the timer instead when nothing is due, and opens another when something is.
public enum AlarmClock {
    /// `CLOCK_REALTIME_ALARM` from `<linux/time.h>` (Glibc's module does not export it).
    public static let clockID: Int32 = 8

    /// A new, unarmed, non-blocking timerfd; `EPERM` without `CAP_WAKE_ALARM`.
    public static func create() throws(SystemError) -> Int32 {
        try systemCall("timerfd_create(CLOCK_REALTIME_ALARM)") { timerfd_create(clockID, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    /// Whether this process may have such a timer: `nil`, or why not. The
    /// descriptor is closed at once.
    public static func probe() -> SystemError? {
        do throws(SystemError) {
            close(try create())
            return nil
        } catch {
            return error
        }
    }

    /// Arms `fd` for `microseconds` since the epoch (before it too: the
    /// seconds are rounded down, so the fraction is never negative).
    public static func arm(_ fd: Int32, atMicroseconds microseconds: Int64) throws(SystemError) {
        var fraction = microseconds % 1_000_000
        if fraction < 0 { fraction += 1_000_000 }
        var spec = itimerspec()
        spec.it_value = timespec(tv_sec: Int((microseconds - fraction) / 1_000_000), tv_nsec: Int(fraction) * 1000)
        try systemCall("timerfd_settime(CLOCK_REALTIME_ALARM)") { timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
    }

    /// Consumes an expiry on `fd`: `true` when one was there to read.
    public static func acknowledge(_ fd: Int32) -> Bool {
        var expirations: UInt64 = 0
        return read(fd, &expirations, 8) == 8
    }
}

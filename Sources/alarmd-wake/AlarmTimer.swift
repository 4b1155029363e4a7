// SPDX-License-Identifier: Apache-2.0
import AlarmWake
import CLinux
import Dispatch
import Glibc

/// One `timerfd` on `CLOCK_REALTIME_ALARM`, armed for an absolute wall-clock
/// instant: it wakes the machine from suspend when it expires (through the
/// RTC). Creating one needs `CAP_WAKE_ALARM`; without it the kernel says `EPERM`.
///
/// There is no disarming: a cancelled alarm timer goes on reporting its old
/// expiry (in `/proc/PID/fdinfo` and `timerfd_gettime`), so anyone checking
/// would see a wake-up that is not there. The helper closes the timer instead
/// when no slot is left, and opens another for the next.
///
/// The descriptor is closed in the read source's cancel handler, once
/// Dispatch has taken it out of its epoll set, never sooner (see
/// ARCHITECTURE.md, "Descriptors outlive their sources").
final class AlarmTimer {
    /// `CLOCK_REALTIME_ALARM` from `<linux/time.h>` (Glibc's module does not export it).
    static let clockID: Int32 = 8

    private let fd: Int32
    private let source: DispatchSourceRead
    /// The instant armed, if any.
    private(set) var armed: WakeInstant?

    /// A timer delivering to `queue`: `expired` runs there each time the armed instant passes.
    init(queue: DispatchQueue, expired: @escaping () -> Void) throws(SystemError) {
        let fd = try Self.create()
        self.fd = fd
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setCancelHandler { close(fd) }
        source.setEventHandler {
            var expirations: UInt64 = 0
            guard read(fd, &expirations, 8) == 8 else { return }
            expired()
        }
        source.resume()
    }

    deinit { source.cancel() }

    /// Whether this process may have such a timer: `nil`, or why not.
    static func probe() -> SystemError? {
        do throws(SystemError) {
            close(try create())
            return nil
        } catch {
            return error
        }
    }

    /// A new, unarmed `CLOCK_REALTIME_ALARM` timerfd.
    private static func create() throws(SystemError) -> Int32 {
        try systemCall("timerfd_create(CLOCK_REALTIME_ALARM)") { timerfd_create(clockID, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    /// Arms the timer for `instant`.
    func arm(_ instant: WakeInstant) throws(SystemError) {
        let (seconds, microseconds) = instant.secondsAndMicroseconds
        var spec = itimerspec()
        spec.it_value = timespec(tv_sec: Int(seconds), tv_nsec: Int(microseconds) * 1000)
        try systemCall("timerfd_settime(CLOCK_REALTIME_ALARM)") { timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
        armed = instant
    }
}

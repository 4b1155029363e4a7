// SPDX-License-Identifier: Apache-2.0
import CLinux
import FoundationEssentials
import Glibc

/// One `timerfd` on `CLOCK_REALTIME_ALARM`: armed for an absolute wall-clock
/// instant, it wakes the machine from suspend when it expires (through the
/// RTC). Creating one needs `CAP_WAKE_ALARM`; without it the kernel says
/// `EPERM`, which ``open(queue:)`` reports so the daemon can say why there is
/// no wake-up.
///
/// One timer re-armed for the next instant, never one per item. When it
/// expires while the machine is awake it only wakes this read source once;
/// the firing itself is the wall timer's business (alarmd's), or the helper
/// clears the slots that passed (`alarmd-wake`). There is no disarming: a
/// cancelled alarm timer goes on reporting its old expiry (in
/// `/proc/PID/fdinfo` and `timerfd_gettime`, seen on Linux 6.18), so anyone
/// checking would see a wake-up that is not there. The owner closes the timer
/// instead when nothing is due, and opens another when something is.
final class WakeTimer {
    /// `CLOCK_REALTIME_ALARM` from `<linux/time.h>` (Glibc's module does not export it).
    static let clockID: Int32 = 8

    private let source: LoopSource
    /// The instant armed, if any.
    private(set) var armed: Date?

    private init(fd: Int32, owner: Owner, expired: (() -> Void)?) throws(SystemError) {
        source = LoopSource(fd: fd, loop: owner.loop)
        try source.activate {
            var expirations: UInt64 = 0
            guard read(fd, &expirations, 8) == 8 else { return }
            expired?()
        }
    }

    /// Whether this process may have such a timer: `nil`, or why not. The
    /// descriptor is closed at once.
    static func probe() -> SystemError? {
        do throws(SystemError) {
            close(try create())
            return nil
        } catch {
            return error
        }
    }

    /// A timer watched by the owner's event loop, or why there can be none.
    /// `expired` runs on the owner each time the armed instant passes.
    static func open(owner: Owner, expired: (() -> Void)? = nil) -> Result<WakeTimer, SystemError> {
        do throws(SystemError) {
            return .success(try WakeTimer(fd: try create(), owner: owner, expired: expired))
        } catch {
            return .failure(error)
        }
    }

    /// A new, unarmed `CLOCK_REALTIME_ALARM` timerfd; `EPERM` without `CAP_WAKE_ALARM`.
    private static func create() throws(SystemError) -> Int32 {
        try systemCall("timerfd_create(CLOCK_REALTIME_ALARM)") { timerfd_create(clockID, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    /// Arms the timer for `instant` (rounded up to whole microseconds).
    func arm(_ instant: Date) throws(SystemError) {
        let microseconds = Int64((instant.timeIntervalSince1970 * 1_000_000).rounded(.up))
        var spec = itimerspec()
        spec.it_value = timespec(tv_sec: Int(microseconds / 1_000_000), tv_nsec: Int(microseconds % 1_000_000) * 1000)
        try systemCall("timerfd_settime(CLOCK_REALTIME_ALARM)") { timerfd_settime(source.fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
        armed = instant
    }
}

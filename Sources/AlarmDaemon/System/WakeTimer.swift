// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SystemCalls

/// One ``AlarmClock`` timer: armed for an absolute wall-clock instant, it
/// wakes the machine from suspend when it expires. Without `CAP_WAKE_ALARM`
/// there is none, which ``open(owner:expired:)`` reports so the daemon can
/// say why there is no wake-up.
///
/// One timer re-armed for the next instant, never one per item. When it
/// expires while the machine is awake it only wakes this read source once;
/// the firing itself is the wall timer's business (alarmd's), or the helper
/// clears the slots that passed (`alarmd-wake`). It cannot be disarmed, so the
/// owner closes the timer when nothing is due, and opens another when something is.
final class WakeTimer {
    private let source: LoopSource
    /// The instant armed, if any.
    private(set) var armed: Date?

    private init(fd: Int32, owner: Owner, expired: (() -> Void)?) throws(SystemError) {
        source = LoopSource(fd: fd, loop: owner.loop)
        try source.activate {
            if AlarmClock.acknowledge(fd) { expired?() }
        }
    }

    /// A timer watched by the owner's event loop, or why there can be none.
    /// `expired` runs on the owner each time the armed instant passes.
    static func open(owner: Owner, expired: (() -> Void)? = nil) -> Result<WakeTimer, SystemError> {
        do throws(SystemError) {
            return .success(try WakeTimer(fd: try AlarmClock.create(), owner: owner, expired: expired))
        } catch {
            return .failure(error)
        }
    }

    /// Arms the timer for `instant` (rounded up to whole microseconds).
    func arm(_ instant: Date) throws(SystemError) {
        let microseconds = Int64((instant.timeIntervalSince1970 * 1_000_000).rounded(.up))
        try AlarmClock.arm(source.fd, atMicroseconds: microseconds)
        armed = instant
    }
}

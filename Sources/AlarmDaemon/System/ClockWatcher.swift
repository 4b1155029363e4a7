// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc
import SystemCalls

/// A change of the wall clock that the scheduler must react to.
public struct ClockChange: Sendable, CustomStringConvertible {
    /// How far the wall clock moved relative to elapsed time, in seconds
    /// (positive: forward). Near zero for a plain resume.
    public let jump: Double
    /// The machine was suspended in between (CLOCK_BOOTTIME ran ahead of
    /// CLOCK_MONOTONIC, which stops during suspend).
    public let resumed: Bool

    public init(jump: Double, resumed: Bool) {
        self.jump = jump
        self.resumed = resumed
    }

    public var description: String {
        resumed ? "resumed from suspend (clock moved \(jump) s)" : "wall clock set \(jump >= 0 ? "forward" : "back") by \(abs(jump)) s"
    }
}

/// Watches for the wall clock being set, and for resume from suspend, with a
/// `timerfd` on `CLOCK_REALTIME` armed far in the future with
/// `TFD_TIMER_CANCEL_ON_SET`: the kernel cancels it, and a read fails with
/// `ECANCELED`, whenever the clock is set — including the adjustment made on
/// resume. It never fires otherwise, so it costs no wake-ups.
final class ClockWatcher {
    private let source: LoopSource
    // The owner's: read and written in the handler only.
    private var reference: (real: Int64, monotonic: Int64, boot: Int64)

    init(owner: Owner, onChange: @escaping (ClockChange) -> Void) throws(SystemError) {
        let fd = try systemCall("timerfd_create") { timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
        reference = ClockWatcher.sample()
        source = LoopSource(fd: fd, loop: owner.loop)
        try arm()
        try source.activate { [unowned self] in
            var expirations: UInt64 = 0
            let result = read(fd, &expirations, 8)
            guard result < 0, errno == ECANCELED else { return }
            let now = ClockWatcher.sample()
            let elapsedBoot = now.boot - reference.boot
            let elapsedMonotonic = now.monotonic - reference.monotonic
            let change = ClockChange(
                jump: Double((now.real - reference.real) - elapsedBoot) / 1_000_000,
                resumed: elapsedBoot - elapsedMonotonic > 500_000
            )
            reference = now
            try? arm()
            onChange(change)
        }
    }

    private func arm() throws(SystemError) {
        // Far enough ahead never to expire; the value only has to be in range.
        var spec = itimerspec(it_interval: timespec(), it_value: timespec(tv_sec: 0x7FFF_FFFF * 4, tv_nsec: 0))
        let flags = Int32(TFD_TIMER_ABSTIME) | (1 << 1) // TFD_TIMER_CANCEL_ON_SET, not exported by Glibc's module
        try systemCall("timerfd_settime") { timerfd_settime(source.fd, flags, &spec, nil) }
    }

    private static func sample() -> (real: Int64, monotonic: Int64, boot: Int64) {
        (clockMicroseconds(CLOCK_REALTIME), clockMicroseconds(CLOCK_MONOTONIC), clockMicroseconds(CLOCK_BOOTTIME))
    }
}

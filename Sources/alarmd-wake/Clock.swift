// SPDX-License-Identifier: Apache-2.0
import AlarmWake
import Glibc

/// The two clocks the helper reads: the wall clock, which the slots are in,
/// and the monotonic one, which the rate limit and the connections' deadlines
/// are measured on, so that setting the clock stretches neither.
enum Clock {
    /// `CLOCK_REALTIME`, to the microsecond.
    static func now() -> WakeInstant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return WakeInstant(microseconds: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000)
    }

    /// `CLOCK_MONOTONIC`, in nanoseconds.
    static func tick() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}

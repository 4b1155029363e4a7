// SPDX-License-Identifier: Apache-2.0
import AlarmWake
import Glibc
import SystemCalls

/// The two clocks the helper reads: the wall clock, which the slots are in,
/// and the monotonic one, which the rate limit and the connections' deadlines
/// are measured on, so that setting the clock stretches neither.
enum Clock {
    /// `CLOCK_REALTIME`, to the microsecond.
    static func now() -> WakeInstant { WakeInstant(microseconds: clockMicroseconds(CLOCK_REALTIME)) }

    /// `CLOCK_MONOTONIC`, in nanoseconds.
    static func tick() -> UInt64 { clockNanoseconds(CLOCK_MONOTONIC) }
}

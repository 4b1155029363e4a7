// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation

/// Where the daemon gets "now". The one thing tests inject: everything else in
/// the daemon is real. Not `Clock`: that is the standard library's protocol
/// for `ContinuousClock` and friends, which this one would shadow.
public protocol WallClock: Sendable {
    func now() -> Date
    /// The Dispatch wall-clock deadline at which this clock will read `instant`.
    func wallDeadline(for instant: Date) -> DispatchWallTime
}

extension WallClock {
    public func wallDeadline(for instant: Date) -> DispatchWallTime {
        wallTime(realInstant: instant)
    }
}

func wallTime(realInstant instant: Date) -> DispatchWallTime {
    let seconds = instant.timeIntervalSince1970.rounded(.down)
    let nanoseconds = (instant.timeIntervalSince1970 - seconds) * 1_000_000_000
    return DispatchWallTime(timespec: timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds)))
}

/// The real wall clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

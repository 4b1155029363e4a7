import Dispatch
import Foundation
import Synchronization

/// Where the daemon gets "now". The one thing tests inject: everything else in
/// the daemon is real.
public protocol Clock: Sendable {
    func now() -> Date
    /// The Dispatch wall-clock deadline at which this clock will read `instant`.
    func wallDeadline(for instant: Date) -> DispatchWallTime
}

extension Clock {
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
public struct SystemClock: Clock {
    public init() {}
    public func now() -> Date { Date() }
}

/// The real clock shifted by an offset that tests move, to stand for the wall
/// clock being set (they then raise the clock-change event themselves, as the
/// timerfd watcher would).
public final class ShiftedClock: Clock {
    private let offset = Mutex<TimeInterval>(0)

    public init(offset: TimeInterval = 0) { self.offset.withLock { $0 = offset } }

    public func shift(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }

    public func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    public func wallDeadline(for instant: Date) -> DispatchWallTime {
        wallTime(realInstant: instant.addingTimeInterval(-offset.withLock { $0 }))
    }
}

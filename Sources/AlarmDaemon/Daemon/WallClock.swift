// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Where the daemon gets "now". The one thing tests inject: everything else in
/// the daemon is real. Not `Clock`: that is the standard library's protocol
/// for `ContinuousClock` and friends, which this one would shadow.
public protocol WallClock: Sendable {
    func now() -> Date
    /// What the system's clock will read when this clock reads `instant`:
    /// where a wall timer (``LoopTimer``) is armed for it.
    func systemInstant(for instant: Date) -> Date
}

extension WallClock {
    public func systemInstant(for instant: Date) -> Date { instant }
}

/// The real wall clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

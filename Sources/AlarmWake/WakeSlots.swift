// SPDX-License-Identifier: Apache-2.0
/// The `alarmd-wake` helper's state: one wake-up instant per user, and the
/// earliest of them, which is the one the helper's timer is armed for. Pure:
/// the helper passes in who asks (from the socket's peer credentials) and the
/// time, and arms what ``earliest`` says afterwards.
///
/// Each user may change its slot at most ``changesPerSecond`` times in any
/// second, so that one user cannot keep the helper (and the RTC) busy for
/// everyone. The state is bounded by the number of users who ask: one slot and
/// at most ``changesPerSecond`` timestamps each.
public struct WakeSlots: Sendable {
    /// Instants further ahead than this many seconds are refused: no alarm plans that far,
    /// and a mistaken year should not sit in the RTC unseen.
    public static let maxAhead: Int64 = 400 * 86_400
    public static let changesPerSecond = 10

    /// Why a change was refused; nothing was changed.
    public enum Refusal: Error, Equatable, Sendable {
        /// `at` is not after `now`.
        case inThePast(at: WakeInstant, now: WakeInstant)
        /// `at` is after `latest` (now + ``maxAhead`` seconds).
        case tooFarAhead(at: WakeInstant, latest: WakeInstant)
        /// More than ``changesPerSecond`` changes in the last second.
        case tooManyChanges(limit: Int)
    }

    private var slots: [UInt32: WakeInstant] = [:]
    /// Each user's recent changes, as monotonic nanoseconds, oldest first.
    private var recentChanges: [UInt32: [UInt64]] = [:]

    public init() {}

    /// The instant of the earliest slot: what the timer should be armed for.
    public var earliest: WakeInstant? { slots.values.min() }

    /// Whether no user has a wake-up set (the helper may exit).
    public var isEmpty: Bool { slots.isEmpty }

    /// The wake-up `uid` has set, if any.
    public func slot(of uid: UInt32) -> WakeInstant? { slots[uid] }

    /// Sets `uid`'s wake-up to `at`, or clears it when `at` is `nil`, at wall
    /// time `now` and monotonic time `tick` (nanoseconds, for the rate limit,
    /// which a clock change must not stretch). A refused change changes nothing
    /// and does not count against the limit.
    public mutating func set(_ at: WakeInstant?, for uid: UInt32, now: WakeInstant, tick: UInt64) throws(Refusal) {
        if let at {
            guard at > now else { throw .inThePast(at: at, now: now) }
            let latest = now.adding(seconds: Self.maxAhead)
            guard at <= latest else { throw .tooFarAhead(at: at, latest: latest) }
        }
        var recent = recentChanges[uid, default: []]
        recent.removeAll { tick &- $0 >= 1_000_000_000 }
        guard recent.count < Self.changesPerSecond else {
            recentChanges[uid] = recent
            throw .tooManyChanges(limit: Self.changesPerSecond)
        }
        recent.append(tick)
        recentChanges[uid] = recent
        slots[uid] = at
    }

    /// Clears every slot whose instant is not after `now` (the timer went
    /// off, or the clock passed them). Returns the users whose slot went.
    @discardableResult
    public mutating func expire(now: WakeInstant) -> [UInt32] {
        let passed = slots.filter { $0.value <= now }.map(\.key).sorted()
        for uid in passed { slots[uid] = nil }
        return passed
    }

    /// Forgets rate-limit history older than a second, so users who asked
    /// once long ago take no memory. Call now and then (the helper does at
    /// every change).
    public mutating func forgetOldChanges(tick: UInt64) {
        recentChanges = recentChanges.compactMapValues { recent in
            let kept = recent.filter { tick &- $0 < 1_000_000_000 }
            return kept.isEmpty ? nil : kept
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmWake
import Testing

/// The `alarmd-wake` helper's slots, decided with literal times: one per
/// user, the earliest armed, the limits of issue 14.
@Suite struct WakeSlotsTests {
    let now = WakeInstant(seconds: 1_796_000_000)
    let second: UInt64 = 1_000_000_000

    @Test func eachUserHasOneSlotAndTheEarliestIsArmed() throws {
        var slots = WakeSlots()
        #expect(slots.isEmpty && slots.earliest == nil)
        try slots.set(now + 7200, for: 1000, now: now, tick: 0)
        try slots.set(now + 3600, for: 1001, now: now, tick: 0)
        #expect(slots.earliest == now + 3600)
        // Replacing one's own slot never touches another's.
        try slots.set(now + 9000, for: 1001, now: now, tick: 1)
        #expect(slots.slot(of: 1000) == now + 7200 && slots.slot(of: 1001) == now + 9000)
        #expect(slots.earliest == now + 7200)
        try slots.set(nil, for: 1000, now: now, tick: 2)
        #expect(slots.slot(of: 1000) == nil && slots.earliest == now + 9000)
        try slots.set(nil, for: 1001, now: now, tick: 3)
        #expect(slots.isEmpty)
    }

    @Test func instantsNotAfterNowOrBeyond400DaysAreRefusedAndChangeNothing() throws {
        var slots = WakeSlots()
        try slots.set(now + 60, for: 1000, now: now, tick: 0)
        #expect(throws: WakeSlots.Refusal.inThePast(at: now, now: now)) { try slots.set(now, for: 1000, now: now, tick: 1) }
        let latest = now + 400 * 86_400
        try slots.set(latest, for: 1001, now: now, tick: 0)
        #expect(throws: WakeSlots.Refusal.tooFarAhead(at: latest + 1, latest: latest)) { try slots.set(latest + 1, for: 1000, now: now, tick: 2) }
        #expect(slots.slot(of: 1000) == now + 60)
    }

    @Test func tenChangesASecondPerUserThenRefusedUntilTheSecondHasPassed() throws {
        var slots = WakeSlots()
        for step in 0..<10 { try slots.set(now + Int64(100 + step), for: 1000, now: now, tick: UInt64(step) * 10_000_000) }
        #expect(throws: WakeSlots.Refusal.tooManyChanges(limit: 10)) { try slots.set(now + 500, for: 1000, now: now, tick: 500_000_000) }
        #expect(slots.slot(of: 1000) == now + 109, "a refused change changes nothing")
        // Another user is not held back; the first one is again a second after its first change.
        try slots.set(now + 600, for: 1001, now: now, tick: 500_000_000)
        try slots.set(now + 700, for: 1000, now: now, tick: second)
        #expect(slots.slot(of: 1000) == now + 700)
        // A refusal does not count against the limit.
        var other = WakeSlots()
        for step in 0..<20 { _ = try? other.set(now - 1, for: 7, now: now, tick: UInt64(step)) }
        try other.set(now + 1, for: 7, now: now, tick: 20)
    }

    @Test func slotsThatPassExpireAndOldRateHistoryIsForgotten() throws {
        var slots = WakeSlots()
        try slots.set(now + 10, for: 1000, now: now, tick: 0)
        try slots.set(now + 20, for: 1001, now: now, tick: 0)
        #expect(slots.expire(now: now + 9).isEmpty)
        #expect(slots.expire(now: now + 10) == [1000])
        #expect(slots.earliest == now + 20)
        #expect(slots.expire(now: now + 3600) == [1001])
        #expect(slots.isEmpty)
        slots.forgetOldChanges(tick: 2 * second)
        for step in 0..<10 { try slots.set(now + 30, for: 1000, now: now, tick: 2 * second + UInt64(step)) }
    }
}

private extension WakeInstant {
    /// `instant` moved by whole seconds, for literal times.
    static func + (instant: WakeInstant, seconds: Int64) -> WakeInstant { instant.adding(seconds: seconds) }
    static func - (instant: WakeInstant, seconds: Int64) -> WakeInstant { instant.adding(seconds: -seconds) }
}

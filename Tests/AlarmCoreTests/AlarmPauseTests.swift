// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// A skip of the next occurrence and a pause over it: the pause spends the
/// skip, which must not silence the first occurrence after the pause.
@Suite struct AlarmPauseTests {
    /// Friday 2026-12-04 10:00 UTC; a weekday alarm at 08:00 rings next on Monday the 7th.
    static let now = Date(timeIntervalSince1970: 1_796_378_400)

    static func alarm(pausedUntil day: String) throws -> Alarm {
        var alarm = Alarm(time: try TimeOfDay(hour: 8, minute: 0), days: .weekdays, created: now)
        alarm.skipNext = true
        alarm.pausedUntil = try #require(CivilTime.dayNumber(isoDate: day))
        return alarm
    }

    @Test func aPauseOverTheSkippedOccurrenceSpendsTheSkip() throws {
        var alarm = try Self.alarm(pausedUntil: "2026-12-14")
        alarm.spendSkipCoveredByPause(now: Self.now, systemZone: .utc)
        #expect(!alarm.skipNext)
        #expect(alarm.nextFire(after: Self.now, in: .utc) == Date(timeIntervalSince1970: 1_797_235_200), "Monday 14 December, 08:00")
    }

    @Test func aPauseThatEndsBeforeTheSkippedOccurrenceLeavesTheSkip() throws {
        var alarm = try Self.alarm(pausedUntil: "2026-12-07")
        alarm.spendSkipCoveredByPause(now: Self.now, systemZone: .utc)
        #expect(alarm.skipNext, "Monday the 7th is the next occurrence, not covered by the pause")
    }
}

// SPDX-License-Identifier: Apache-2.0
/// The time rule of an alarm: a local time of day on a set of weekdays (every day
/// for a one-shot alarm, which takes the first occurrence).
///
/// Like snooze(1)'s `find_next`, this is a pure function of the instant it starts
/// from; it never looks at a clock.
public struct DailyRule: Hashable, Sendable {
    public let secondsIntoDay: Int32
    /// Empty means any day (one-shot).
    public let days: RepeatDays

    public init(time: TimeOfDay, days: RepeatDays) {
        secondsIntoDay = Int32(time.secondsIntoDay)
        self.days = days
    }

    /// The first firing instant strictly after `instant`, in `rules`' zone.
    ///
    /// Walks at most nine local days: the day before (an overlap can put the
    /// clock back across midnight), today, and a week ahead plus one, which always
    /// contains an allowed weekday.
    public func nextFire(after instant: Int64, rules: ZoneRules) -> Int64 {
        let localNow = instant + Int64(rules.offset(at: instant))
        let today = CivilTime.floorDiv(localNow, CivilTime.secondsPerDay)
        let mask = days.isEmpty ? RepeatDays.everyDay.rawValue : days.rawValue
        var day = today - 1
        var weekday = UInt8(CivilTime.floorMod(day + 4, 7))
        while true {
            if mask & (1 << weekday) != 0 {
                let candidate = rules.instant(forWall: day * CivilTime.secondsPerDay + Int64(secondsIntoDay))
                if candidate > instant { return candidate }
            }
            day += 1
            weekday = weekday == 6 ? 0 : weekday + 1
        }
    }

    /// The next `count` firing instants after `instant`.
    public func preview(count: Int, after instant: Int64, rules: ZoneRules) -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(max(0, count))
        var cursor = instant
        for _ in 0..<max(0, count) {
            cursor = nextFire(after: cursor, rules: rules)
            result.append(cursor)
        }
        return result
    }
}

// SPDX-License-Identifier: Apache-2.0
extension RecurrenceRule {
    /// The first firing instant strictly after `instant` of this rule at
    /// `secondsIntoDay` local time in `rules`' zone, or `nil` when the rule
    /// gives no more days. The time rules are ``DailyRule``'s: a time in a DST
    /// gap fires shifted past it, a repeated time at its first occurrence.
    ///
    /// Starts from the day before the local day of `instant` (an overlap can
    /// put the clock back across midnight), so it never misses a day.
    public func nextFire(after instant: Int64, secondsIntoDay: Int32, rules: ZoneRules) -> Int64? {
        var day = rules.localDay(at: instant) - 2
        while let next = nextDay(after: day) {
            let candidate = rules.instant(forWall: next * CivilTime.secondsPerDay + Int64(secondsIntoDay))
            if candidate > instant { return candidate }
            day = next
        }
        return nil
    }

    /// Whether the rule gives `day` (after its start, end and exceptions).
    public func occurs(on day: Int64) -> Bool { nextDay(after: day - 1) == day }

    /// Every `interval`-th week on `days` (none: the start's weekday),
    /// from `start`: `--days` with a start or an end, or `--every 2w`.
    public static func weekly(on days: RepeatDays, every interval: Int = 1, start: Int64) -> RecurrenceRule {
        RecurrenceRule(.weekly, interval: interval, byDay: days.days.map { DayOfWeek($0) }, start: start)
    }
}

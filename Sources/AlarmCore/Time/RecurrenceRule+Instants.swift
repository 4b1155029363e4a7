extension RecurrenceRule {
    /// The first firing instant strictly after `instant` of this rule at
    /// `secondsIntoDay` local time in `rules`' zone, or `nil` when the rule
    /// gives no more days. The time rules are ``DailyRule``'s: a time in a DST
    /// gap fires shifted past it, a repeated time at its first occurrence.
    ///
    /// Starts from the day before the local day of `instant` (an overlap can
    /// put the clock back across midnight), so it never misses a day.
    public func nextFire(after instant: Int64, secondsIntoDay: Int32, rules: ZoneRules) -> Int64? {
        let localNow = instant + Int64(rules.offset(at: instant))
        var day = CivilTime.floorDiv(localNow, CivilTime.secondsPerDay) - 2
        while let next = nextDay(after: day) {
            let candidate = rules.instant(forWall: next * CivilTime.secondsPerDay + Int64(secondsIntoDay))
            if candidate > instant { return candidate }
            day = next
        }
        return nil
    }

    /// Whether the rule gives `day` (after its start, end and exceptions).
    public func occurs(on day: Int64) -> Bool { nextDay(after: day - 1) == day }

    /// The weekly rule that `days` stands for: weekday repeats are the weekly
    /// case with interval 1, counted from the epoch (any start before the
    /// alarm was made gives the same days). `nil` for a one-shot alarm.
    public init?(weekdays days: RepeatDays) {
        guard !days.isEmpty else { return nil }
        self.init(.weekly, byDay: days.days.map { DayOfWeek($0) }, start: 0)
    }
}

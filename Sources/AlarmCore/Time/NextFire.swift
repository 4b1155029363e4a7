// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Something that fires at computable instants: an alarm or a reminder.
public protocol Schedulable: Sendable {
    /// The first firing instant strictly after `instant`, or `nil` when it will not
    /// fire again. `systemZone` is the zone floating items follow; pinned alarms
    /// use their own and reminders, being absolute, use none.
    func nextFire(after instant: Date, in systemZone: Zone) -> Date?
}

extension Schedulable {
    /// The next `count` firing instants after `instant` (fewer if it stops firing).
    public func preview(count: Int, after instant: Date, in systemZone: Zone) -> [Date] {
        var result: [Date] = []
        var cursor = instant
        while result.count < count, let next = nextFire(after: cursor, in: systemZone) {
            result.append(next)
            cursor = next
        }
        return result
    }
}

extension Alarm: Schedulable {
    /// The weekday repeat on its own, for the fast path and the benchmarks.
    public var rule: DailyRule { DailyRule(time: time, days: days) }

    /// The zone this alarm's wall times are read in.
    public func effectiveZone(system: Zone) -> Zone { timeZone ?? system }

    /// Next occurrence of the alarm's time after `instant`, ignoring `enabled` and
    /// `skipNext` (those are the scheduler's business).
    public func nextFire(after instant: Date, in systemZone: Zone) -> Date? {
        nextFire(after: instant, rules: effectiveZone(system: systemZone).rules, holidays: .empty)
    }

    /// The same, passing over the days `holidays` lists when the alarm skips
    /// holidays.
    public func nextFire(after instant: Date, in systemZone: Zone, holidays: HolidayCalendar) -> Date? {
        nextFire(after: instant, rules: effectiveZone(system: systemZone).rules, holidays: holidays)
    }

    /// The same, with the system zone's rules already at hand.
    public func nextFire(after instant: Date, systemRules: ZoneRules, holidays: HolidayCalendar = .empty) -> Date? {
        nextFire(after: instant, rules: timeZone?.rules ?? systemRules, holidays: holidays)
    }

    /// How many holidays in a row an alarm passes over before it is taken
    /// to never ring again (a holiday file that lists every day).
    static let holidaySearchLimit = 3_660

    private func nextFire(after instant: Date, rules: ZoneRules, holidays: HolidayCalendar) -> Date? {
        var after = instant.epochSecondsFloor
        // Nearly every alarm: weekdays only, one walk of at most nine days.
        guard recurrence != nil || pausedUntil != nil || skipHolidays else {
            return Date(epochSeconds: rule.nextFire(after: after, rules: rules))
        }
        if let pausedUntil {
            // The first instant of the day it resumes on, less one second.
            after = max(after, rules.instant(forWall: pausedUntil * CivilTime.secondsPerDay) - 1)
        }
        let skipping = skipHolidays && !holidays.isEmpty
        for _ in 0..<Self.holidaySearchLimit {
            let next: Int64? = if let recurrence {
                recurrence.nextFire(after: after, secondsIntoDay: Int32(time.secondsIntoDay), rules: rules)
            } else {
                rule.nextFire(after: after, rules: rules)
            }
            guard let next else { return nil }
            guard skipping, holidays.contains(rules.localDay(at: next)) else { return Date(epochSeconds: next) }
            after = next
        }
        return nil
    }

    /// Whether `occurrence` is the alarm's last: a one-shot alarm's only one,
    /// or the last day of a rule that ends. The alarm switches itself off
    /// once it is over.
    public func isLast(_ occurrence: Date, in systemZone: Zone, holidays: HolidayCalendar) -> Bool {
        if isOneShot { return true }
        guard let recurrence, recurrence.end != nil else { return false }
        return nextFire(after: occurrence, in: systemZone, holidays: holidays) == nil
    }
}

extension Reminder: Schedulable {
    /// The due instant while it is still ahead and the reminder is not done.
    public func nextFire(after instant: Date, in systemZone: Zone) -> Date? {
        guard !done, let due, due > instant else { return nil }
        return due
    }

    /// The due instant of the next occurrence, for a recurring reminder
    /// being marked done: the same local time of day in `systemZone`
    /// (reminders follow the system zone) on the rule's first day after both
    /// the current due time and `now` — one done days late comes back next
    /// time, not as a string of overdue ones. `nil` when the rule has no more
    /// (or there is no rule or no due time): then done is done.
    public func nextDue(after now: Date, in systemZone: Zone) -> Date? {
        guard let recurrence, let due else { return nil }
        let rules = systemZone.rules
        let instant = due.epochSecondsFloor
        let local = instant + Int64(rules.offset(at: instant))
        let secondsIntoDay = Int32(CivilTime.floorMod(local, CivilTime.secondsPerDay))
        let after = max(instant, now.epochSecondsFloor)
        return recurrence.nextFire(after: after, secondsIntoDay: secondsIntoDay, rules: rules).map(Date.init(epochSeconds:))
    }
}

extension Date {
    /// Whole seconds since the epoch, rounded toward the past.
    public var epochSecondsFloor: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }

    public init(epochSeconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(epochSeconds)) }
}

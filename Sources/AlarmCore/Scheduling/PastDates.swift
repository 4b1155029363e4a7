// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Dates a person gives an alarm that are already over: a `--date` or an
/// `--until` in the past makes an alarm that is on and never rings, and a
/// pause that ended in the past replaces a pause still running with none.
/// Only the daemon knows its clock, so it refuses these when an alarm is
/// added or changed; the error names the wire field and the date.
///
/// Only what the change sets is checked: a pause or a rule that has run out
/// since is what an alarm is left with over time, and editing its label
/// must still work.
public enum PastDates {
    public static let inThePast = N_("is in the past")
    public static let passedToday = N_("is today, at a time already past")
    public static let noOccurrenceAhead = N_("leaves no occurrence ahead")

    /// Checks `item`, added (`before` is `nil`) or changed from `before`, at
    /// `now`; `systemZone` is the zone a floating alarm follows. Reminders,
    /// whose past due instant is an overdue to-do, pass.
    public static func check(_ item: Item, before: Item?, now: Date, systemZone: Zone) throws(ValidationError) {
        guard case .alarm(let alarm) = item else { return }
        var previous: Alarm?
        if case .alarm(let known)? = before { previous = known }
        let rules = alarm.effectiveZone(system: systemZone).rules
        let today = rules.localDay(at: now.epochSecondsFloor)
        if let pausedUntil = alarm.pausedUntil, pausedUntil != previous?.pausedUntil, pausedUntil < today {
            throw ValidationError(field: "pausedUntil", requirement: inThePast, value: RecurrenceRule.dateText(pausedUntil))
        }
        // A pause that outlasts the rule is a choice, not a date gone by.
        var unpaused = alarm
        unpaused.pausedUntil = nil
        guard alarm.enabled, let rule = alarm.recurrence, before.map({ !item.hasSameSchedule(as: $0) }) ?? true,
              unpaused.nextFire(after: now, in: systemZone) == nil
        else { return }
        throw ended(rule, today: today)
    }

    /// How `day`, the last one the rule allows, stands to `today`.
    private static func requirement(_ day: Int64, today: Int64) -> String {
        day < today ? inThePast : day == today ? passedToday : noOccurrenceAhead
    }

    /// Which part of `rule`, whose occurrences are all before now, to name.
    private static func ended(_ rule: RecurrenceRule, today: Int64) -> ValidationError {
        if rule.isSingleDay {
            return ValidationError(field: "rule.starting", requirement: requirement(rule.start, today: today), value: RecurrenceRule.dateText(rule.start))
        }
        switch rule.end {
        case .until(let last)?:
            return ValidationError(field: "rule.until", requirement: requirement(last, today: today), value: RecurrenceRule.dateText(last))
        case .count(let count)?:
            return ValidationError(field: "rule.times", requirement: noOccurrenceAhead, value: String(count))
        case nil:
            return ValidationError(field: "rule", requirement: noOccurrenceAhead, value: rule.displayText)
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// The calendar repeats behind the alarm form's "More" choice: the daemon's
/// rules in the shapes a person picks from.
public enum MoreRepeat: Equatable, Sendable {
    /// Every `n` days from the start day.
    case everyDays(Int)
    /// Every `n` weeks, on the form's weekdays (the start's weekday when none).
    case everyWeeks(Int)
    /// Every month on a day, 1–31, or -1 for the last.
    case monthly(day: Int)
    /// Every year on a month (1–12) and day.
    case yearly(month: Int, day: Int)
    /// Once, on a day (a day number).
    case once(day: Int64)
    /// A rule made elsewhere (alarmctl, a calendar) that the form shows in
    /// words and sends back unchanged.
    case kept(RecurrenceRule)

    /// The form of `rule` this choice can show and edit.
    public init(_ rule: RecurrenceRule) {
        let plain = rule.end == nil && rule.exceptions.isEmpty && rule.byMonth.isEmpty
        let noOrdinals = rule.byDay.allSatisfy { $0.ordinal == nil }
        if rule.isSingleDay, rule.exceptions.isEmpty {
            self = .once(day: rule.start)
        } else if plain, rule.frequency == .daily, rule.byDay.isEmpty, rule.byMonthDay.isEmpty {
            self = .everyDays(rule.interval)
        } else if plain, rule.frequency == .weekly, noOrdinals {
            self = .everyWeeks(rule.interval)
        } else if plain, rule.frequency == .monthly, rule.interval == 1, rule.byDay.isEmpty, rule.byMonthDay.count == 1,
                  let day = rule.byMonthDay.first, day == -1 || (1...31).contains(day) {
            self = .monthly(day: day)
        } else if rule.end == nil, rule.exceptions.isEmpty, rule.frequency == .yearly, rule.interval == 1, rule.byDay.isEmpty,
                  rule.byMonth.count == 1, rule.byMonthDay.count == 1, let month = rule.byMonth.first, let day = rule.byMonthDay.first, day > 0 {
            self = .yearly(month: month, day: day)
        } else {
            self = .kept(rule)
        }
    }

    /// The rule to send, starting on `start` (for intervals to count from);
    /// `days` are the form's weekdays, for `everyWeeks`.
    public func rule(start: Int64, days: RepeatDays) -> RecurrenceRule {
        switch self {
        case .everyDays(let n):
            return RecurrenceRule(.daily, interval: n, start: start)
        case .everyWeeks(let n):
            return RecurrenceRule(.weekly, interval: n, byDay: days.days.map { RecurrenceRule.DayOfWeek($0) }, start: start)
        case .monthly(let day):
            return RecurrenceRule(.monthly, byMonthDay: [day], start: start)
        case .yearly(let month, let day):
            return RecurrenceRule(.yearly, byMonthDay: [day], byMonth: [month], start: start)
        case .once(let day):
            return RecurrenceRule.once(on: day)
        case .kept(let rule):
            return rule
        }
    }
}

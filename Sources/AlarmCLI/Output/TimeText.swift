// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmLocale
import AlarmViewModels
import FoundationEssentials

/// Instants from the daemon (RFC 3339 strings) shown as local times, in the
/// forms of the reader's LC_TIME (ISO dates and 24-hour times under C).
struct TimeText {
    let zone: Zone
    let now: Date

    init(_ context: CommandContext) {
        zone = context.systemZone
        now = context.now
    }

    private var rules: ZoneRules { zone.rules }
    /// How far ahead a day is said without its year (`Jan 5`, `Fri, Jan 5 07:30`).
    private static let daysWithoutYear = 300
    private var l: GettextLocalization { userLanguage }

    /// `Jan 5` for a wire date (`2027-01-05`) in the coming year, else
    /// `2028-01-05`; `nil` when it is not after today (a pause that is over).
    func dayAhead(_ text: String?) -> String? {
        guard let text, let day = CivilTime.dayNumber(isoDate: text) else { return nil }
        let today = RuleOptions.today(now, in: zone)
        guard day > today else { return nil }
        let date = CivilTime.date(dayNumber: day)
        return day - today < Self.daysWithoutYear ? l.monthDay(month: date.month, day: date.day) : l.date(year: date.year, month: date.month, day: date.day)
    }

    /// Day `day` as ``dayAhead(_:)`` says it, or as `2026-12-24` when it is
    /// today or past.
    func dayText(_ day: Int64) -> String {
        let text = RecurrenceRule.dateText(day)
        return dayAhead(text) ?? text
    }

    /// `2026-12-24` (a wire instant's local day), for an all-day due date.
    func day(_ text: String?) -> String {
        guard let date = Self.instant(text) else { return "—" }
        return l.date(of: local(date))
    }

    /// Reads a wire instant; `nil` for null, a missing value, or text that is not one.
    static func instant(_ value: String?) -> Date? {
        guard let text = value, !text.isEmpty else { return nil }
        return try? InstantParser.parse(text, rules: Zone.utc.rules)
    }

    private func local(_ date: Date) -> LocalDateTime { rules.localDateTime(at: date.epochSecondsFloor) }

    /// `Tue 07:30` within the coming week (a weekday alone is unambiguous
    /// there), `Fri, Mar 20 07:30` later in the coming year (as ``dayAhead(_:)``
    /// says a day), otherwise `2028-03-20 07:30`; `—` for none.
    func short(_ text: String?) -> String {
        guard let date = Self.instant(text) else { return "—" }
        let ahead = date.timeIntervalSince(now)
        let local = local(date)
        if ahead > -86_400, ahead < 6 * 86_400 { return l.weekdayTime(local) }
        if ahead > 0, ahead < Double(Self.daysWithoutYear * 86_400) { return l.weekdayMonthDayTime(local) }
        return l.dateTime(local)
    }

    /// When a wire instant comes, as a phone says it after an alarm is set:
    /// `in 8 h 5 min (Thu 07:00)` within the coming week (``DurationText``), else
    /// `2030-01-07 07:30`; `—` for none.
    func coming(_ text: String?) -> String {
        guard let date = Self.instant(text) else { return "—" }
        let ahead = date.timeIntervalSince(now)
        guard ahead >= 0, ahead < 6 * 86_400 else { return short(text) }
        return Lf("in %1$s (%2$s)", DurationText.text(ahead, in: l), short(text))
    }

    /// `2026-03-09 14:00`; `—` for none.
    func dateTime(_ text: String?) -> String {
        guard let date = Self.instant(text) else { return "—" }
        return l.dateTime(local(date))
    }

    /// `2026-03-09 07:30:00`, for event lines.
    func seconds(_ text: String?) -> String {
        guard let date = Self.instant(text) else { return text ?? "—" }
        return l.dateTime(local(date), seconds: true)
    }

    /// `2026-03-09 Mon 14:00 +01:00` (seconds shown when not zero); `—` for none.
    func full(_ text: String?) -> String {
        guard let date = Self.instant(text) else { return "—" }
        let local = local(date)
        return l.dateWeekdayTime(local, seconds: local.second != 0) + " " + local.offsetText
    }

    /// `14:00` today, or `Tue 14:00` otherwise — for "snoozed until".
    func clock(_ text: String?) -> String {
        guard let date = Self.instant(text) else { return "—" }
        let local = local(date)
        return self.local(now).dateText == local.dateText ? l.time(of: local) : short(text)
    }
}

extension TimeText {
    /// `2026-03-09 Mon 07:30`, for lists of firings; with seconds when
    /// `seconds` says so, or, by default, when they are not zero.
    func dayAndTime(_ text: String?, seconds: Bool? = nil) -> String {
        guard let date = Self.instant(text) else { return "—" }
        let local = zone.rules.localDateTime(at: date.epochSecondsFloor)
        return l.dateWeekdayTime(local, seconds: seconds ?? (local.second != 0))
    }

}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// Instants and days as a list says them, relative to now in the reader's
/// zone: `07:39` today, `Fri 07:39` within the week, `Dec 14` within the
/// year, `2027-12-14` (in the locale's form) beyond.
struct DayText {
    let now: Date
    let zone: Zone

    var today: Int64 { zone.rules.localDay(at: now.epochSecondsFloor) }

    func local(_ instant: Date) -> LocalDateTime { zone.rules.localDateTime(at: instant.epochSecondsFloor) }

    func day(of instant: Date) -> Int64 { zone.rules.localDay(at: instant.epochSecondsFloor) }

    /// A time of day today, "tomorrow 18:00", with its weekday within the
    /// coming week, else with its date.
    func clock(_ instant: Date, in l: some Localization) -> String {
        let local = local(instant)
        let ahead = day(of: instant) - today
        if ahead == 0 { return l.time(of: local) }
        if ahead == 1 { return l.Lf("tomorrow %s", l.time(of: local)) }
        if (2...6).contains(ahead) { return l.weekdayTime(local) }
        return l.Lf("%1$s %2$s", date(day(of: instant), in: l), l.time(of: local))
    }

    /// A day: its month and day within the coming 300 days, else with its year.
    func date(_ day: Int64, in l: some Localization) -> String {
        let date = CivilTime.date(dayNumber: day)
        return abs(day - today) < 300 ? l.monthDay(month: date.month, day: date.day) : l.date(year: date.year, month: date.month, day: date.day)
    }

    /// A day within the coming week by its weekday, else by its date.
    func weekdayOrDate(_ day: Int64, in l: some Localization) -> String {
        (0...6).contains(day - today) ? l.weekday(CivilTime.weekday(dayNumber: day)) : date(day, in: l)
    }
}

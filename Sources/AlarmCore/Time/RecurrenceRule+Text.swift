// SPDX-License-Identifier: Apache-2.0
extension RecurrenceRule {
    /// Short month names, January first.
    public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The rule in words, as a list's repeat column shows it: `Every 3 days`,
    /// `Every 2 weeks on Mon, Thu`, `Monthly on day 15`, `Monthly on the last
    /// day`, `Monthly on the 2nd Tue`, `Yearly on Dec 24`, `Once on Thu, Dec
    /// 24`, then `, until Jun 30`, `, 3 times`, `, except 2 dates`. Dates in
    /// another year than the start's carry their year. The wire's and the
    /// journal's form; people read `text(in:)`.
    public var displayText: String { text(in: .source) }

    /// `displayText` in a language.
    public func text(in l: some Localization) -> String {
        if isSingleDay { return l.Lf("Once on %s", Self.dayText(start, weekday: true, yearOf: nil, l)) + exceptText(l) }
        var text = periodText(l)
        if !byMonth.isEmpty, frequency != .yearly || !byDay.isEmpty || byMonthDay.count > 1 || byMonthDay.first.map({ $0 < 0 }) == true {
            text = l.Lf("%1$s in %2$s", text, l.list(byMonth.sorted().map { l.monthName($0) }))
        }
        switch end {
        case .until(let day)?: text += l.Lf(", until %s", Self.dayText(day, weekday: false, yearOf: start, l))
        case .count(let count)?: text += count == 1 ? l.L(", once") : l.Ln(", %d time", ", %d times", count)
        case nil: break
        }
        return text + exceptText(l)
    }

    /// Exactly one day: `--date`, which is a daily rule that ends after once
    /// (or on its start).
    public var isSingleDay: Bool {
        guard frequency == .daily, byDay.isEmpty, byMonthDay.isEmpty, byMonth.isEmpty else { return false }
        switch end {
        case .count(1)?: return true
        case .until(let day)?: return day == start
        default: return false
        }
    }

    /// What a monthly or yearly rule on day 29–31 passes over, for lists and
    /// `preview` to say: `months without day 31 are skipped`; `nil` otherwise.
    public var skippedMonthsNote: String? {
        guard frequency == .monthly || frequency == .yearly, byDay.isEmpty, let day = byMonthDay.filter({ $0 >= 29 }).max() else { return nil }
        if frequency == .monthly { return day == 31 ? N_("months without day 31 are skipped") : day == 30 ? N_("months without day 30 are skipped") : N_("months without day 29 are skipped") }
        // The shortest each month gets (February: 28, in common years).
        let shortest = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return byMonth.contains(where: { shortest[$0 - 1] < day }) ? N_("years without that day are skipped") : nil
    }

    /// One day only: `frequency` daily, ending after once.
    public static func once(on day: Int64) -> RecurrenceRule { RecurrenceRule(.daily, start: day, end: .count(1)) }

    /// `Every 3 days`; an interval of 1 reads `Every day`, `Weekly` and the like instead.
    private func every(_ l: some Localization) -> String {
        switch frequency {
        case .daily: return l.Ln("Every %d day", "Every %d days", interval)
        case .weekly: return l.Ln("Every %d week", "Every %d weeks", interval)
        case .monthly: return l.Ln("Every %d month", "Every %d months", interval)
        case .yearly: return l.Ln("Every %d year", "Every %d years", interval)
        }
    }

    private func periodText(_ l: some Localization) -> String {
        let weekdays = byDay.map { $0.weekday }
        switch frequency {
        case .daily:
            let base = interval == 1 ? l.L("Every day") : every(l)
            guard !weekdays.isEmpty else { return base + monthDaysText(l) }
            return l.Lf("%1$s on %2$s", base, l.list(RepeatDays(weekdays).days.map(l.weekday)))
        case .weekly:
            let days = RepeatDays(byDay.isEmpty ? [CivilTime.weekday(dayNumber: start)] : weekdays)
            return interval == 1 ? days.text(in: l) : l.Lf("%1$s on %2$s", every(l), l.list(days.days.map(l.weekday)))
        case .monthly:
            let base = interval == 1 ? l.L("Monthly") : every(l)
            return l.Lf("%1$s on %2$s", base, onDaysText(defaultDay: CivilTime.date(dayNumber: start).day, l))
        case .yearly:
            let base = interval == 1 ? l.L("Yearly") : every(l)
            if byDay.isEmpty, byMonthDay.isEmpty || (byMonthDay.count == 1 && byMonthDay[0] > 0) {
                let date = CivilTime.date(dayNumber: start)
                let day = byMonthDay.first ?? date.day
                let months = byMonth.isEmpty ? [date.month] : byMonth.sorted()
                return l.Lf("%1$s on %2$s", base, l.list(months.map { l.monthDay(month: $0, day: day) }))
            }
            return l.Lf("%1$s on %2$s", base, onDaysText(defaultDay: CivilTime.date(dayNumber: start).day, l))
        }
    }

    private func monthDaysText(_ l: some Localization) -> String {
        byMonthDay.isEmpty ? "" : l.Lf(" on %s", l.list(byMonthDay.map { Self.monthDayText($0, l) }))
    }

    /// `day 15`, `the last day`, `the 2nd Tue`, `Mon, Fri`.
    private func onDaysText(defaultDay: Int, _ l: some Localization) -> String {
        var parts: [String] = []
        if !byMonthDay.isEmpty { parts.append(l.list(byMonthDay.map { Self.monthDayText($0, l) })) }
        if !byDay.isEmpty {
            parts.append(l.list(byDay.map { entry in
                entry.ordinal.map { l.Lf("the %1$s %2$s", Self.ordinalText($0, l), l.weekday(entry.weekday)) } ?? l.weekday(entry.weekday)
            }))
        }
        if parts.isEmpty { parts.append(Self.monthDayText(defaultDay, l)) }
        // Both: the named days that fall on the named weekdays (Friday the 13th).
        return parts.count == 2 ? l.Lf("%1$s if a %2$s", parts[0], parts[1]) : parts[0]
    }

    static func monthDayText(_ day: Int, _ l: some Localization) -> String {
        switch day {
        case -1: return l.L("the last day")
        case ..<0: return l.Lf("the %s last day", ordinalText(-day, l))
        default: return l.Lf("day %d", day)
        }
    }

    /// `1st`, `2nd`, `3rd`, `4th`, `last`, `2nd last`.
    static func ordinalText(_ ordinal: Int, _ l: some Localization) -> String {
        if ordinal == -1 { return l.L("last") }
        if ordinal < 0 { return l.Lf("%s last", ordinalText(-ordinal, l)) }
        if (11...13).contains(ordinal % 100) { return l.Lf("%dth", ordinal) }
        switch ordinal % 10 {
        case 1: return l.Lf("%dst", ordinal)
        case 2: return l.Lf("%dnd", ordinal)
        case 3: return l.Lf("%drd", ordinal)
        default: return l.Lf("%dth", ordinal)
        }
    }

    private func exceptText(_ l: some Localization) -> String {
        switch exceptions.count {
        case 0: return ""
        case 1: return l.Lf(", except %s", Self.dayText(exceptions.first!, weekday: false, yearOf: start, l))
        default: return l.Ln(", except %d date", ", except %d dates", exceptions.count)
        }
    }

    /// `Dec 24`, `Thu, Dec 24`; with the year when it differs from `yearOf`'s
    /// (always, when `yearOf` is `nil` and the weekday is not shown).
    static func dayText(_ day: Int64, weekday: Bool, yearOf reference: Int64?, _ l: some Localization) -> String {
        let date = CivilTime.date(dayNumber: day)
        var text = l.monthDay(month: date.month, day: date.day)
        if let reference, CivilTime.date(dayNumber: reference).year != date.year { text = l.Lf("%1$s, %2$d", text, date.year) }
        return weekday ? l.Lf("%1$s, %2$s", l.weekday(CivilTime.weekday(dayNumber: day)), text) : text
    }
}

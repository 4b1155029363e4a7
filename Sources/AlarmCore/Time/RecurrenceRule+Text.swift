extension RecurrenceRule {
    /// Short month names, January first.
    public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The rule in words, as a list's repeat column shows it: `Every 3 days`,
    /// `Every 2 weeks on Mon, Thu`, `Monthly on day 15`, `Monthly on the last
    /// day`, `Monthly on the 2nd Tue`, `Yearly on Dec 24`, `Once on Thu, Dec
    /// 24`, then `, until Jun 30`, `, 3 times`, `, except 2 dates`. Dates in
    /// another year than the start's carry their year.
    public var displayText: String {
        if isSingleDay { return "Once on " + Self.dayText(start, weekday: true, yearOf: nil) + exceptText }
        var text = periodText
        if !byMonth.isEmpty, frequency != .yearly || !byDay.isEmpty || byMonthDay.count > 1 || byMonthDay.first.map({ $0 < 0 }) == true {
            text += " in " + byMonth.sorted().map { Self.monthNames[$0 - 1] }.joined(separator: ", ")
        }
        switch end {
        case .until(let day)?: text += ", until " + Self.dayText(day, weekday: false, yearOf: start)
        case .count(let count)?: text += count == 1 ? ", once" : ", \(count) times"
        case nil: break
        }
        return text + exceptText
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
        if frequency == .monthly { return "months without day \(day) are skipped" }
        // The shortest each month gets (February: 28, in common years).
        let shortest = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return byMonth.contains(where: { shortest[$0 - 1] < day }) ? "years without that day are skipped" : nil
    }

    /// One day only: `frequency` daily, ending after once.
    public static func once(on day: Int64) -> RecurrenceRule { RecurrenceRule(.daily, start: day, end: .count(1)) }

    private var every: String {
        let unit = ["daily": "day", "weekly": "week", "monthly": "month", "yearly": "year"][frequency.rawValue]!
        return interval == 1 ? "Every \(unit)" : "Every \(interval) \(unit)s"
    }

    private var periodText: String {
        let weekdays = byDay.map { $0.weekday }
        switch frequency {
        case .daily:
            let base = interval == 1 ? "Every day" : every
            guard !weekdays.isEmpty else { return base + monthDaysText }
            return base + " on " + RepeatDays(weekdays).days.map(\.shortName).joined(separator: ", ")
        case .weekly:
            let days = RepeatDays(byDay.isEmpty ? [CivilTime.weekday(dayNumber: start)] : weekdays)
            return interval == 1 ? days.displayText : every + " on " + days.days.map(\.shortName).joined(separator: ", ")
        case .monthly:
            let base = interval == 1 ? "Monthly" : every
            return base + onDaysText(defaultDay: CivilTime.date(dayNumber: start).day)
        case .yearly:
            let base = interval == 1 ? "Yearly" : every
            if byDay.isEmpty, byMonthDay.isEmpty || (byMonthDay.count == 1 && byMonthDay[0] > 0) {
                let date = CivilTime.date(dayNumber: start)
                let day = byMonthDay.first ?? date.day
                let months = byMonth.isEmpty ? [date.month] : byMonth.sorted()
                return base + " on " + months.map { Self.monthNames[$0 - 1] + " \(day)" }.joined(separator: ", ")
            }
            return base + onDaysText(defaultDay: CivilTime.date(dayNumber: start).day)
        }
    }

    private var monthDaysText: String {
        byMonthDay.isEmpty ? "" : " on " + byMonthDay.map(Self.monthDayText).joined(separator: ", ")
    }

    /// ` on day 15`, ` on the last day`, ` on the 2nd Tue`, ` on Mon, Fri`.
    private func onDaysText(defaultDay: Int) -> String {
        var parts: [String] = []
        if !byMonthDay.isEmpty { parts.append(byMonthDay.map(Self.monthDayText).joined(separator: ", ")) }
        if !byDay.isEmpty {
            parts.append(byDay.map { entry in
                entry.ordinal.map { "the " + Self.ordinalText($0) + " " + entry.weekday.shortName } ?? entry.weekday.shortName
            }.joined(separator: ", "))
        }
        if parts.isEmpty { parts.append(Self.monthDayText(defaultDay)) }
        // Both: the named days that fall on the named weekdays (Friday the 13th).
        return " on " + parts.joined(separator: " if a ")
    }

    static func monthDayText(_ day: Int) -> String {
        switch day {
        case -1: return "the last day"
        case ..<0: return "the " + ordinalText(-day) + " last day"
        default: return "day \(day)"
        }
    }

    /// `1st`, `2nd`, `3rd`, `4th`, `last`, `2nd last`.
    static func ordinalText(_ ordinal: Int) -> String {
        if ordinal == -1 { return "last" }
        if ordinal < 0 { return ordinalText(-ordinal) + " last" }
        let suffix = (11...13).contains(ordinal % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][ordinal % 10] ?? "th"
        return "\(ordinal)\(suffix)"
    }

    private var exceptText: String {
        switch exceptions.count {
        case 0: return ""
        case 1: return ", except " + Self.dayText(exceptions.first!, weekday: false, yearOf: start)
        default: return ", except \(exceptions.count) dates"
        }
    }

    /// `Dec 24`, `Thu, Dec 24`; with the year when it differs from `yearOf`'s
    /// (always, when `yearOf` is `nil` and the weekday is not shown).
    static func dayText(_ day: Int64, weekday: Bool, yearOf reference: Int64?) -> String {
        let date = CivilTime.date(dayNumber: day)
        var text = monthNames[date.month - 1] + " \(date.day)"
        if weekday { text = CivilTime.weekday(dayNumber: day).shortName + ", " + text }
        if let reference, CivilTime.date(dayNumber: reference).year != date.year { text += ", \(date.year)" }
        return text
    }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Which days something recurs on: the subset of RFC 5545's `RRULE` that
/// alarm and to-do tools are asked for — daily, weekly, monthly or yearly,
/// every `interval`-th period, on weekdays (with an ordinal within a month:
/// `2nd Tue`, `last Fri`), days of the month (−1 the last), months; from a
/// start day (`DTSTART`: the first day it may occur, and where intervals
/// count from), until a day or for a number of times, minus exception days.
///
/// Pure, on local dates as day numbers (``CivilTime/dayNumber(year:month:day:)``):
/// the time of day and the zone's rules (DST gaps and repeats) are applied
/// to each day afterwards, as for weekday repeats. The semantics are RFC
/// 5545's as python-dateutil implements them, which the tests check this
/// against: the start day is an occurrence only if the rule gives it; a
/// monthly rule on day 29–31 skips months without that day; `count` counts
/// occurrences before exceptions are taken out; weeks start on Monday.
public struct RecurrenceRule: Hashable, Sendable {
    public enum Frequency: String, CaseIterable, Hashable, Sendable {
        case daily, weekly, monthly, yearly
    }

    /// A weekday, with an ordinal within the month for monthly and yearly
    /// rules: 1…5 from the start, −1…−5 from the end (`-1` is the last).
    public struct DayOfWeek: Hashable, Sendable {
        public var weekday: Weekday
        public var ordinal: Int?

        public init(_ weekday: Weekday, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    public enum End: Hashable, Sendable {
        /// The last day it may occur on (inclusive), as a day number.
        case until(Int64)
        /// How many occurrences in all, counted before exceptions.
        case count(Int)
    }

    public var frequency: Frequency
    public var interval: Int
    public var byDay: [DayOfWeek]
    /// 1…31, or −31…−1 from the month's end.
    public var byMonthDay: [Int]
    /// 1…12.
    public var byMonth: [Int]
    /// The first day it may occur on, as a day number.
    public var start: Int64
    public var end: End?
    /// Days taken out, as day numbers.
    public var exceptions: Set<Int64>

    public static let intervalRange = 1...999
    public static let countRange = 1...9999
    public static let maxExceptions = 366

    public init(_ frequency: Frequency, interval: Int = 1, byDay: [DayOfWeek] = [], byMonthDay: [Int] = [], byMonth: [Int] = [],
                start: Int64, end: End? = nil, exceptions: Set<Int64> = []) {
        self.frequency = frequency
        self.interval = interval
        self.byDay = byDay
        self.byMonthDay = byMonthDay
        self.byMonth = byMonth
        self.start = start
        self.end = end
        self.exceptions = exceptions
    }

    /// Checks the rule against the subset; the first problem is thrown,
    /// named as the wire names the field.
    public func validate() throws(ValidationError) {
        guard Self.intervalRange.contains(interval) else {
            throw ValidationError(field: "interval", requirement: N_("must be 1–999"), value: String(interval))
        }
        for day in byDay {
            guard let ordinal = day.ordinal else { continue }
            guard frequency == .monthly || frequency == .yearly else {
                throw ValidationError(field: "byDay", requirement: N_("may have an ordinal (2nd, last) only in a monthly or yearly rule"), value: "\(ordinal) \(day.weekday.code)")
            }
            guard (1...5).contains(ordinal) || (-5 ... -1).contains(ordinal) else {
                throw ValidationError(field: "byDay", requirement: N_("must have an ordinal of 1–5 or -1 to -5"), value: "\(ordinal) \(day.weekday.code)")
            }
        }
        for day in byMonthDay where day == 0 || !(-31...31).contains(day) {
            throw ValidationError(field: "byMonthDay", requirement: N_("must be 1–31 or -31 to -1"), value: String(day))
        }
        if frequency == .weekly, !byMonthDay.isEmpty {
            throw ValidationError(field: "byMonthDay", requirement: N_("cannot be used with a weekly rule"), value: byMonthDay.map(String.init).joined(separator: ","))
        }
        for month in byMonth where !(1...12).contains(month) {
            throw ValidationError(field: "byMonth", requirement: N_("must be 1–12"), value: String(month))
        }
        if frequency == .yearly, byMonth.isEmpty, !(byDay.isEmpty && byMonthDay.isEmpty) {
            throw ValidationError(field: "byMonth", requirement: N_("must name the months of a yearly rule that names days"), value: "none")
        }
        switch end {
        case .count(let count)?:
            guard Self.countRange.contains(count) else { throw ValidationError(field: "times", requirement: N_("must be 1–9999"), value: String(count)) }
        case .until(let until)?:
            guard until >= start else {
                throw ValidationError(field: "until", requirement: N_("must not be before the start"), value: Self.dateText(until))
            }
        case nil:
            break
        }
        guard exceptions.count <= Self.maxExceptions else {
            throw ValidationError(field: "exceptions", requirement: ValidationError.with(ValidationError.atMostDates, Self.maxExceptions), value: String(exceptions.count))
        }
    }

    /// Checks that the days of the month the rule names exist in one of its
    /// months: `BYMONTH=2;BYMONTHDAY=30` (or a yearly rule in February
    /// that starts on the 30th) passes ``validate()`` but never occurs.
    /// Apart from ``validate()``, which every stored row passes through, so
    /// that a rule stored before this check still loads; readers of new
    /// rules call both.
    public func validateDaysExist() throws(ValidationError) {
        guard frequency != .weekly else { return }
        // The months the rule may give days in; a yearly rule without
        // BYMONTH keeps the start's month.
        var months = byMonth.filter { (1...12).contains($0) }
        if months.isEmpty { months = frequency == .yearly ? [CivilTime.date(dayNumber: start).month] : Array(1...12) }
        let longest = months.map { Self.longestMonth[$0 - 1] }.max() ?? 31
        if !byMonthDay.isEmpty {
            guard byMonthDay.contains(where: { abs($0) <= longest }) else {
                throw ValidationError(field: "byMonthDay", requirement: "must name a day that one of the rule's months has (February has at most 29 days; April, June, September and November 30)",
                                      value: byMonthDay.map(String.init).joined(separator: ","))
            }
        } else if byDay.isEmpty, frequency == .monthly || frequency == .yearly {
            let day = CivilTime.date(dayNumber: start).day
            guard day <= longest else {
                throw ValidationError(field: "byMonth", requirement: "must name a month that has the start's day of the month, \(day)",
                                      value: months.map(String.init).joined(separator: ","))
            }
        }
    }

    /// The most days each month has, January first.
    private static let longestMonth = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    /// The first day strictly after `day` that the rule gives, or `nil` when
    /// it gives no more. Searches at most 400 years (the Gregorian cycle)
    /// past `day`, so a rule that can never occur ends.
    public func nextDay(after day: Int64) -> Int64? {
        if case .count(let count) = end { return nextCounted(after: day, count: count) }
        var period = max(0, periodIndex(of: max(day, start)))
        period -= period % interval
        let limit = period + Self.periods(in: 146_097, of: frequency)
        var found: Int64?
        var ended = false
        while period <= limit, found == nil, !ended {
            forEachOccurrence(inPeriod: period) { candidate in
                guard candidate > day, candidate >= start else { return true }
                if case .until(let until)? = end, candidate > until {
                    ended = true
                    return false
                }
                guard !exceptions.contains(candidate) else { return true }
                found = candidate
                return false
            }
            period += interval
        }
        return found
    }

    /// With a count, every occurrence from the start is counted up to `day`.
    /// The search ends 400 years after the last occurrence counted (not
    /// after the start): a sparse rule's occurrences can span more than that
    /// (Friday the 13th of October every 7 months, 9 times, spans 448 years;
    /// found by the zone differential).
    private func nextCounted(after day: Int64, count: Int) -> Int64? {
        var seen = 0
        var period = 0
        let cycle = Self.periods(in: 146_097, of: frequency) + interval
        var limit = cycle
        var found: Int64?
        while period <= limit, found == nil, seen < count {
            let current = period
            forEachOccurrence(inPeriod: period) { candidate in
                guard candidate >= start else { return true }
                seen += 1
                limit = current + cycle
                if candidate > day, !exceptions.contains(candidate) {
                    found = candidate
                    return false
                }
                return seen < count
            }
            period += interval
        }
        return found
    }

    /// How many periods of `frequency` make `days` days, rounded up.
    private static func periods(in days: Int, of frequency: Frequency) -> Int {
        switch frequency {
        case .daily: return days
        case .weekly: return days / 7 + 1
        case .monthly: return days / 28 + 1
        case .yearly: return days / 365 + 1
        }
    }

    // MARK: Periods

    /// The period (day, week, month or year) `day` falls in, counted from the
    /// start's.
    func periodIndex(of day: Int64) -> Int {
        switch frequency {
        case .daily:
            return Int(day - start)
        case .weekly:
            return Int((Self.weekStart(day) - Self.weekStart(start)) / 7)
        case .monthly:
            return Self.monthIndex(day) - Self.monthIndex(start)
        case .yearly:
            return CivilTime.date(dayNumber: day).year - CivilTime.date(dayNumber: start).year
        }
    }

    /// Calls `body` with each day the rule gives in period `index`, ascending
    /// (before the start, the end and the exceptions are applied), until it
    /// returns `false`. Days are gathered in bit masks rather than arrays:
    /// the scheduler asks this for every item it plans.
    func forEachOccurrence(inPeriod index: Int, _ body: (Int64) -> Bool) {
        switch frequency {
        case .daily:
            let day = start + Int64(index)
            if matchesFilters(day) { _ = body(day) }
        case .weekly:
            let first = Self.weekStart(start) + Int64(index) * 7
            var positions: UInt8 = 0
            for entry in byDay { positions |= 1 << UInt8(entry.weekday.weekPosition) }
            if byDay.isEmpty { positions = 1 << UInt8(CivilTime.weekday(dayNumber: start).weekPosition) }
            let months = monthMask
            for position in 0..<7 where positions & (1 << UInt8(position)) != 0 {
                let day = first + Int64(position)
                if months != 0, months & (1 << UInt16(CivilTime.date(dayNumber: day).month)) == 0 { continue }
                if !body(day) { return }
            }
        case .monthly:
            let month = Self.monthIndex(start) + index
            let (year, number) = (Self.floorDiv(month, 12), Self.floorMod(month, 12) + 1)
            let months = monthMask
            guard months == 0 || months & (1 << UInt16(number)) != 0 else { return }
            _ = forEachDay(year: year, month: number, body)
        case .yearly:
            let year = CivilTime.date(dayNumber: start).year + index
            var months = monthMask
            if months == 0 { months = 1 << UInt16(CivilTime.date(dayNumber: start).month) }
            for month in 1...12 where months & (1 << UInt16(month)) != 0 {
                if !forEachDay(year: year, month: month, body) { return }
            }
        }
    }

    /// `byMonth` as bits 1…12; 0 for none.
    private var monthMask: UInt16 {
        var mask: UInt16 = 0
        for month in byMonth where (1...12).contains(month) { mask |= 1 << UInt16(month) }
        return mask
    }

    /// The days of a monthly or yearly rule in one month, ascending, through
    /// `body`: the named days of the month and weekdays (both, when both are
    /// named), or the start's day of the month; a day the month lacks gives
    /// nothing. `false` when `body` asked to stop.
    private func forEachDay(year: Int, month: Int, _ body: (Int64) -> Bool) -> Bool {
        let length = CivilTime.daysInMonth(year: year, month: month)
        let first = CivilTime.dayNumber(year: year, month: month, day: 1)
        // Bit d is day d of the month.
        var chosen: UInt32
        if byDay.isEmpty && byMonthDay.isEmpty {
            let day = CivilTime.date(dayNumber: start).day
            chosen = day <= length ? 1 << UInt32(day) : 0
        } else {
            var monthDays: UInt32 = ~0
            if !byMonthDay.isEmpty {
                monthDays = 0
                for day in byMonthDay {
                    let resolved = day > 0 ? day : length + 1 + day
                    if (1...length).contains(resolved) { monthDays |= 1 << UInt32(resolved) }
                }
            }
            var weekDays: UInt32 = ~0
            if !byDay.isEmpty {
                weekDays = 0
                let firstWeekday = CivilTime.weekday(dayNumber: first).rawValue
                for entry in byDay {
                    // The first such weekday in the month; the others follow every 7 days.
                    let firstMatch = 1 + (entry.weekday.rawValue - firstWeekday + 7) % 7
                    guard let ordinal = entry.ordinal else {
                        for day in stride(from: firstMatch, through: length, by: 7) { weekDays |= 1 << UInt32(day) }
                        continue
                    }
                    let lastMatch = firstMatch + (length - firstMatch) / 7 * 7
                    let day = ordinal > 0 ? firstMatch + (ordinal - 1) * 7 : lastMatch + (ordinal + 1) * 7
                    if day >= 1, day <= length { weekDays |= 1 << UInt32(day) }
                }
            }
            chosen = monthDays & weekDays
        }
        while chosen != 0 {
            let day = chosen.trailingZeroBitCount
            chosen &= chosen - 1
            if !body(first + Int64(day - 1)) { return false }
        }
        return true
    }

    /// Daily rules take their weekdays, days of the month and months as filters.
    private func matchesFilters(_ day: Int64) -> Bool {
        if !byDay.isEmpty, !byDay.contains(where: { $0.weekday == CivilTime.weekday(dayNumber: day) }) { return false }
        guard !byMonthDay.isEmpty || !byMonth.isEmpty else { return true }
        let date = CivilTime.date(dayNumber: day)
        if !byMonth.isEmpty, !byMonth.contains(date.month) { return false }
        if !byMonthDay.isEmpty {
            let length = CivilTime.daysInMonth(year: date.year, month: date.month)
            guard byMonthDay.contains(where: { $0 == date.day || $0 == date.day - length - 1 }) else { return false }
        }
        return true
    }

    /// The Monday of `day`'s week.
    static func weekStart(_ day: Int64) -> Int64 {
        day - Int64(CivilTime.weekday(dayNumber: day).weekPosition)
    }

    /// Months since year 0 (January of year 0 is 0).
    static func monthIndex(_ day: Int64) -> Int {
        let date = CivilTime.date(dayNumber: day)
        return date.year * 12 + date.month - 1
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int { Int(CivilTime.floorDiv(Int64(a), Int64(b))) }
    private static func floorMod(_ a: Int, _ b: Int) -> Int { Int(CivilTime.floorMod(Int64(a), Int64(b))) }

    /// `2026-12-24`.
    public static func dateText(_ day: Int64) -> String {
        let date = CivilTime.date(dayNumber: day)
        return LocalDateTime.pad(date.year, 4) + "-" + LocalDateTime.pad(date.month, 2) + "-" + LocalDateTime.pad(date.day, 2)
    }
}

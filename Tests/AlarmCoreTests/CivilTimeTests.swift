// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import AlarmCore

// Proleptic-Gregorian day numbers. Anchors come from Python's
// `date(y, m, d).toordinal() - 719163` and `strftime('%A')`; the walk below uses a
// leap-year rule and month lengths written out here, not CivilTime's own.

@Suite("CivilTime")
struct CivilTimeTests {
    static let anchors: [(Int, Int, Int, Int64, Weekday)] = [
        (1970, 1, 1, 0, .thursday),
        (1969, 12, 31, -1, .wednesday),
        (2000, 2, 29, 11_016, .tuesday),
        (2000, 3, 1, 11_017, .wednesday),
        (2024, 2, 29, 19_782, .thursday),
        (2028, 2, 29, 21_243, .tuesday),
        (2026, 3, 8, 20_520, .sunday),
        (2038, 1, 19, 24_855, .tuesday),
        // 1900 is not a leap year: 28 February and 1 March are consecutive.
        (1900, 2, 28, -25_509, .wednesday),
        (1900, 3, 1, -25_508, .thursday),
        (1600, 1, 1, -135_140, .saturday),
        (1582, 10, 15, -141_427, .friday),
        (1066, 10, 14, -329_893, .sunday),
        (1200, 1, 1, -281_237, .saturday),
        (2800, 1, 1, 303_151, .saturday),
        (1, 1, 1, -719_162, .monday),
        (9999, 12, 31, 2_932_896, .friday),
    ]

    @Test(arguments: anchors)
    func knownDates(year: Int, month: Int, day: Int, dayNumber: Int64, weekday: Weekday) {
        #expect(CivilTime.dayNumber(year: year, month: month, day: day) == dayNumber)
        let date = CivilTime.date(dayNumber: dayNumber)
        #expect(date.year == year && date.month == month && date.day == day)
        #expect(CivilTime.weekday(dayNumber: dayNumber) == weekday)
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func length(year: Int, month: Int) -> Int {
        [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Walks day by day from 1200-01-01 (day -281237, a Saturday) to 2800-01-01
    /// (day 303151) with an independent successor function, checking both directions
    /// of the conversion and the weekday cycle at every step; 1600 years cover every
    /// leap-year rule several times over, on both sides of the epoch. The anchors
    /// above and the 400-year cycle (146 097 days) below reach further out.
    @Test func walkEveryDayOfSixteenCenturies() {
        var (year, month, day) = (1200, 1, 1)
        var weekday = Weekday.saturday.rawValue
        var failures = 0
        for dayNumber in Int64(-281_237)..<303_151 {
            let date = CivilTime.date(dayNumber: dayNumber)
            if date.year != year || date.month != month || date.day != day
                || CivilTime.dayNumber(year: year, month: month, day: day) != dayNumber
                || CivilTime.weekday(dayNumber: dayNumber).rawValue != weekday {
                failures += 1
                if failures <= 5 { Issue.record("day \(dayNumber): expected \(year)-\(month)-\(day) (weekday \(weekday)), got \(date)") }
            }
            day += 1
            if day > Self.length(year: year, month: month) {
                day = 1
                month += 1
                if month > 12 { month = 1; year += 1 }
            }
            weekday = (weekday + 1) % 7
        }
        #expect(failures == 0)
        #expect(year == 2800 && month == 1 && day == 1)
        #expect(weekday == Weekday.saturday.rawValue)
    }

    @Test(arguments: [-3_000_000, -1_000_000, -719_163, -719_468, -146_097, 146_097, 10_000_000, 100_000_000] as [Int64])
    func roundTripsFarAway(dayNumber: Int64) {
        let date = CivilTime.date(dayNumber: dayNumber)
        #expect(CivilTime.dayNumber(year: date.year, month: date.month, day: date.day) == dayNumber)
        // Shifting the year by 400 shifts the day number by exactly one cycle.
        #expect(CivilTime.dayNumber(year: date.year - 400, month: date.month, day: date.day) == dayNumber - 146_097)
        #expect(CivilTime.dayNumber(year: date.year + 400, month: date.month, day: date.day) == dayNumber + 146_097)
        // Weekdays repeat every 7 days, also across the epoch and below zero.
        #expect(CivilTime.weekday(dayNumber: dayNumber) == CivilTime.weekday(dayNumber: dayNumber + 7 * 1_000))
    }

    @Test func yearZeroAndBeforeAreLeapByTheProlepticRule() {
        // 0000-12-31 is the day before 0001-01-01; year 0 is divisible by 400, so leap.
        let lastOfYearZero = CivilTime.date(dayNumber: -719_163)
        #expect(lastOfYearZero.year == 0 && lastOfYearZero.month == 12 && lastOfYearZero.day == 31)
        #expect(CivilTime.dayNumber(year: 0, month: 3, day: 1) - CivilTime.dayNumber(year: 0, month: 2, day: 28) == 2)
        #expect(CivilTime.dayNumber(year: -100, month: 3, day: 1) - CivilTime.dayNumber(year: -100, month: 2, day: 28) == 1)
        // 0001-01-01 was a Monday; 0000-01-01 (366 days earlier) a Saturday.
        #expect(CivilTime.weekday(dayNumber: -719_162 - 366) == .saturday)
    }

    @Test(arguments: [(2024, 2, 29), (2000, 2, 29), (1900, 2, 28), (2100, 2, 28), (2023, 2, 28), (2026, 4, 30), (2026, 12, 31), (2026, 1, 31), (2026, 9, 30)])
    func daysInMonth(year: Int, month: Int, days: Int) {
        #expect(CivilTime.daysInMonth(year: year, month: month) == days)
    }

    @Test(arguments: [(7, 2, 3, 1), (-7, 2, -4, 1), (-8, 2, -4, 0), (0, 5, 0, 0), (-1, 86_400, -1, 86_399), (86_399, 86_400, 0, 86_399)] as [(Int64, Int64, Int64, Int64)])
    func floorDivisionRoundsTowardMinusInfinity(a: Int64, b: Int64, quotient: Int64, remainder: Int64) {
        #expect(CivilTime.floorDiv(a, b) == quotient)
        #expect(CivilTime.floorMod(a, b) == remainder)
    }

    /// The one-piece RFC 3339 text is the fields' own texts put together,
    /// for any instant, offset (east and west, with seconds) and fraction,
    /// years outside 0000–9999 included.
    @Test func rfc3339TextIsTheFieldsTextsPutTogether() {
        var generator = SplitMix64(seed: 3339)
        for index in 0..<20_000 {
            let seconds = Int64.random(in: -80_000_000_000...300_000_000_000, using: &generator)
            let offset = index % 5 == 0 ? Int.random(in: -93_600...93_600, using: &generator) : Int.random(in: -56...56, using: &generator) * 900
            let local = LocalDateTime(localSeconds: seconds + Int64(offset), utcOffset: offset)
            let microseconds = index % 3 == 0 ? 0 : Int.random(in: 0..<1_000_000, using: &generator)
            let fraction = microseconds == 0 ? "" : "." + String(String(1_000_000 + microseconds).dropFirst())
            #expect(local.rfc3339(microseconds: microseconds) == local.dateText + "T" + local.timeText + fraction + local.offsetText)
        }
        #expect(LocalDateTime(localSeconds: 1_772_955_000 - 14_400, utcOffset: -14_400).description == "2026-03-08T03:30:00-04:00")
        #expect(LocalDateTime(localSeconds: 0, utcOffset: 19_800).rfc3339(microseconds: 42) == "1970-01-01T00:00:00.000042+05:30")
    }
}

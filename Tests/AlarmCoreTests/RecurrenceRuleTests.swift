// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Testing

/// The rule engine with literal calendars (the differential test against
/// python-dateutil is `RecurrenceOracleTests`).
@Suite struct RecurrenceRuleTests {
    static func day(_ text: String) -> Int64 {
        let parts = text.split(separator: "-").map { Int($0)! }
        return CivilTime.dayNumber(year: parts[0], month: parts[1], day: parts[2])
    }

    static func next(_ rule: RecurrenceRule, after text: String, _ count: Int = 5) -> [String] {
        var days: [String] = []
        var current = day(text)
        while days.count < count, let next = rule.nextDay(after: current) {
            days.append(RecurrenceRule.dateText(next))
            current = next
        }
        return days
    }

    /// A counted rule whose occurrences span more than 400 years is searched
    /// 400 years past its last occurrence, not past its start (found by the
    /// zone differential: the 6th of 9 was reported as never coming).
    @Test func aCountedRuleIsSearchedPastItsLastOccurrence() {
        let leap = RecurrenceRule(.yearly, byMonthDay: [29], byMonth: [2], start: Self.day("2000-02-29"), end: .count(200))
        #expect(Self.next(leap, after: "2596-02-29", 1) == ["2604-02-29"])
        let sparse = RecurrenceRule(.monthly, interval: 7, byDay: [.init(.friday)], byMonthDay: [13], byMonth: [10], start: Self.day("2149-03-13"),
                                    end: .count(9))
        #expect(Self.next(sparse, after: "2569-10-13", 3) == ["2597-10-13", "2716-10-13", "2744-10-13"])
        #expect(Self.next(sparse, after: "2744-10-13", 1) == [])
    }

    @Test func monthlyOnThe31stSkipsShorterMonths() {
        let rule = RecurrenceRule(.monthly, byMonthDay: [31], start: Self.day("2026-01-01"))
        #expect(Self.next(rule, after: "2025-12-31") == ["2026-01-31", "2026-03-31", "2026-05-31", "2026-07-31", "2026-08-31"])
        let last = RecurrenceRule(.monthly, byMonthDay: [-1], start: Self.day("2026-01-01"))
        #expect(Self.next(last, after: "2026-01-31", 3) == ["2026-02-28", "2026-03-31", "2026-04-30"])
    }

    @Test func theLastFridayAndTheSecondTuesday() {
        let lastFriday = RecurrenceRule(.monthly, byDay: [.init(.friday, ordinal: -1)], start: Self.day("2026-12-01"))
        #expect(Self.next(lastFriday, after: "2026-12-01", 3) == ["2026-12-25", "2027-01-29", "2027-02-26"])
        let secondTuesday = RecurrenceRule(.monthly, byDay: [.init(.tuesday, ordinal: 2)], start: Self.day("2026-12-01"))
        #expect(Self.next(secondTuesday, after: "2026-12-01", 2) == ["2026-12-08", "2027-01-12"])
    }

    /// Intervals count from the start's week; the start's own week holds
    /// only the days on and after it.
    @Test func everyOtherWeekOnMondayAndThursday() {
        let rule = RecurrenceRule(.weekly, interval: 2, byDay: [.init(.monday), .init(.thursday)], start: Self.day("2026-12-02"))
        #expect(Self.next(rule, after: "2026-11-30") == ["2026-12-03", "2026-12-14", "2026-12-17", "2026-12-28", "2026-12-31"])
    }

    @Test func aBirthdayOnTheTwentyNinthOfFebruaryComesInLeapYears() {
        let rule = RecurrenceRule(.yearly, start: Self.day("2024-02-29"))
        #expect(Self.next(rule, after: "2024-03-01", 2) == ["2028-02-29", "2032-02-29"])
    }

    /// A count counts occurrences before exceptions; the start is one only
    /// if the rule gives it.
    @Test func countUntilAndExceptions() {
        var rule = RecurrenceRule(.daily, interval: 3, start: Self.day("2026-12-01"), end: .count(4), exceptions: [Self.day("2026-12-04")])
        #expect(Self.next(rule, after: "2026-11-01") == ["2026-12-01", "2026-12-07", "2026-12-10"])
        rule.end = .until(Self.day("2026-12-07"))
        #expect(Self.next(rule, after: "2026-11-01") == ["2026-12-01", "2026-12-07"])
        let notOnStart = RecurrenceRule(.weekly, byDay: [.init(.friday)], start: Self.day("2026-12-01"), end: .count(2))
        #expect(Self.next(notOnStart, after: "2026-01-01") == ["2026-12-04", "2026-12-11"])
    }

    /// Friday the 13th: both named, both must hold.
    @Test func dayOfMonthAndWeekdayTogetherMeanBoth() {
        let rule = RecurrenceRule(.monthly, byDay: [.init(.friday)], byMonthDay: [13], start: Self.day("2026-01-01"))
        #expect(Self.next(rule, after: "2026-01-01", 3) == ["2026-02-13", "2026-03-13", "2026-11-13"])
    }

    @Test func aRuleThatCanNeverOccurEnds() {
        let never = RecurrenceRule(.yearly, byMonthDay: [30], byMonth: [2], start: Self.day("2026-01-01"))
        #expect(never.nextDay(after: Self.day("2026-01-01")) == nil)
    }

    @Test(arguments: [
        (RecurrenceRule(.daily, interval: 0, start: 0), "interval must be 1–999, got 0"),
        (RecurrenceRule(.daily, byDay: [.init(.monday, ordinal: 2)], start: 0), "byDay may have an ordinal (2nd, last) only in a monthly or yearly rule, got 2 mon"),
        (RecurrenceRule(.monthly, byDay: [.init(.monday, ordinal: 6)], start: 0), "byDay must have an ordinal of 1–5 or -1 to -5, got 6 mon"),
        (RecurrenceRule(.monthly, byMonthDay: [0], start: 0), "byMonthDay must be 1–31 or -31 to -1, got 0"),
        (RecurrenceRule(.weekly, byMonthDay: [3], start: 0), "byMonthDay cannot be used with a weekly rule, got 3"),
        (RecurrenceRule(.yearly, byMonthDay: [3], start: 0), "byMonth must name the months of a yearly rule that names days, got none"),
        (RecurrenceRule(.monthly, byMonth: [13], start: 0), "byMonth must be 1–12, got 13"),
        (RecurrenceRule(.daily, start: 10, end: .until(9)), "until must not be before the start, got 1970-01-10"),
        (RecurrenceRule(.daily, start: 0, end: .count(0)), "times must be 1–9999, got 0"),
    ])
    func refusalsNameTheFieldAndValue(rule: RecurrenceRule, message: String) {
        #expect(throws: ValidationError.self) { try rule.validate() }
        do { try rule.validate() } catch { #expect(error.description == message) }
    }
}

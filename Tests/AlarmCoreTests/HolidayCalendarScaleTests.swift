// SPDX-License-Identifier: Apache-2.0
@testable import AlarmCore
import Foundation
import Testing

/// Large and varied holiday calendars: ``HolidayCalendar/contains(_:)`` answers
/// from an index built once at load, and must agree day by day with the
/// plain reading of RFC 5545 (an event covers a day when one of its
/// occurrences starts on one of the `length` days ending there).
@Suite struct HolidayCalendarScaleTests {
    static func day(_ year: Int, _ month: Int, _ day: Int) -> Int64 { CivilTime.dayNumber(year: year, month: month, day: day) }

    /// One event as the tests write it, and what the plain reading needs.
    struct Event {
        var start: Int64
        var length: Int
        var rrule: String?
        var exceptions: [Int64] = []

        var lines: [String] {
            var lines = ["BEGIN:VEVENT", "DTSTART;VALUE=DATE:" + RecurrenceRule.icalendarDateText(start),
                         "DTEND;VALUE=DATE:" + RecurrenceRule.icalendarDateText(start + Int64(length))]
            if let rrule { lines.append("RRULE:" + rrule) }
            if !exceptions.isEmpty { lines.append("EXDATE;VALUE=DATE:" + exceptions.map(RecurrenceRule.icalendarDateText).joined(separator: ",")) }
            lines.append("END:VEVENT")
            return lines
        }
    }

    static func file(_ events: [Event]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0"] + events.flatMap(\.lines) + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    /// The plain reading, one event at a time: an event covers `day` when
    /// its start (which RFC 5545 makes an occurrence) or the first day its
    /// rule gives after `day - length` falls within its `length` days
    /// ending at `day`.
    struct Plain {
        var events: [(rule: RecurrenceRule?, start: Int64, length: Int, exceptions: Set<Int64>)]

        init(_ events: [Event]) throws {
            self.events = try events.map { event in
                var rule = try event.rrule.map { try RecurrenceRule(icalendarValue: $0, start: event.start) }
                rule?.exceptions = Set(event.exceptions)
                return (rule, event.start, event.length, Set(event.exceptions))
            }
        }

        func contains(_ day: Int64) -> Bool {
            events.contains { event in
                let window = day - Int64(event.length - 1) ... day
                if window.contains(event.start), !event.exceptions.contains(event.start) { return true }
                guard let rule = event.rule, let next = rule.nextDay(after: window.lowerBound - 1) else { return false }
                return next <= day
            }
        }
    }

    /// 9,990 yearly all-day events, each 366 days long, one starting on
    /// each day from `first`, with `rule`.
    static func yearLong(_ rule: String, from first: Int64) -> [Event] {
        (0..<9_990).map { Event(start: first + Int64($0), length: 366, rrule: rule) }
    }

    /// Days from 1970 to 9999 and around leap days, where the events begin
    /// and 2026.
    static let sample: [Int64] = {
        var days = stride(from: day(1970, 1, 1), through: day(2100, 1, 1), by: 397).map { $0 }
        for year in [1971, 1972, 1999, 2000, 2024, 2025, 2026, 2028, 2100, 2400, 9999] {
            days += [day(year, 1, 1), day(year, 2, 28), day(year, 3, 1), day(year, 12, 31)]
            if CivilTime.daysInMonth(year: year, month: 2) == 29 { days.append(day(year, 2, 29)) }
        }
        return days
    }()

    /// Every day from the first start on is a holiday, the days before are not.
    @Test func nineThousandYearLongYearlyEventsAnswerAsThePlainReading() throws {
        let events = Self.yearLong("FREQ=YEARLY", from: Self.day(2000, 1, 1))
        let calendar = try HolidayCalendar(icalendar: Self.file(events))
        #expect(calendar.eventCount == 9_990)
        let plain = try Plain(events)
        for day in Self.sample { #expect(calendar.contains(day) == plain.contains(day), "\(RecurrenceRule.dateText(day))") }
        #expect(!calendar.contains(Self.day(1999, 12, 31)) && calendar.contains(Self.day(2000, 1, 1)) && calendar.contains(Self.day(2026, 7, 15)))
    }

    /// The outside tester's file, in kind: 9,990 yearly events of 366 days
    /// (1.2 MB) on a day most years lack, so that most days are no
    /// holiday: each look-up tested every event on each of the 366 days
    /// before it, a quarter of a second, and an add with one
    /// `--skip-holidays` alarm took 7.8 s. The events cover their start's
    /// year and each leap day's; 2026 and 2027 are free. Alone, the test
    /// takes under a second in a debug build. Its time limit only guards
    /// against a hang: the limit counts from when the whole suite schedules
    /// the test, and on two cores a test may wait minutes for its turn
    /// behind tests that block (a minute's limit failed twice so).
    @Test(.timeLimit(.minutes(10)))
    func nineThousandYearLongLeapDayEventsAnswerAsThePlainReading() throws {
        let events = Self.yearLong("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", from: Self.day(1972, 1, 1))
        let text = Self.file(events)
        #expect(text.utf8.count <= HolidayCalendar.maxBytes)
        let calendar = try HolidayCalendar(icalendar: text)
        // The plain reading tests every event on each of the 366 days before
        // a day (seconds a day in a debug build): asked about a few days
        // here; the mixed calendars below compare thousands.
        let plain = try Plain(events)
        for day in [Self.day(2024, 2, 29), Self.day(2025, 3, 1), Self.day(2026, 7, 15)] {
            #expect(calendar.contains(day) == plain.contains(day), "\(RecurrenceRule.dateText(day))")
        }
        #expect(calendar.contains(Self.day(2024, 2, 29)) && calendar.contains(Self.day(2025, 2, 28)))
        #expect(!calendar.contains(Self.day(2025, 3, 1)) && !calendar.contains(Self.day(2026, 7, 15)))
        // An alarm every day at 07:00 that skips holidays: the year from the
        // leap day is passed over, day by day.
        let alarm = Alarm(time: try TimeOfDay(hour: 7, minute: 0), days: .everyDay, skipHolidays: true, created: Date(epochSeconds: 0))
        let next = alarm.nextFire(after: Date(epochSeconds: Self.day(2024, 2, 28) * CivilTime.secondsPerDay + 8 * 3600), in: .utc, holidays: calendar)
        #expect(next == Date(epochSeconds: Self.day(2025, 3, 1) * CivilTime.secondsPerDay + 7 * 3600))
    }

    /// A small generator of the same numbers every run (SplitMix64).
    struct Numbers {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int>) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return range.lowerBound + Int(z % UInt64(range.count))
        }
        mutating func pick<T>(_ items: [T]) -> T { items[next(0...items.count - 1)] }
    }

    /// Events of every kind the index and the sparse rules take — yearly on
    /// a date or a weekday, monthly, weekly, daily with filters; every
    /// second to fourth period; a count, an end, exceptions on days they
    /// give; one to 366 days long — agree with the plain reading on
    /// every day of 1999–2002 and a day a week from 1989 to 2061.
    @Test(arguments: [1, 2, 3])
    func mixedCalendarsAnswerAsThePlainReading(seed: UInt64) throws {
        var numbers = Numbers(state: seed)
        let rules = ["FREQ=YEARLY", "FREQ=YEARLY;BYMONTH=5;BYDAY=-1MO", "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
                     "FREQ=YEARLY;BYMONTH=1,7;BYMONTHDAY=1,-1", "FREQ=MONTHLY", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=MONTHLY;BYDAY=2TU,-1FR",
                     "FREQ=MONTHLY;BYMONTH=3,9;BYDAY=FR;BYMONTHDAY=13", "FREQ=WEEKLY", "FREQ=WEEKLY;BYDAY=SA,SU", "FREQ=WEEKLY;BYDAY=MO;BYMONTH=8",
                     "FREQ=DAILY;BYMONTH=12;BYMONTHDAY=24,25,26", "FREQ=DAILY;BYDAY=WE;BYMONTH=2", "FREQ=YEARLY;INTERVAL=4;BYMONTH=1;BYMONTHDAY=20",
                     "FREQ=MONTHLY;INTERVAL=3", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH", "FREQ=DAILY;INTERVAL=9"]
        var events: [Event] = []
        var sparse = 0
        for _ in 0..<120 {
            let start = Self.day(1990, 1, 1) + Int64(numbers.next(0...(20 * 365)))
            var rule = numbers.pick(rules)
            if rule.contains("INTERVAL") {
                guard sparse < HolidayCalendar.maxSparseRules else { continue }
                sparse += 1
            }
            switch numbers.next(0...3) {
            case 0: rule += ";COUNT=\(numbers.next(1...40))"
            case 1: rule += ";UNTIL=" + RecurrenceRule.icalendarDateText(start + Int64(numbers.next(0...(15 * 365))))
            default: break
            }
            let length = numbers.pick([1, 1, 1, 2, 3, 7, 30, 200, 365, 366])
            var event = Event(start: start, length: length, rrule: rule)
            // Exceptions on days the rule gives, and one it does not.
            let parsed = try RecurrenceRule(icalendarValue: rule, start: start)
            var day = start
            for _ in 0..<numbers.next(0...3) {
                for _ in 0..<numbers.next(1...6) { if let next = parsed.nextDay(after: day) { day = next } }
                event.exceptions.append(day)
            }
            if numbers.next(0...3) == 0 { event.exceptions.append(start) }
            events.append(event)
        }
        let calendar = try HolidayCalendar(icalendar: Self.file(events))
        let plain = try Plain(events)
        var days = Array(Self.day(1999, 1, 1)...Self.day(2002, 12, 31))
        days += stride(from: Self.day(1989, 1, 1), through: Self.day(2061, 1, 1), by: 7)
        var disagreements: [String] = []
        for day in days where calendar.contains(day) != plain.contains(day) { disagreements.append(RecurrenceRule.dateText(day)) }
        #expect(disagreements.isEmpty, "\(disagreements.count) days: \(disagreements.prefix(20))")
    }

    /// Merging keeps every calendar's days, the indexed and the sparse.
    @Test func mergingKeepsBothIndexes() throws {
        let yearly = [Event(start: Self.day(2000, 12, 25), length: 2, rrule: "FREQ=YEARLY")]
        let sparse = [Event(start: Self.day(2001, 1, 20), length: 1, rrule: "FREQ=YEARLY;INTERVAL=4")]
        let leap = [Event(start: Self.day(2000, 2, 29), length: 1, rrule: "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;UNTIL=20401231")]
        let calendars = try [yearly, sparse, leap].map { try HolidayCalendar(icalendar: Self.file($0)) }
        let merged = calendars[0].merging(calendars[1]).merging(calendars[2])
        let plain = try Plain(yearly + sparse + leap)
        for day in Array(Self.day(2000, 1, 1)...Self.day(2050, 1, 1)) where merged.contains(day) != plain.contains(day) {
            Issue.record("\(RecurrenceRule.dateText(day))")
        }
        #expect(merged.eventCount == 3)
        #expect(merged == calendars[0].merging(calendars[1]).merging(calendars[2]))
    }

    /// Rules with an interval above 1 are tested one by one, so a file may hold few.
    @Test func sparseRulesAreLimited() throws {
        let events = (0...HolidayCalendar.maxSparseRules).map { Event(start: Self.day(2000, 1, 1) + Int64($0), length: 1, rrule: "FREQ=YEARLY;INTERVAL=2") }
        do throws(ICalendarError) {
            _ = try HolidayCalendar(icalendar: Self.file(events))
            Issue.record("read")
        } catch {
            #expect(error.property == "RRULE" && error.value == "FREQ=YEARLY;INTERVAL=2")
            #expect(error.line == 3 + 5 * HolidayCalendar.maxSparseRules + 3)
        }
    }

    /// Dense daily rules of many shapes pass the work limit and are refused
    /// at the rule that passes it, not read for minutes.
    @Test func theWorkOfReadingIsLimited() throws {
        // Every other day, different in each event, for a year at a time.
        let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        let events = (0..<200).map { (index: Int) -> Event in
            let monthDays: [String] = stride(from: 1 + index % 2, through: 31, by: 2).map { String($0) }
            let rule = "FREQ=DAILY;BYMONTHDAY=" + monthDays.joined(separator: ",") + ";COUNT=9999;BYDAY=" + weekdays[index % 7]
            return Event(start: Self.day(1990, 1, 1) + Int64(index), length: 1, rrule: rule)
        }
        do throws(ICalendarError) {
            _ = try HolidayCalendar(icalendar: Self.file(events))
            Issue.record("read")
        } catch {
            #expect(error.property == "RRULE" && error.requirement.contains("\(HolidayCalendar.maxIndexWork) steps"), "\(error)")
        }
    }
}

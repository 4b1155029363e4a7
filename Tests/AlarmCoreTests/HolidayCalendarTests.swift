// SPDX-License-Identifier: Apache-2.0
@testable import AlarmCore
import Testing

/// Holidays read from iCalendar files, and RRULE values read and written.
@Suite struct HolidayCalendarTests {
    static func day(_ text: String) -> Int64 {
        let parts = text.split(separator: "-").map { Int($0)! }
        return CivilTime.dayNumber(year: parts[0], month: parts[1], day: parts[2])
    }

    /// A calendar of `events`, each the properties of one `VEVENT`, a line each.
    static func calendar(_ events: String...) throws -> HolidayCalendar {
        let lines = ["BEGIN:VCALENDAR"] + events.flatMap { ["BEGIN:VEVENT", $0, "END:VEVENT"] } + ["END:VCALENDAR"]
        return try HolidayCalendar(icalendar: lines.joined(separator: "\n"))
    }

    /// Expects `calendar` to contain each of `holidays` and none of `workdays`
    /// (each `YYYY-MM-DD`).
    static func expect(_ calendar: HolidayCalendar, holidays: [String], workdays: [String],
                       sourceLocation: SourceLocation = #_sourceLocation) {
        for day in holidays { #expect(calendar.contains(Self.day(day)), "\(day)", sourceLocation: sourceLocation) }
        for day in workdays { #expect(!calendar.contains(Self.day(day)), "\(day)", sourceLocation: sourceLocation) }
    }

    /// What a calendar program exports: a zone, events with alarms, folded
    /// lines (one folded with a tab, one inside a property that is read),
    /// parameters, one with a quoted `:` in it, a moved instance.
    static let fixtureLines = [
        "BEGIN:VCALENDAR",
        "PRODID:-//Google Inc//Google Calendar 70.9054//EN",
        "VERSION:2.0",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        "X-WR-CALNAME:Holidays in Germany",
        "X-WR-TIMEZONE:Europe/Berlin",
        "BEGIN:VTIMEZONE",
        "TZID:Europe/Berlin",
        "BEGIN:DAYLIGHT",
        "TZOFFSETFROM:+0100",
        "TZOFFSETTO:+0200",
        "DTSTART:19700329T020000",
        "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
        "TZNAME:CEST",
        "END:DAYLIGHT",
        "BEGIN:STANDARD",
        "TZOFFSETFROM:+0200",
        "TZOFFSETTO:+0100",
        "DTSTART:19701025T030000",
        "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
        "TZNAME:CET",
        "END:STANDARD",
        "END:VTIMEZONE",
        // Christmas, every year since 2000; its alarm's DURATION must not be
        // taken for the event's (it has a DTEND: both would be refused).
        "BEGIN:VEVENT",
        "DTSTART;VALUE=DATE:20001225",
        "DTEND;VALUE=DATE:20001226",
        "RRULE:FREQ=YEARLY",
        "DTSTAMP:20260101T000000Z",
        "UID:christmas@example.com",
        "SUMMARY:Christmas Day",
        "DESCRIPTION:Public holiday. A long description that is folded over more t",
        " han one line\\, as RFC 5545 asks at 75 octets.",
        "TRANSP:TRANSPARENT",
        "BEGIN:VALARM",
        "ACTION:DISPLAY",
        "TRIGGER:-PT15M",
        "DURATION:PT5M",
        "REPEAT:1",
        "DESCRIPTION:Reminder",
        "END:VALARM",
        "END:VEVENT",
        // Easter-dependent days, one per year as exported.
        "BEGIN:VEVENT",
        "DTSTART;VALUE=DATE:20260403",
        "DTEND;VALUE=DATE:20260404",
        "UID:good-friday-2026@example.com",
        "SUMMARY:Good Friday",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "DTSTART;VALUE=DATE:20260406",
        "DTEND;VALUE=DATE:20260407",
        "UID:easter-monday-2026@example.com",
        "SUMMARY:Easter Monday",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "DTSTART:20270328",
        "UID:easter-2027@example.com",
        "SUMMARY:Easter Sunday",
        "END:VEVENT",
        // Three days: DTEND is exclusive.
        "BEGIN:VEVENT",
        "DTSTART;VALUE=DATE:20270206",
        "DTEND;VALUE=DATE:20270209",
        "UID:carnival-2027@example.com",
        "SUMMARY:Carnival",
        "END:VEVENT",
        // The last Monday in May, folded in the middle of a part, with
        // two years taken out and one moved a day.
        "BEGIN:VEVENT",
        "DTSTART;VALUE=DATE:20240527",
        "RRULE:FREQ=YEARLY;BYMONTH=5;BYDA",
        "\tY=-1MO",
        "EXDATE;VALUE=DATE:20250526,20270531",
        "UID:bank-holiday@example.com",
        "SUMMARY:Bank Holiday",
        "END:VEVENT",
        "BEGIN:VEVENT",
        "RECURRENCE-ID;VALUE=DATE:20280529",
        "DTSTART;VALUE=DATE:20280530",
        "UID:bank-holiday@example.com",
        "SUMMARY:Bank Holiday (moved)",
        "END:VEVENT",
        // Cancelled: covers nothing.
        "BEGIN:VEVENT",
        "DTSTART;VALUE=DATE:20261231",
        "STATUS:CANCELLED",
        "UID:new-years-eve@example.com",
        "END:VEVENT",
        // A date-time in a zone: its date.
        "BEGIN:VEVENT",
        "DTSTART;TZID=Europe/Berlin:20261003T000000",
        "DTEND;TZID=Europe/Berlin:20261004T000000",
        "UID:unity-day-2026@example.com",
        "END:VEVENT",
        // A parameter value quoting ':' and ';'.
        "BEGIN:VEVENT",
        "DTSTART;X-NOTE=\"kept: for; now\";VALUE=DATE:20261101",
        "ATTENDEE;CN=\"Doe: John\":mailto:john@example.com",
        "UID:all-saints-2026@example.com",
        "END:VEVENT",
        // Not an event: passed over, garbled date and all.
        "BEGIN:VTODO",
        "DTSTART:garbage",
        "END:VTODO",
        "END:VCALENDAR",
        "",
    ]

    @Test func aRealisticCalendar() throws {
        let calendar = try HolidayCalendar(icalendar: Self.fixtureLines.joined(separator: "\r\n"))
        let holidays = ["2000-12-25", "2026-12-25", "2100-12-25", "2026-04-03", "2026-04-06", "2027-03-28",
                        "2027-02-06", "2027-02-07", "2027-02-08", "2024-05-27", "2026-05-25", "2028-05-30", "2029-05-28",
                        "2026-10-03", "2026-11-01"]
        let workdays = ["1999-12-25", "2026-12-24", "2026-12-26", "2026-04-04", "2026-04-05", "2027-02-05", "2027-02-09",
                        "2025-05-26", "2027-05-31", "2028-05-29", "2026-12-31", "2026-10-04"]
        Self.expect(calendar, holidays: holidays, workdays: workdays)
        #expect(calendar.eventCount == 9)
        #expect(!calendar.isEmpty)
        // The same with LF line ends (and a byte-order mark).
        #expect(try HolidayCalendar(icalendar: "\u{FEFF}" + Self.fixtureLines.joined(separator: "\n")) == calendar)
    }

    /// DTSTART..<DTEND or DURATION days from each day the rule gives, over
    /// a year's end; a count ends it.
    @Test func aRecurringEventOfSeveralDays() throws {
        let calendar = try Self.calendar("""
            DTSTART;VALUE=DATE:20251231
            DURATION:P3D
            RRULE:FREQ=YEARLY;COUNT=3
            """)
        Self.expect(calendar,
                    holidays: ["2025-12-31", "2026-01-01", "2026-01-02", "2026-12-31", "2027-01-02", "2027-12-31", "2028-01-02"],
                    workdays: ["2025-12-30", "2026-01-03", "2026-12-30", "2028-01-03", "2028-12-31", "2029-01-01"])
    }

    /// RFC 5545 makes DTSTART the first instance even when the rule does not give it.
    @Test func theStartCountsWhenTheRuleDoesNotGiveIt() throws {
        let calendar = try Self.calendar("""
            DTSTART;VALUE=DATE:20260101
            RRULE:FREQ=YEARLY;BYMONTH=5;BYDAY=1MO
            """)
        Self.expect(calendar, holidays: ["2026-01-01", "2026-05-04"], workdays: ["2027-01-01"])
    }

    /// Timed events cover the days they touch; one ending at midnight not the next.
    @Test func timedEventsAndDurations() throws {
        let calendar = try Self.calendar("""
            DTSTART:20260301T220000Z
            DTEND:20260302T010000Z
            """, """
            DTSTART:20260310T090000
            DURATION:PT15H
            """, """
            DTSTART:20260320T090000
            """, """
            DTSTART;VALUE=DATE:20260401
            DURATION:P1W
            RDATE;VALUE=DATE:20270401,20280401
            EXDATE:20270401T000000
            """)
        Self.expect(calendar,
                    holidays: ["2026-03-01", "2026-03-02", "2026-03-10", "2026-03-20", "2026-04-01", "2026-04-07", "2028-04-07"],
                    workdays: ["2026-03-03", "2026-03-11", "2026-03-21", "2026-04-08", "2027-04-01", "2027-04-03"])
    }

    @Test func mergingEmptyAndCancelled() throws {
        let christmas = try Self.calendar("""
            DTSTART;VALUE=DATE:20001225
            RRULE:FREQ=YEARLY
            """, """
            DTSTART;VALUE=DATE:20260601
            DTEND;VALUE=DATE:20260604
            """)
        let other = try Self.calendar("""
            DTSTART;VALUE=DATE:20260101
            """, """
            DTSTART;VALUE=DATE:20260603
            DTEND;VALUE=DATE:20260606
            """)
        let both = christmas.merging(other)
        Self.expect(both, holidays: ["2026-12-25", "2026-01-01", "2026-06-01", "2026-06-05"], workdays: ["2026-06-06"])
        #expect(both.eventCount == 4)
        #expect(HolidayCalendar.empty.merging(christmas) == christmas)
        #expect(christmas.merging(.empty) == christmas)
        #expect(HolidayCalendar.empty.isEmpty && HolidayCalendar.empty.eventCount == 0)
        #expect(!HolidayCalendar.empty.contains(Self.day("2026-12-25")))

        let cancelled = try Self.calendar("""
            DTSTART;VALUE=DATE:20260101
            STATUS:cancelled
            """)
        #expect(cancelled.isEmpty && cancelled.eventCount == 0)
        #expect(try HolidayCalendar(icalendar: "BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n") == .empty)
    }

    // MARK: RRULE values

    @Test(arguments: [
        "FREQ=DAILY",
        "FREQ=DAILY;INTERVAL=3;BYDAY=MO,FR;BYMONTHDAY=1,-1;BYMONTH=1,2;COUNT=20",
        "FREQ=WEEKLY",
        "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;BYMONTH=6;UNTIL=20301231",
        "FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU,-1FR;COUNT=5",
        "FREQ=MONTHLY;BYMONTHDAY=1,-1;UNTIL=20261231",
        "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
        "FREQ=YEARLY",
        "FREQ=YEARLY;BYDAY=-1MO;BYMONTH=5",
        "FREQ=YEARLY;INTERVAL=4;BYMONTHDAY=25;BYMONTH=12;COUNT=10",
    ])
    func rruleRoundTrip(text: String) throws {
        let start = Self.day("2026-01-01")
        let rule = try RecurrenceRule(icalendarValue: text, start: start)
        #expect(rule.icalendarValue == text)
        #expect(try RecurrenceRule(icalendarValue: rule.icalendarValue, start: start) == rule)
        #expect(rule.start == start && rule.exceptions.isEmpty)
    }

    @Test func rruleValuesAreReadInAnyCaseAndOrder() throws {
        let start = Self.day("2026-01-01")
        let cases = [
            ("byday=mo;freq=weekly;WKST=MO;UNTIL=20301231T235959Z", "FREQ=WEEKLY;BYDAY=MO;UNTIL=20301231"),
            ("FREQ=MONTHLY;INTERVAL=1;BYDAY=+1MO,-2su;", "FREQ=MONTHLY;BYDAY=1MO,-2SU"),
            // The week start changes nothing here.
            ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH;WKST=SU", "FREQ=YEARLY;BYDAY=4TH;BYMONTH=11"),
            ("FREQ=WEEKLY;INTERVAL=2;WKST=SU", "FREQ=WEEKLY;INTERVAL=2"),
            ("RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=31;SKIP=OMIT", "FREQ=MONTHLY;BYMONTHDAY=31"),
        ]
        for (input, canonical) in cases {
            #expect(try RecurrenceRule(icalendarValue: input, start: start).icalendarValue == canonical, "\(input)")
        }
        let rule = try RecurrenceRule(icalendarValue: "FREQ=MONTHLY;BYDAY=2TU,-1FR;UNTIL=20301231", start: start)
        #expect(rule == RecurrenceRule(.monthly, byDay: [.init(.tuesday, ordinal: 2), .init(.friday, ordinal: -1)], start: start,
                                       end: .until(Self.day("2030-12-31"))))
    }

    @Test(arguments: [
        ("FREQ=HOURLY", "FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY"),
        ("INTERVAL=2", "FREQ must be given"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ must be given only once"),
        ("FREQ=MONTHLY;BYSETPOS=-1;BYDAY=MO,TU,WE,TH,FR", "BYSETPOS is not supported (only FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, UNTIL, COUNT and WKST are)"),
        ("FREQ=YEARLY;BYYEARDAY=100", "BYYEARDAY is not supported (only FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, UNTIL, COUNT and WKST are)"),
        ("FREQ=YEARLY;BYWEEKNO=20", "BYWEEKNO is not supported (only FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, UNTIL, COUNT and WKST are)"),
        ("FREQ=DAILY;BYHOUR=9", "BYHOUR is not supported (only FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, UNTIL, COUNT and WKST are)"),
        ("FREQ=DAILY;X-FOO=1", "\"X-FOO\" is not an RRULE part"),
        ("FREQ=DAILY;COUNT", "each part must look like NAME=value, got \"COUNT\""),
        ("FREQ=DAILY;UNTIL=20301231;COUNT=5", "UNTIL and COUNT must not both be given"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;WKST=SU", "WKST must be MO in a weekly rule with INTERVAL and BYDAY (weeks start on Monday here)"),
        ("FREQ=WEEKLY;WKST=XX", "WKST must be a weekday like MO, got \"XX\""),
        ("FREQ=DAILY;INTERVAL=-1", "INTERVAL must be a whole number, got \"-1\""),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL must be 1–999, got 0"),
        ("FREQ=MONTHLY;BYDAY=MO,XY", "BYDAY must list weekdays like MO, 2TU or -1FR, got \"XY\""),
        ("FREQ=MONTHLY;BYDAY=6MO", "BYDAY must have an ordinal of 1–5 or -1 to -5, got 6MO"),
        ("FREQ=WEEKLY;BYDAY=1MO", "BYDAY may have an ordinal (2nd, last) only in a monthly or yearly rule, got 1MO"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,,2", "BYMONTHDAY must list days of the month like 1 or -1, got \"\""),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY must be 1–31 or -31 to -1, got 32"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH must be 1–12, got 13"),
        ("FREQ=YEARLY;BYMONTHDAY=3", "BYMONTH must name the months of a yearly rule that names days, got none"),
        ("FREQ=DAILY;UNTIL=2030-12-31", "UNTIL must be a date like 20301231 or a date-time like 20301231T235959Z, got \"2030-12-31\""),
        ("FREQ=DAILY;UNTIL=20251231", "UNTIL must not be before the start, got 2025-12-31"),
        ("FREQ=DAILY;COUNT=0", "COUNT must be 1–9999, got 0"),
    ])
    func rruleRefusalsNameThePart(text: String, requirement: String) {
        #expect(throws: ICalendarError(property: "RRULE", value: text, requirement: requirement)) {
            try RecurrenceRule(icalendarValue: text, start: Self.day("2026-01-01"))
        }
    }

    // MARK: Files refused

    static func refusal(_ lines: [String]) -> String? {
        do {
            _ = try HolidayCalendar(icalendar: lines.joined(separator: "\r\n"))
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        (["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VEVENT", "DTSTART;VALUE=DATE:20261225", "RRULE:FREQ=HOURLY", "END:VEVENT", "END:VCALENDAR"],
         "line 5: RRULE \"FREQ=HOURLY\": FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY"),
        // A folded property is named at the line it starts on.
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "RRULE:FREQ=YEARLY;", " BYSETPOS=1", "END:VEVENT", "END:VCALENDAR"],
         "line 4: RRULE \"FREQ=YEARLY;BYSETPOS=1\": BYSETPOS is not supported (only FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, UNTIL, COUNT and WKST are)"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "RRULE:FREQ=MONTHLY;BYDAY=6MO", "END:VEVENT", "END:VCALENDAR"],
         "line 4: RRULE \"FREQ=MONTHLY;BYDAY=6MO\": BYDAY must have an ordinal of 1–5 or -1 to -5, got 6MO"),
        // A missing END:VEVENT, found at the END:VCALENDAR or the next BEGIN:VEVENT.
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "END:VCALENDAR"],
         "line 4: END \"VCALENDAR\": must come after END:VEVENT for the BEGIN:VEVENT at line 2"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "BEGIN:VEVENT", "DTSTART:20261226", "END:VEVENT", "END:VCALENDAR"],
         "line 4: BEGIN \"VEVENT\": must come after END:VEVENT for the BEGIN:VEVENT at line 2"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "END:VEVENT"],
         "line 1: BEGIN \"VCALENDAR\": has no END:VCALENDAR"),
        (["BEGIN:VCALENDAR", "END:VEVENT", "END:VCALENDAR"],
         "line 2: END \"VEVENT\": must match a BEGIN before it; the innermost open one is BEGIN:VCALENDAR at line 1"),
        (["BEGIN:VCALENDAR", "END:VCALENDAR", "END:VCALENDAR"],
         "line 3: END \"VCALENDAR\": must match a BEGIN before it, and nothing is open"),
        (["BEGIN:VEVENT", "DTSTART:20261225", "END:VEVENT"],
         "line 1: BEGIN \"VEVENT\": must be inside a VCALENDAR (the file must begin with BEGIN:VCALENDAR)"),
        (["VERSION:2.0", "BEGIN:VCALENDAR", "END:VCALENDAR"],
         "line 1: VERSION \"2.0\": must be inside a VCALENDAR (BEGIN:VCALENDAR … END:VCALENDAR)"),
        ([], "the file must hold a VCALENDAR (BEGIN:VCALENDAR … END:VCALENDAR)"),
        (["", "", ""], "the file must hold a VCALENDAR (BEGIN:VCALENDAR … END:VCALENDAR)"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "SUMMARY:No date", "END:VEVENT", "END:VCALENDAR"],
         "line 2: DTSTART: must be given in the VEVENT that begins on this line"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART;VALUE=DATE:2026-12-25", "END:VEVENT", "END:VCALENDAR"],
         "line 3: DTSTART \"2026-12-25\": must be a date like 20261225 or a date-time like 20261225T000000"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20260230", "END:VEVENT", "END:VCALENDAR"],
         "line 3: DTSTART \"20260230\": must be a date like 20261225 or a date-time like 20261225T000000"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225T250000", "END:VEVENT", "END:VCALENDAR"],
         "line 3: DTSTART \"20261225T250000\": must be a date like 20261225 or a date-time like 20261225T000000"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "DTSTART:20261226", "END:VEVENT", "END:VCALENDAR"],
         "line 4: DTSTART \"20261226\": must be given only once in a VEVENT"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "DTEND:20261224", "END:VEVENT", "END:VCALENDAR"],
         "line 4: DTEND \"20261224\": must not be before DTSTART"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "DTEND:20261226", "DURATION:P1D", "END:VEVENT", "END:VCALENDAR"],
         "line 5: DURATION \"P1D\": must be given only once in a VEVENT, and not with both DTEND and DURATION"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "DURATION:-P1D", "END:VEVENT", "END:VCALENDAR"],
         "line 4: DURATION \"-P1D\": must be a duration like P1D, P2W or PT8H, not negative"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "DTEND;VALUE=DATE:20281225", "END:VEVENT", "END:VCALENDAR"],
         "line 4: DTEND \"20281225\": must end at most 366 days after DTSTART"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "RRULE:FREQ=YEARLY", "EXDATE:20271225,2028", "END:VEVENT", "END:VCALENDAR"],
         "line 5: EXDATE \"20271225,2028\": must list dates like 20261225 or date-times like 20261225T000000, separated by commas"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART:20261225", "this is not a property", "END:VEVENT", "END:VCALENDAR"],
         "line 4: \"this is not a property\": must look like NAME:value or NAME;PARAMETER=x:value"),
        (["BEGIN:VCALENDAR", "BEGIN:VEVENT", "DTSTART;X=\"unterminated:20261225", "END:VEVENT", "END:VCALENDAR"],
         "line 3: \"DTSTART;X=\\\"unterminated:20261225\": must look like NAME:value or NAME;PARAMETER=x:value"),
    ])
    func fileRefusalsNameTheLineAndProperty(lines: [String], message: String) {
        #expect(Self.refusal(lines) == message)
    }

    @Test func theSizeAndTheEventCountAreLimited() throws {
        let big = "BEGIN:VCALENDAR\r\nX-PAD:" + String(repeating: "x", count: HolidayCalendar.maxBytes) + "\r\nEND:VCALENDAR\r\n"
        #expect(throws: ICalendarError(property: "", value: nil, requirement: "the file must be at most 4 MiB, got \(big.utf8.count) bytes")) {
            try HolidayCalendar(icalendar: big)
        }
        let event = ["BEGIN:VEVENT", "DTSTART:20261225", "END:VEVENT"]
        let most = ["BEGIN:VCALENDAR"] + Array(repeating: event, count: HolidayCalendar.maxEvents).flatMap { $0 } + ["END:VCALENDAR"]
        #expect(try HolidayCalendar(icalendar: most.joined(separator: "\n")).eventCount == HolidayCalendar.maxEvents)
        let tooMany = ["BEGIN:VCALENDAR"] + Array(repeating: event, count: HolidayCalendar.maxEvents + 1).flatMap { $0 } + ["END:VCALENDAR"]
        #expect(Self.refusal(tooMany) == "line \(2 + 3 * HolidayCalendar.maxEvents): BEGIN \"VEVENT\": must not make more than 10000 events in a file")
    }

    // MARK: The day test

    /// `gives` answers from one period what `nextDay` finds by searching;
    /// a count replaced by its last day gives the same days.
    @Test func theDayTestAgreesWithTheRuleEngine() {
        let start = Self.day("2026-01-15")
        let rules = [
            RecurrenceRule(.daily, interval: 3, byMonth: [1, 2, 7], start: start, end: .until(Self.day("2028-07-20"))),
            RecurrenceRule(.daily, byDay: [.init(.saturday), .init(.sunday)], start: start, exceptions: [Self.day("2026-01-17")]),
            RecurrenceRule(.weekly, interval: 2, byDay: [.init(.monday), .init(.thursday)], start: start),
            RecurrenceRule(.weekly, interval: 3, byMonth: [3, 4], start: start),
            RecurrenceRule(.monthly, interval: 2, byDay: [.init(.tuesday, ordinal: 2), .init(.friday, ordinal: -1)], start: start),
            RecurrenceRule(.monthly, byMonthDay: [31, -2], start: start),
            RecurrenceRule(.yearly, byDay: [.init(.monday, ordinal: -1)], byMonth: [5], start: start, exceptions: [Self.day("2027-05-31")]),
            RecurrenceRule(.yearly, interval: 2, start: Self.day("2024-02-29")),
        ]
        let counted = rules.map { rule in
            var rule = rule
            rule.end = .count(7)
            return rule
        }
        var disagreements: [String] = []
        for rule in rules + counted {
            let bounded = HolidayCalendar.withoutCount(rule)!
            for day in rule.start - 10 ... rule.start + 1500 {
                let expected = rule.nextDay(after: day - 1) == day
                if HolidayCalendar.gives(rule, day) != expected || HolidayCalendar.gives(bounded, day) != expected {
                    disagreements.append("\(rule.icalendarValue) on \(RecurrenceRule.dateText(day))")
                }
            }
        }
        #expect(disagreements == [])
        let never = RecurrenceRule(.yearly, byMonthDay: [30], byMonth: [2], start: start, end: .count(3))
        #expect(HolidayCalendar.withoutCount(never) == nil)
    }

    @Test(arguments: [("P3D", 259_200), ("P1W", 604_800), ("PT8H", 28_800), ("P1DT12H30M5S", 131_405), ("+P0D", 0)] as [(String, Int64)])
    func durations(text: String, seconds: Int64) {
        #expect(HolidayCalendar.durationSeconds(text) == seconds)
    }

    @Test(arguments: ["-P1D", "P", "PT", "P1DT", "P1D2W", "P1H", "PT1D", "P1.5D", "1D", "P1234567890D"])
    func malformedDurations(text: String) {
        #expect(HolidayCalendar.durationSeconds(text) == nil)
    }

    @Test func errorDescriptions() {
        #expect(ICalendarError(line: 12, property: "RRULE", value: "FREQ=HOURLY", requirement: "FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY").description
            == "line 12: RRULE \"FREQ=HOURLY\": FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY")
        #expect(ICalendarError(property: "DTSTART", value: "x\t", requirement: "must be a date").description == "DTSTART \"x\\t\": must be a date")
        #expect(ICalendarError(line: 3, property: "DTSTART", value: nil, requirement: "must be given").description == "line 3: DTSTART: must be given")
    }
}

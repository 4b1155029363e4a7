// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import AlarmCore

// Table tests for the text people type: repeat days, times of day, instants and
// durations. Every expected value is worked out by hand (instants in other zones
// were checked with Python's zoneinfo, PEP 495 fold=0, and pasted as literals).

@Suite("RepeatDays.parse")
struct RepeatDaysParseTests {
    static let valid: [(String, [Weekday])] = [
        ("mon,wed,fri", [.monday, .wednesday, .friday]),
        ("mon-fri", [.monday, .tuesday, .wednesday, .thursday, .friday]),
        // A range wraps across the end of the week.
        ("fri-mon", [.friday, .saturday, .sunday, .monday]),
        ("sat-tue", [.saturday, .sunday, .monday, .tuesday]),
        // Sunday is the last day of the Monday-first week, so sun-sat wraps to all seven.
        ("sun-sat", Weekday.allCases),
        ("wed-wed", [.wednesday]),
        ("weekdays", [.monday, .tuesday, .wednesday, .thursday, .friday]),
        ("weekends", [.saturday, .sunday]),
        ("daily", Weekday.allCases),
        ("every-day", Weekday.allCases),
        ("everyday", Weekday.allCases),
        ("every day", Weekday.allCases),
        ("never", []),
        ("none", []),
        ("Monday,Wednesday,Friday", [.monday, .wednesday, .friday]),
        ("monday-wednesday", [.monday, .tuesday, .wednesday]),
        ("MON,Tue,wEd", [.monday, .tuesday, .wednesday]),
        ("SUNDAY", [.sunday]),
        ("WEEKDAYS", [.monday, .tuesday, .wednesday, .thursday, .friday]),
        (" mon , wed ,fri ", [.monday, .wednesday, .friday]),
        ("\tsat,\tsun\t", [.saturday, .sunday]),
        ("weekends,mon", [.saturday, .sunday, .monday]),
        ("mon,mon", [.monday]),
        ("Thursday", [.thursday]),
    ]

    @Test(arguments: valid)
    func parses(spec: String, expected: [Weekday]) throws {
        let days = try RepeatDays.parse(spec)
        #expect(days.rawValue == mask(expected), "\(spec) parsed as \(days.codes)")
        #expect(days.isEmpty == expected.isEmpty)
    }

    @Test(arguments: ["funday", "", "   ", "mon-", "-fri", "8", "mon,,wed", "mon,", "tues", "mon-funday", "mon-tue-wed", "mo", "mon;wed", "weekdayz", "mon....fri"])
    func rejects(spec: String) throws {
        let error = try #require(throws: ValidationError.self) { try RepeatDays.parse(spec) }
        #expect(error.field == "days")
        // The message names the field and shows the whole rejected value, quoted.
        #expect(error.description.hasPrefix("days "), "\(error)")
        #expect(error.description.contains("\"\(spec)\""), "\(error)")
    }

    @Test func rejectionNamesTheGivenField() throws {
        let error = try #require(throws: ValidationError.self) { try RepeatDays.parse("funday", field: "--days") }
        #expect(error.field == "--days")
        #expect(error.description.hasPrefix("--days must "))
        #expect(error.description.hasSuffix("or never, got \"funday\" (did you mean sunday?)"), "said once: \(error)")
        // Nothing near: no guess.
        let far = try #require(throws: ValidationError.self) { try RepeatDays.parse("xyz") }
        #expect(far.description.hasSuffix("or never, got \"xyz\""), "\(far)")
        // The unknown item itself is pointed out too.
        let item = try #require(throws: ValidationError.self) { try RepeatDays.parse("mon,funday") }
        #expect(item.description.contains("unknown item \"funday\""), "\(item)")
    }

    @Test func wireCodes() throws {
        let days = try RepeatDays.fromCodes(["fri", "mon", "wed"])
        #expect(days.rawValue == mask([.monday, .wednesday, .friday]))
        // Codes come out in week order, Monday first and Sunday last.
        #expect(RepeatDays(rawValue: mask([.sunday, .monday])).codes == ["mon", "sun"])
        #expect(try RepeatDays.fromCodes([]).isEmpty)
    }

    @Test(arguments: [["Mon"], ["monday"], ["xyz"], [""], ["mon", "mon"], ["tue", "wed", "tue"]])
    func wireCodesRejectUnknownOrRepeated(codes: [String]) throws {
        let error = try #require(throws: ValidationError.self) { try RepeatDays.fromCodes(codes) }
        #expect(error.field == "days")
    }

    @Test func wireCodeRepeatIsNamed() throws {
        // The wire form lists each day once; a repeat is a client bug worth reporting.
        let error = try #require(throws: ValidationError.self) { try RepeatDays.fromCodes(["mon", "wed", "mon"], field: "repeat") }
        #expect(error.description == "repeat must not name a day twice, got \"mon\"")
    }
}

@Suite("TimeOfDay.parse")
struct TimeOfDayParseTests {
    /// Every minute of the day reads back from its wire form, and the
    /// five-character forms out of range are still refused, as the general
    /// parser refuses them.
    @Test func everyWireFormReadsBack() throws {
        for hour in 0..<24 {
            for minute in 0..<60 {
                let time = try TimeOfDay(hour: hour, minute: minute)
                #expect(try TimeOfDay.parse(time.description) == time)
            }
        }
        for text in ["24:00", "07:60", "99:99", "0a:30", "07-30"] {
            #expect(throws: ValidationError.self, "\(text)") { try TimeOfDay.parse(text) }
        }
    }

    static let valid: [(String, Int, Int)] = [
        ("7:30", 7, 30),
        ("07:30", 7, 30),
        ("19:05", 19, 5),
        ("0:00", 0, 0),
        ("00:00", 0, 0),
        ("23:59", 23, 59),
        ("7:30pm", 19, 30),
        ("7:30 PM", 19, 30),
        ("7:30PM", 19, 30),
        ("7:30 am", 7, 30),
        ("12am", 0, 0),           // midnight
        ("12:30am", 0, 30),
        ("12pm", 12, 0),          // noon
        ("12:15pm", 12, 15),
        ("11:59 pm", 23, 59),
        ("1am", 1, 0),
        ("7pm", 19, 0),
        ("7 pm", 19, 0),
        (" 07:30 ", 7, 30),
    ]

    @Test(arguments: valid)
    func parses(text: String, hour: Int, minute: Int) throws {
        let time = try TimeOfDay.parse(text)
        #expect(time.hour == hour && time.minute == minute, "\(text) parsed as \(time)")
        #expect(time.secondsIntoDay == hour * 3600 + minute * 60)
    }

    @Test(arguments: ["24:00", "7:60", "77", "13pm", "0am", "0:30pm", "7:3", "7:300", "abc", "", " ", "07:30:00", "7..30", "-1:00", "7:30xm", "123:00", "pm", "7:-5", "٧:٣٠"])
    func rejects(text: String) throws {
        let error = try #require(throws: ValidationError.self) { try TimeOfDay.parse(text) }
        #expect(error.field == "time")
        #expect(error.description.hasPrefix("time must "), "\(error)")
        #expect(error.description.hasSuffix("got \"\(text)\""), "\(error)")
    }

    @Test func rangeErrorsReadExactly() throws {
        let minute = try #require(throws: ValidationError.self) { try TimeOfDay(hour: 7, minute: 61) }
        #expect(minute.description == "minute must be 0–59, got 61")
        let hour = try #require(throws: ValidationError.self) { try TimeOfDay(hour: 24, minute: 0) }
        #expect(hour.description == "hour must be 0–23, got 24")
        let negative = try #require(throws: ValidationError.self) { try TimeOfDay(hour: 7, minute: -1) }
        #expect(negative.description == "minute must be 0–59, got -1")
    }

    @Test(arguments: [(7, 30, "07:30"), (19, 5, "19:05"), (0, 0, "00:00"), (23, 59, "23:59")])
    func canonicalText(hour: Int, minute: Int, text: String) throws {
        #expect(try TimeOfDay(hour: hour, minute: minute).description == text)
    }

    @Test func ordersByTimeOfDay() throws {
        #expect(try TimeOfDay(hour: 7, minute: 59) < TimeOfDay(hour: 8, minute: 0))
        #expect(try !(TimeOfDay(hour: 8, minute: 0) < TimeOfDay(hour: 8, minute: 0)))
    }
}

@Suite("InstantParser")
struct InstantParserTests {
    /// (text, zone the local forms are read in, expected instant in UTC, why)
    static let valid: [(String, String, String, String)] = [
        ("2026-03-07T12:00:00Z", "America/New_York", "2026-03-07T12:00:00Z", "UTC designator"),
        ("2026-03-07t12:00:00z", "America/New_York", "2026-03-07T12:00:00Z", "lower-case t and z"),
        ("2026-03-07T12:00Z", "America/New_York", "2026-03-07T12:00:00Z", "no seconds"),
        ("2026-03-07T12:00:00-05:00", "Asia/Taipei", "2026-03-07T17:00:00Z", "negative offset"),
        ("2026-03-07T12:00:00+05:30", "America/New_York", "2026-03-07T06:30:00Z", "half-hour offset"),
        ("2026-03-07T12:00:00+0530", "America/New_York", "2026-03-07T06:30:00Z", "offset without colon"),
        ("2026-03-07T12:00:00+00:00", "Asia/Taipei", "2026-03-07T12:00:00Z", "zero offset"),
        ("2026-03-07T00:30:00+13:45", "UTC", "2026-03-06T10:45:00Z", "offset crossing the date"),
        // Local forms follow the zone passed in and the alarm rules for gaps and overlaps.
        ("2026-03-07 12:00", "America/New_York", "2026-03-07T17:00:00Z", "local, EST"),
        ("2026-07-07 12:00", "America/New_York", "2026-07-07T16:00:00Z", "local, EDT"),
        ("2026-03-07T12:00:30", "America/New_York", "2026-03-07T17:00:30Z", "local with seconds"),
        ("2026-03-07", "America/New_York", "2026-03-07T05:00:00Z", "date only is local midnight"),
        ("2026-03-07 12:00", "Asia/Taipei", "2026-03-07T04:00:00Z", "local, UTC+8"),
        ("2026-03-08 02:30", "America/New_York", "2026-03-08T07:30:00Z", "gap 02:00→03:00: 02:30 reads as 03:30 EDT"),
        ("2026-11-01 01:30", "America/New_York", "2026-11-01T05:30:00Z", "overlap: first 01:30 (EDT)"),
        ("2026-03-29 02:30", "Europe/Berlin", "2026-03-29T01:30:00Z", "gap: 03:30 CEST"),
        ("2026-10-25 02:30", "Europe/Berlin", "2026-10-25T00:30:00Z", "overlap: first 02:30 (CEST)"),
        ("2026-10-04 02:15", "Australia/Lord_Howe", "2026-10-03T15:45:00Z", "30-minute gap: 02:45 +11:00"),
        ("2026-04-05 01:45", "Australia/Lord_Howe", "2026-04-04T14:45:00Z", "30-minute overlap: first (+11:00)"),
        ("2026-09-06 00:30", "America/Santiago", "2026-09-06T04:30:00Z", "midnight gap: 01:30 -03:00"),
        ("2026-04-04 23:30", "America/Santiago", "2026-04-05T02:30:00Z", "overlap before midnight: first (-03:00)"),
        ("2024-02-29T06:00:00Z", "UTC", "2024-02-29T06:00:00Z", "leap day"),
        ("2000-02-29 00:00", "UTC", "2000-02-29T00:00:00Z", "leap day of a 400-year"),
        (" 2026-03-07T12:00:00Z ", "UTC", "2026-03-07T12:00:00Z", "surrounding spaces"),
    ]

    @Test(arguments: valid)
    func parses(text: String, zoneID: String, expected: String, why: String) throws {
        let rules = try zone(zoneID).rules
        let parsed = try InstantParser.parse(text, rules: rules)
        #expect(parsed == (try ISO.date(expected)), "\(text) in \(zoneID) (\(why)) parsed as \(ISO.string(parsed))")
    }

    @Test(arguments: [
        ("2026-03-07T12:00:00.250Z", "2026-03-07T12:00:00.250Z"),
        ("2026-03-07T12:00:00,5+01:00", "2026-03-07T11:00:00.500Z"),
        ("2026-03-07T12:00:00.123456789Z", "2026-03-07T12:00:00.123Z"),
    ])
    func fractionalSeconds(text: String, expected: String) throws {
        let parsed = try InstantParser.parse(text, rules: try zone("UTC").rules)
        let want = try ISO.date(expected).timeIntervalSince1970
        // ISO8601DateFormatter keeps milliseconds only; a microsecond tolerance is plenty.
        #expect(abs(parsed.timeIntervalSince1970 - want) < 0.001, "\(text) parsed as \(parsed.timeIntervalSince1970)")
    }

    @Test(arguments: ["2026-02-30", "2026-02-29 12:00", "2100-02-29", "1900-02-29T00:00:00Z", "2026-04-31T12:00:00Z", "2026-02-00"])
    func rejectsDaysThatDoNotExist(text: String) throws {
        let error = try #require(throws: ValidationError.self) { try InstantParser.parse(text, rules: try zone("UTC").rules, field: "--due") }
        #expect(error.field == "--due")
        #expect(error.description.hasPrefix("--due must have a day that exists"), "\(error)")
        #expect(error.description.hasSuffix("got \"\(text)\""), "\(error)")
    }

    @Test(arguments: [
        "garbage", "", "2026", "2026-3-7", "2026-13-01", "2026-00-10", "26-03-07", "2026/03/07",
        "2026-03-07T24:00", "2026-03-07T12:60", "2026-03-07T12:00:60Z", "2026-03-07T12", "2026-03-07T1200",
        "2026-03-07T12:00:00+05", "2026-03-07T12:00:00+24:00", "2026-03-07T12:00:00+05:60", "2026-03-07T12:00:00Zjunk",
        "2026-03-07T12:00:00.Z", "2026-03-07T12:00:00.1234567890Z", "2026-03-07X12:00", "2026-03-07T12:00:00 UTC",
        "2026-03-07T12:00:00−05:00", "tomorrow",
        // An offset or Z belongs to a time of day; a bare date is local midnight, nothing more.
        "2026-03-07-05:00", "2026-03-07Z",
    ])
    func rejectsGarbage(text: String) throws {
        let error = try #require(throws: ValidationError.self) { try InstantParser.parse(text, rules: try zone("UTC").rules) }
        #expect(error.field == "time")
        #expect(error.description.hasSuffix("got \"\(text)\""), "\(error)")
    }
}

@Suite("DurationParser")
struct DurationParserTests {
    @Test(arguments: [
        ("90s", 90), ("25m", 1_500), ("2h", 7_200), ("1d", 86_400), ("1h30m", 5_400),
        ("1d2h3m4s", 93_784), ("2H", 7_200), (" 5m ", 300), ("0h5m", 300), ("100m", 6_000), ("1d1s", 86_401),
        // The limit, 100 years, in each unit, and with leading zeros.
        ("36500d", 3_153_600_000), ("876000h", 3_153_600_000), ("52560000m", 3_153_600_000), ("3153600000s", 3_153_600_000),
        ("36499d23h59m60s", 3_153_600_000), ("1000000000s", 1_000_000_000), ("000000000000000000000000001s", 1),
    ] as [(String, Int64)])
    func parses(text: String, seconds: Int64) throws {
        #expect(try DurationParser.parse(text) == seconds)
    }

    @Test(arguments: ["0s", "0h0m", "m5", "5x", "30m1h", "", "5", "1h1h", "-5m", "5 mm", "1.5", "h", "1h30", "0.3s"])
    func rejects(text: String) throws {
        let error = try #require(throws: ValidationError.self) { try DurationParser.parse(text, field: "--in") }
        #expect(error.field == "--in")
        #expect(error.description.hasSuffix("got \"\(text)\""), "\(error)")
    }

    /// Beyond 100 years, however it is written: once a trap (300000000d
    /// overflowed the wire form's microseconds), once a year past 9999.
    @Test(arguments: [
        "36501d", "36500d1s", "876001h", "3153600001s", "2914000d", "300000000d", "999999999d",
        "9223372036854775807s", "9223372036854775808s", "99999999999999999999999d", "36500d23h59m59s",
    ])
    func rejectsMoreThanAHundredYears(text: String) throws {
        let error = try #require(throws: ValidationError.self) { try DurationParser.parse(text, field: "--in") }
        #expect(error.description == "--in must be at most 36500 days (100 years), got \"\(text)\"")
    }
}

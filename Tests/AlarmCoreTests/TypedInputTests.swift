// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// The times, days and durations people type, as tables: every accepted form
/// and a set of refusals, each naming the field and the forms.
@Suite struct TypedInputTests {
    @Test(arguments: [
        ("7", "07:00"), ("07", "07:00"), ("0730", "07:30"), ("730", "07:30"), ("7:30", "07:30"), ("7.30", "07:30"), ("19:05", "19:05"),
        ("7am", "07:00"), ("7 am", "07:00"), ("7:30 pm", "19:30"), ("7:30PM", "19:30"), ("7 a.m.", "07:00"), ("12am", "00:00"), ("12pm", "12:00"),
        ("noon", "12:00"), ("Midnight", "00:00"), (" 23:59 ", "23:59"), ("0000", "00:00"),
    ])
    func timesOfDay(text: String, expected: String) throws {
        #expect(try TimeOfDay.parse(text).description == expected)
    }

    @Test(arguments: ["24", "2400", "7:60", "13pm", "0am", "7:3", "7::30", "730pm5", "seven", "", "7:30:00", "１２:００", "99999"])
    func timeRefusals(text: String) {
        #expect(throws: ValidationError.self) { try TimeOfDay.parse(text, field: "TIME") }
        do { _ = try TimeOfDay.parse(text, field: "TIME") } catch {
            #expect(error.field == "TIME")
        }
    }

    static func day(_ text: String) -> Int64 { CivilTime.dayNumber(isoDate: text)! }

    @Test func daysAndTimesInEitherOrder() throws {
        let cases: [(String, DayAndTime)] = [
            ("tomorrow 7:00", DayAndTime(day: .tomorrow, time: try TimeOfDay(hour: 7, minute: 0))),
            ("9:00 tomorrow", DayAndTime(day: .tomorrow, time: try TimeOfDay(hour: 9, minute: 0))),
            ("fri 9:00", DayAndTime(day: .weekday(.friday), time: try TimeOfDay(hour: 9, minute: 0))),
            ("9am Friday", DayAndTime(day: .weekday(.friday), time: try TimeOfDay(hour: 9, minute: 0))),
            ("2026-12-24 9:00", DayAndTime(day: .date(Self.day("2026-12-24")), time: try TimeOfDay(hour: 9, minute: 0))),
            ("7:30 pm today", DayAndTime(day: .today, time: try TimeOfDay(hour: 19, minute: 30))),
            ("tomorrow", DayAndTime(day: .tomorrow)),
            ("2026-12-05", DayAndTime(day: .date(Self.day("2026-12-05")))),
            ("noon", DayAndTime(time: try TimeOfDay(hour: 12, minute: 0))),
        ]
        for (text, expected) in cases { #expect(try DayAndTime.parse(text, field: "--at") == expected, "\(text)") }
        // An alarm needs a time.
        #expect(throws: ValidationError.self) { try DayAndTime.parse("tomorrow", field: "TIME", requireTime: true) }
        for bad in ["tomorrow tomorrow", "7:00 8:00", "12/05 9:00", "next friday", "tomorrow 25:00", "in 5 minutes", String(repeating: "7", count: 100)] {
            #expect(throws: ValidationError.self, "\(bad)") { try DayAndTime.parse(bad, field: "--at") }
        }
        // A time with its own mistake gets its own reason.
        do { _ = try DayAndTime.parse("tomorrow 25:00", field: "--at") } catch {
            #expect(error.requirement == "must have an hour of 0–23" && error.field == "--at")
        }
        do { _ = try DayAndTime.parse("next friday", field: "--at") } catch {
            #expect(error.requirement.hasPrefix("must be a time (7, 0730, 7:30") && error.requirement.contains("tomorrow 7:30"))
        }
    }

    /// Days resolve from the clock the caller passes: Wednesday 2026-12-02
    /// 10:00 UTC.
    @Test func daysResolveFromNow() throws {
        let now = try ISO.seconds("2026-12-02T10:00:00Z")
        let utc = Zone.utc.rules
        func resolved(_ text: String) throws -> String {
            RecurrenceRule.dateText(try DayAndTime.parse(text, field: "x").resolveDay(now: now, rules: utc, allDay: .nineAM))
        }
        #expect(try resolved("9:00") == "2026-12-03", "passed today: tomorrow")
        #expect(try resolved("11:00") == "2026-12-02")
        #expect(try resolved("wed 9:00") == "2026-12-09", "today's has passed: next week")
        #expect(try resolved("wed 11:00") == "2026-12-02")
        #expect(try resolved("fri") == "2026-12-04")
        #expect(try resolved("tuesday 8am") == "2026-12-08")
        #expect(try resolved("tomorrow") == "2026-12-03")
        #expect(try resolved("today 7:00") == "2026-12-02", "today is today; whether the past is allowed is the caller's")
        #expect(try resolved("2026-01-01 9:00") == "2026-01-01")
        // In a zone where it is already Thursday.
        #expect(RecurrenceRule.dateText(try DayAndTime.parse("tomorrow", field: "x").resolveDay(now: now, rules: try zone("Pacific/Kiritimati").rules, allDay: .nineAM))
            == "2026-12-04")
    }

    /// Looking back (`history --since`), the same words name the past: the
    /// last such weekday, a time alone today once it has come, yesterday.
    /// Wednesday 2026-12-02 10:00 UTC.
    @Test func daysResolveLookingBack() throws {
        let now = try ISO.seconds("2026-12-02T10:00:00Z")
        func resolved(_ text: String) throws -> String {
            RecurrenceRule.dateText(try DayAndTime.parse(text, field: "x").resolveDay(now: now, rules: Zone.utc.rules, allDay: .midnight, lookingBack: true))
        }
        #expect(try resolved("mon") == "2026-11-30", "the last Monday, not the next")
        #expect(try resolved("wed") == "2026-12-02", "today, since midnight")
        #expect(try resolved("wed 11:00") == "2026-11-25", "today's has not come yet: a week ago")
        #expect(try resolved("thu") == "2026-11-26")
        #expect(try resolved("9:00") == "2026-12-02")
        #expect(try resolved("11:00") == "2026-12-01", "not come yet today: yesterday's")
        #expect(try resolved("yesterday") == "2026-12-01")
        #expect(try resolved("2026-11-01") == "2026-11-01")
    }

    @Test(arguments: [
        ("20m", 1200), ("20min", 1200), ("20 minutes", 1200), ("1h30m", 5400), ("1h 30m", 5400), ("1.5h", 5400), ("90s", 90), ("2d", 172_800),
        ("1 hour", 3600), ("2 hrs 5 mins", 7500), ("1w", 604_800), ("0.5m", 30), ("1d2h3m4s", 93_784), ("25m", 1500),
    ] as [(String, Int64)])
    func durations(text: String, seconds: Int64) throws {
        #expect(try DurationParser.parse(text) == seconds)
    }

    @Test func durationRefusalsAndNow() throws {
        #expect(try DurationParser.parse("now", allowNow: true) == 0)
        for bad in ["now", "", "5", "m", "30m 1h", "1h1h", "1.5", "0.3s", "1.1234567h", "5 parsecs", "-5m", "0m", "36501d", "99999999999999999999d"] {
            #expect(throws: ValidationError.self, "\(bad)") { try DurationParser.parse(bad, field: "--in") }
        }
        do { _ = try DurationParser.parse("5 parsecs", field: "--in") } catch {
            #expect(error.field == "--in" && error.requirement == "must be a duration like " + DurationParser.forms)
        }
        do { _ = try DurationParser.parse("36501d", field: "--in") } catch {
            #expect(error.requirement == "must be at most 36500 days (100 years)")
        }
    }

    @Test func repeatDaysInSystemdsFormAndMore() throws {
        #expect(try RepeatDays.parse("Mon..Fri") == .weekdays)
        #expect(try RepeatDays.parse("weekend") == .weekends)
        #expect(try RepeatDays.parse("Saturday,Sunday") == .weekends)
        #expect(try RepeatDays.parse("fri..mon") == RepeatDays([.friday, .saturday, .sunday, .monday]))
        #expect(throws: ValidationError.self) { try RepeatDays.parse("Mon...Fri") }
    }
}

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
        ("morning", "08:00"), ("Afternoon", "13:00"), ("evening", "18:00"), ("night", "20:00"), ("tonight", "20:00"),
        ("早上", "08:00"), ("上午", "08:00"), ("中午", "12:00"), ("下午", "13:00"), ("傍晚", "18:00"), ("晚上", "18:00"), ("午夜", "00:00"),
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
            // ISO 8601's local date and time, as remind --at also takes it.
            ("2026-12-24T07:00", DayAndTime(day: .date(Self.day("2026-12-24")), time: try TimeOfDay(hour: 7, minute: 0))),
            ("7:30 pm today", DayAndTime(day: .today, time: try TimeOfDay(hour: 19, minute: 30))),
            ("tomorrow", DayAndTime(day: .tomorrow)),
            ("2026-12-05", DayAndTime(day: .date(Self.day("2026-12-05")))),
            ("noon", DayAndTime(time: try TimeOfDay(hour: 12, minute: 0))),
        ]
        for (text, expected) in cases { #expect(try DayAndTime.parse(text, field: "--at") == expected, "\(text)") }
        // An alarm needs a time.
        #expect(throws: ValidationError.self) { try DayAndTime.parse("tomorrow", field: "TIME", requireTime: true) }
        for bad in ["tomorrow tomorrow", "7:00 8:00", "2026-12-24T", "2026-13-24T07:00", "2026-12-24T07:00Z", "12/05 9:00", "next", "next month", "tomorrow 25:00", "in 5 minutes", "dec 32", "32nd", "1th",
                    "明天 後天", "下週八", String(repeating: "7", count: 100)] {
            #expect(throws: ValidationError.self, "\(bad)") { try DayAndTime.parse(bad, field: "--at") }
        }
        // A time with its own mistake gets its own reason.
        do { _ = try DayAndTime.parse("tomorrow 25:00", field: "--at") } catch {
            #expect(error.requirement == "must have an hour of 0–23" && error.field == "--at")
        }
        // And is quoted as typed, not as read.
        let quoted = #expect(throws: ValidationError.self) { try DayAndTime.parse("2026-12-24T07:00Z", field: "TIME") }
        #expect(quoted?.value == "\"07:00Z\"", "\(String(describing: quoted))")
        do { _ = try DayAndTime.parse("next month", field: "--at") } catch {
            #expect(error.requirement.hasPrefix("must be a time (7:30, 7am") && error.requirement.contains("next tue at 2pm"))
        }
    }

    /// A clock's time said in words, with a day, a meridiem or neither.
    @Test(arguments: [
        ("half past six", nil as DayAndTime.Day?, 6, 30), ("a quarter to eight pm", nil, 19, 45), ("10 past 7", nil, 7, 10),
        ("twenty to nine tomorrow", .tomorrow, 8, 40), ("fri at quarter past noon", .weekday(.friday), 12, 15), ("five to midnight", nil, 23, 55),
        ("quarter to one", nil, 12, 45), ("quarter to one am", nil, 0, 45), ("6 o'clock", nil, 6, 0), ("six o\u{2019}clock pm", nil, 18, 0),
        ("six pm", nil, 18, 0), ("twenty five past 6", nil, 6, 25), ("5 minutes to 9", nil, 8, 55), ("quarter past midnight", nil, 0, 15),
    ])
    func clockTimesInWords(text: String, day: DayAndTime.Day?, hour: Int, minute: Int) throws {
        #expect(try DayAndTime.parse(text, field: "TIME") == DayAndTime(day: day, time: try TimeOfDay(hour: hour, minute: minute)), "\(text)")
    }

    /// A part of the day said with a day or a time turns the time (`9
    /// tonight` is 21:00) or is the time; said alone it is a time of its own.
    @Test(arguments: [
        ("tonight 9pm", DayAndTime.Day.today as DayAndTime.Day?, 21, 0), ("tonight at 9", .today, 21, 0), ("9 tonight", .today, 21, 0), ("tonight", .today, 20, 0),
        ("tomorrow morning at 7", .tomorrow, 7, 0), ("tomorrow night 10:30", .tomorrow, 22, 30), ("fri evening 6", .weekday(.friday), 18, 0),
        ("this evening", .today, 18, 0), ("this afternoon at 3", .today, 15, 0), ("5:30 in the morning", nil, 5, 30), ("7 in the evening tomorrow", .tomorrow, 19, 0),
        ("9 at night", nil, 21, 0), ("12 at night", nil, 0, 0), ("this friday 8am", .weekday(.friday), 8, 0), ("19:00 tonight", .today, 19, 0),
        ("half past 3 in the afternoon", nil, 15, 30), ("tomorrow morning", .tomorrow, 8, 0),
        // The small hours of the night: tonight's are tomorrow's.
        ("tonight at 1", .tomorrow, 1, 0), ("2 at night", nil, 2, 0), ("tonight at 12", .tomorrow, 0, 0), ("midnight tonight", .tomorrow, 0, 0),
        ("tonight at half past 12", .tomorrow, 0, 30), ("tonight at 11", .today, 23, 0), ("this evening at 6", .today, 18, 0),
        // Spelled hours the words after them turn; a meridiem on a clock phrase's hour.
        ("seven in the evening", nil, 19, 0), ("six tonight", .today, 18, 0), ("ten at night", nil, 22, 0),
        ("in the morning at 7", nil, 7, 0), ("half past 6pm", nil, 18, 30), ("quarter to 8am", nil, 7, 45), ("quarter to 12am", nil, 23, 45),
        ("quarter to 1pm", nil, 12, 45), ("quarter to 1am", nil, 0, 45), ("quarter past 12am", nil, 0, 15),
    ])
    func partsOfTheDaySaid(text: String, day: DayAndTime.Day?, hour: Int, minute: Int) throws {
        #expect(try DayAndTime.parse(text, field: "TIME") == DayAndTime(day: day, time: try TimeOfDay(hour: hour, minute: minute)), "\(text)")
    }

    /// A part of the day said alone beside a time is a second time, so the
    /// words around it can be a label (`add 7:30 morning run`).
    @Test(arguments: ["7:30 morning", "morning 7:15", "tonight 9 10", "this evening in the morning 7"])
    func aPartOfTheDayAloneIsNoTurn(text: String) {
        #expect(throws: ValidationError.self, "\(text)") { try DayAndTime.parse(text, field: "TIME") }
    }

    /// Words that only look like a clock's time: a span (`9 to 5`), half an
    /// hour to something, a number past what a clock has.
    @Test(arguments: ["9 to 5", "half to six", "quarter past", "30 past 7", "quarter past thirteen", "ten past", "six", "twenty past 25"])
    func clockWordsThatAreNone(text: String) {
        #expect(throws: ValidationError.self, "\(text)") { try DayAndTime.parse(text, field: "TIME") }
    }

    /// The day words people say, in English and in Traditional Chinese, with
    /// the filler words around them.
    @Test(arguments: [
        ("next tue 2pm", DayAndTime.Day.nextWeekday(.tuesday), "14:00"), ("next tuesday at 2pm", .nextWeekday(.tuesday), "14:00"),
        ("tue 2pm", .weekday(.tuesday), "14:00"), ("on fri at 9", .weekday(.friday), "09:00"),
        ("dec 24 9am", .monthDay(month: 12, day: 24), "09:00"), ("24 dec 9:00", .monthDay(month: 12, day: 24), "09:00"),
        ("December 24th at 9am", .monthDay(month: 12, day: 24), "09:00"), ("9am sept 3", .monthDay(month: 9, day: 3), "09:00"),
        ("1st of month 8:00", .dayOfMonth(1), "08:00"), ("the 1st of the month at 8", .dayOfMonth(1), "08:00"), ("15th 18:00", .dayOfMonth(15), "18:00"),
        ("明天 7:00", .tomorrow, "07:00"), ("明天早上7點", .tomorrow, "07:00"), ("後天下午3點半", .dayAfterTomorrow, "15:30"),
        ("今天晚上9點30分", .today, "21:30"), ("下週二下午2點", .nextWeek(.tuesday), "14:00"), ("週五 9:00", .weekday(.friday), "09:00"),
        ("星期日 中午12點", .weekday(.sunday), "12:00"), ("禮拜三 上午12點", .weekday(.wednesday), "00:00"), ("下星期一 8點", .nextWeek(.monday), "08:00"),
        // Chinese numerals count hours and minutes; a weekday's stays its name.
        ("明天早上七點半", .tomorrow, "07:30"), ("下週一上午十點", .nextWeek(.monday), "10:00"), ("週三 下午兩點十五分", .weekday(.wednesday), "14:15"),
        ("後天 晚上八點", .dayAfterTomorrow, "20:00"), ("星期一 晚上十一點", .weekday(.monday), "23:00"),
        // A month and a day, as a Chinese calendar writes them.
        ("12月24日 7:00", .monthDay(month: 12, day: 24), "07:00"), ("12月24日晚上7點", .monthDay(month: 12, day: 24), "19:00"),
        ("1月5號 9點", .monthDay(month: 1, day: 5), "09:00"), ("十二月二十五日 早上八點", .monthDay(month: 12, day: 25), "08:00"),
        // Days people call by name, and the slips people make typing tomorrow.
        ("christmas eve 6am", .monthDay(month: 12, day: 24), "06:00"), ("christmas 9:00", .monthDay(month: 12, day: 25), "09:00"),
        ("new year's eve at 23:00", .monthDay(month: 12, day: 31), "23:00"), ("new year's day 10am", .monthDay(month: 1, day: 1), "10:00"),
        ("聖誕夜早上6點", .monthDay(month: 12, day: 24), "06:00"), ("元旦 上午10點", .monthDay(month: 1, day: 1), "10:00"),
        ("tomorow 9am", .tomorrow, "09:00"), ("tommorow 9am", .tomorrow, "09:00"),
    ])
    func spokenDays(text: String, day: DayAndTime.Day, time: String) throws {
        let parsed = try DayAndTime.parse(text, field: "--at")
        #expect(parsed.day == day)
        #expect(parsed.time?.description == time)
    }

    /// Durations in Chinese numerals, as typed for a timer or `--in`.
    @Test func chineseNumeralsInDurations() throws {
        #expect(try DurationParser.parse("三分鐘") == 180)
        #expect(try DurationParser.parse("兩個小時") == 7_200)
        #expect(try DurationParser.parse("一小時三十分") == 5_400)
        #expect(try DurationParser.relative("二十分鐘後", field: "WHEN") == 1_200)
        #expect(throws: ValidationError.self, "no count, no number") { try DurationParser.parse("一一分鐘") }
    }

    /// Wednesday 2026-12-02 10:00 UTC: where each spoken day falls.
    @Test func spokenDaysResolveFromNow() throws {
        let now = try ISO.seconds("2026-12-02T10:00:00Z")
        func resolved(_ text: String, lookingBack: Bool = false) throws -> String {
            RecurrenceRule.dateText(try DayAndTime.parse(text, field: "x").resolveDay(now: now, rules: Zone.utc.rules, allDay: .nineAM, lookingBack: lookingBack))
        }
        #expect(try resolved("next wed 11:00") == "2026-12-09", "never today, even with the time ahead")
        #expect(try resolved("next thu") == "2026-12-03", "the first Thursday after today")
        #expect(try resolved("下週三") == "2026-12-09", "Wednesday of next week")
        #expect(try resolved("下週一") == "2026-12-07")
        #expect(try resolved("下週日") == "2026-12-13", "weeks start on Monday")
        #expect(try resolved("後天") == "2026-12-04")
        #expect(try resolved("dec 24") == "2026-12-24")
        #expect(try resolved("dec 2 9:00") == "2027-12-02", "this year's has passed")
        #expect(try resolved("feb 29") == "2028-02-29", "the next year that has it")
        #expect(try resolved("1st") == "2027-01-01")
        #expect(try resolved("2nd 11:00") == "2026-12-02", "today, its time still ahead")
        #expect(try resolved("31st") == "2026-12-31")
        #expect(try resolved("dec 1", lookingBack: true) == "2026-12-01")
        #expect(try resolved("1st", lookingBack: true) == "2026-12-01")
        #expect(try resolved("next wed", lookingBack: true) == "2026-11-25")
    }

    /// `in 25 min` and `25 分鐘後` are from now; the Chinese units read as the English ones.
    @Test func relativeDurationsAndChineseUnits() throws {
        #expect(try DurationParser.relative("in 25 min", field: "x") == 1500)
        #expect(try DurationParser.relative(" in 1h ", field: "x") == 3600)
        #expect(try DurationParser.relative("25 分鐘後", field: "x") == 1500)
        #expect(try DurationParser.relative("1小時30分之後", field: "x") == 5400)
        #expect(try DurationParser.relative("in the morning", field: "x") == nil, "a part of the day, not a span")
        #expect(try DurationParser.relative("2h ago", field: "x") == -7200)
        #expect(try DurationParser.relative("3天前", field: "x") == -259_200)
        #expect(try DurationParser.relative("tomorrow", field: "x") == nil)
        #expect(try DurationParser.relative("7:00", field: "x") == nil)
        #expect(throws: ValidationError.self) { try DurationParser.relative("in a while", field: "x") }
        #expect(try DurationParser.parse("3天") == 259_200)
        #expect(try DurationParser.parse("2個小時") == 7200)
        #expect(try DurationParser.parse("1 週") == 604_800)
        #expect(throws: ValidationError.self) { try DurationParser.parse("3 鐘") }
    }

    /// A repeat said in words, before or after the time.
    @Test(arguments: [
        ("every monday 7:00", RepeatDays([.monday]), 1, nil as Int?, "7:00"), ("7:00 every day", .everyDay, 1, nil, "7:00"),
        ("weekdays at 7", .weekdays, 1, nil, "at 7"), ("9am on weekends", .weekends, 1, nil, "9am"), ("mondays 8:00", RepeatDays([.monday]), 1, nil, "8:00"),
        ("every mon,thu 6:30", RepeatDays([.monday, .thursday]), 1, nil, "6:30"), ("every 2 weeks on fri 9:00", RepeatDays([.friday]), 2, nil, "9:00"),
        ("every other tuesday 18:00", RepeatDays([.tuesday]), 2, nil, "18:00"), ("every 3 days 8:00", RepeatDays(), 1, 3, "8:00"), ("daily 7", .everyDay, 1, nil, "7"),
        ("每天早上7點", .everyDay, 1, nil, "早上7點"), ("每週一 7:00", RepeatDays([.monday]), 1, nil, "7:00"), ("平日 7:00", .weekdays, 1, nil, "7:00"),
        ("假日 9點", .weekends, 1, nil, "9點"), ("每個星期五晚上8點", RepeatDays([.friday]), 1, nil, "晚上8點"),
    ])
    func spokenRepeats(text: String, days: RepeatDays, weeks: Int, everyDays: Int?, rest: String) throws {
        let (found, left) = try SpokenRepeat.split(text, field: "TIME")
        #expect(found == SpokenRepeat(days: days, everyWeeks: weeks, everyDays: everyDays))
        #expect(left == rest)
    }

    /// A monthly repeat in words: on a day of the month, or (without one)
    /// on the day it is first due.
    @Test(arguments: [
        ("every month on the 1st 9am", 1, 1 as Int?, "9am"), ("monthly on the 15th 8:00", 1, 15, "8:00"), ("every 2 months on the 1st 9:00", 2, 1, "9:00"),
        ("every month 9:00", 1, nil, "9:00"), ("9:00 every month on the 1st", 1, 1, "9:00"), ("monthly 8:00", 1, nil, "8:00"), ("every month on 31 7:00", 1, 31, "7:00"), ("每月 9:00", 1, nil, "9:00"),
        ("the 1st of every month at 9am", 1, 1, "at 9am"), ("on the 15th of each month 8:00", 1, 15, "8:00"), ("1st of every 2 months 9:00", 2, 1, "9:00"),
        ("9am on the 1st of every month", 1, 1, "9am"),
    ])
    func monthlyRepeats(text: String, months: Int, day: Int?, rest: String) throws {
        let (found, left) = try SpokenRepeat.split(text, field: "WHEN")
        #expect(found == SpokenRepeat(days: [], everyMonths: months, monthDay: day), "\(text)")
        #expect(left == rest, "\(text)")
    }

    /// A yearly repeat in words: on a date, or (without one) on the day it
    /// is first due; a fortnight is two weeks.
    @Test(arguments: [
        ("every year on mar 12 9:00", 1, 3 as Int?, 12 as Int?, "9:00"), ("yearly on 12 march", 1, 3, 12, ""), ("annually on march 12th 8am", 1, 3, 12, "8am"),
        ("every year on the 12th of march", 1, 3, 12, ""), ("every 2 years on 03-12 7:00", 2, 3, 12, "7:00"), ("every year 9:00", 1, nil, nil, "9:00"),
        ("9:00 every year on dec 24", 1, 12, 24, "9:00"), ("每年 9:00", 1, nil, nil, "9:00"),
    ])
    func yearlyRepeats(text: String, years: Int, month: Int?, day: Int?, rest: String) throws {
        let (found, left) = try SpokenRepeat.split(text, field: "WHEN")
        #expect(found == SpokenRepeat(days: [], monthDay: day, everyYears: years, month: month), "\(text)")
        #expect(left == rest, "\(text)")
        // First due on its date: from 2026-12-04, 12 March 2027.
        if month == 3, day == 12, let found {
            let rule = found.rule(start: try #require(CivilTime.dayNumber(isoDate: "2026-12-04")))
            #expect(rule.nextDay(after: rule.start - 1).map(RecurrenceRule.dateText) == "2027-03-12", "\(text)")
        }
        let (fortnight, _) = try SpokenRepeat.split("every fortnight on fri 9:00", field: "WHEN")
        #expect(fortnight == SpokenRepeat(days: RepeatDays([.friday]), everyWeeks: 2))
    }

    /// Every other week, said on a Saturday (2026-12-05), first rings in the
    /// coming week, not the one after: the weeks count from its first day.
    @Test(arguments: [("every 2 weeks on fri 9:00", ["2026-12-11", "2026-12-25"]), ("every other tue 9:00", ["2026-12-08", "2026-12-22"]),
                      ("every 2 weeks on mon and thu 9:00", ["2026-12-07", "2026-12-10", "2026-12-21"]), ("every 2 weeks on sat 9:00", ["2026-12-05", "2026-12-19"])])
    func everyOtherWeekStartsThisComingWeek(text: String, days: [String]) throws {
        let found = try #require(try SpokenRepeat.split(text, field: "TIME").repeat)
        let rule = found.rule(start: try #require(CivilTime.dayNumber(isoDate: "2026-12-05")))
        var seen: [String] = [], day = rule.start - 1
        while seen.count < days.count, let next = rule.nextDay(after: day) {
            seen.append(RecurrenceRule.dateText(next))
            day = next
        }
        #expect(seen == days, "\(text)")
    }

    /// Days listed as --days lists them, joined by `and`, and in Chinese
    /// (每週二、四, 週一到週五, 每月1號): the repeat `list` shows can be typed back.
    @Test(arguments: [
        ("18:00 tue,thu", RepeatDays([.tuesday, .thursday]), nil as Int?, "18:00"), ("mon-fri 7:00", .weekdays, nil, "7:00"),
        ("6pm every tue and thu", RepeatDays([.tuesday, .thursday]), nil, "6pm"), ("tuesdays and thursdays 18:00", RepeatDays([.tuesday, .thursday]), nil, "18:00"),
        ("每週二、四晚上6點", RepeatDays([.tuesday, .thursday]), nil, "晚上6點"), ("每週二、週四 18:00", RepeatDays([.tuesday, .thursday]), nil, "18:00"),
        ("7:30 mon wed fri", RepeatDays([.monday, .wednesday, .friday]), nil, "7:30"), ("every mon wed fri 7:30", RepeatDays([.monday, .wednesday, .friday]), nil, "7:30"),
        ("mon, wed and fri at 7", RepeatDays([.monday, .wednesday, .friday]), nil, "at 7"), ("7:30 on tue & thu", RepeatDays([.tuesday, .thursday]), nil, "7:30"),
        ("6pm mondays, thursdays", RepeatDays([.monday, .thursday]), nil, "6pm"),
        ("週一到週五 早上7點", .weekdays, nil, "早上7點"), ("每月1號 早上9點", RepeatDays(), 1, "早上9點"), ("每個月十五日 9點", RepeatDays(), 15, "9點"),
    ])
    func listedAndChineseRepeats(text: String, days: RepeatDays, monthDay: Int?, rest: String) throws {
        let (found, left) = try SpokenRepeat.split(text, field: "TIME")
        let expected = monthDay == nil ? SpokenRepeat(days: days) : SpokenRepeat(days: [], everyMonths: 1, monthDay: monthDay)
        #expect(found == expected, "\(text)")
        #expect(left == rest, "\(text)")
    }

    /// Ranges in words, and days taken out: `mon to fri`, `every day except sun`.
    @Test(arguments: [
        ("7:30 mon to fri", RepeatDays.weekdays, "7:30"), ("monday through friday 7:30", .weekdays, "7:30"), ("7:30 every mon thru thu", RepeatDays([.monday, .tuesday, .wednesday, .thursday]), "7:30"),
        ("fri to mon 9:00", RepeatDays([.friday, .saturday, .sunday, .monday]), "9:00"), ("7:30 every day except sunday", RepeatDays.everyDay.subtracting(RepeatDays([.sunday])), "7:30"),
        ("daily but weekends 7", .weekdays, "7"), ("7:30 weekdays except wed and fri", RepeatDays([.monday, .tuesday, .thursday]), "7:30"),
        ("every day except mon to thu at 8", RepeatDays([.friday, .saturday, .sunday]), "at 8"),
        ("每天除了週日 7:00", RepeatDays.everyDay.subtracting(RepeatDays([.sunday])), "7:00"), ("每天除了週末早上7點", .weekdays, "早上7點"),
        ("平日除了週三和週五 8點", RepeatDays([.monday, .tuesday, .thursday]), "8點"),
    ])
    func rangesAndExceptions(text: String, days: RepeatDays, rest: String) throws {
        let (found, left) = try SpokenRepeat.split(text, field: "TIME")
        #expect(found == SpokenRepeat(days: days), "\(text)")
        #expect(left == rest, "\(text)")
    }

    /// Taking out every day, or days from a repeat of dates, is no repeat; `to` without a weekday after it is a label's.
    @Test func exceptionsThatLeaveNothingAreRefused() throws {
        for text in ["7:30 every day except daily", "7:30 weekends but sat,sun", "every month on the 1st except mon 9:00", "every 3 days but fri 8:00"] {
            #expect(throws: ValidationError.self, "\(text)") { try SpokenRepeat.split(text, field: "TIME") }
        }
        let (found, left) = try SpokenRepeat.split("weekdays 7:30 to gym", field: "TIME")
        #expect(found == SpokenRepeat(days: .weekdays) && left == "7:30 to gym", "\(left)")
        // `except` takes days from the repeat before it, not from every day.
        // A range is a repeat by a time or after every; elsewhere a title's words.
        for text in ["move meeting mon to tue", "swap shift fri thru sun", "mon to fri plan"] {
            let (none, whole) = try SpokenRepeat.split(text, field: "TITLE")
            #expect(none == nil && whole == text, "\(text)")
        }
        #expect(try SpokenRepeat.split("standup 9:30 am mon to fri", field: "TITLE").repeat == SpokenRepeat(days: .weekdays))
        #expect(try SpokenRepeat.split("gym every mon to wed", field: "TITLE").repeat == SpokenRepeat(days: RepeatDays([.monday, .tuesday, .wednesday])))
        let (none, whole) = try SpokenRepeat.split("standup 9:30 except fri", field: "TIME")
        #expect(none == nil && whole == "standup 9:30 except fri", "\(whole)")
        // After the time, when the repeat came before it.
        let (split, time) = try SpokenRepeat.split("weekdays 9:30 except fri", field: "TIME")
        #expect(split == SpokenRepeat(days: RepeatDays([.monday, .tuesday, .wednesday, .thursday])) && time == "9:30", "\(time)")
    }

    /// One weekday alone is a day, not a repeat.
    @Test func oneWeekdayIsADay() throws {
        for text in ["tue 2pm", "2pm tue", "tue, 2pm"] {
            let (found, left) = try SpokenRepeat.split(text, field: "TIME")
            #expect(found == nil && left == text, "\(text)")
        }
        // A joining word without a weekday after it is not the repeat's.
        let (found, left) = try SpokenRepeat.split("every mon and 7:30", field: "TIME")
        #expect(found == SpokenRepeat(days: RepeatDays([.monday])) && left == "and 7:30")
    }

    /// Words left over as a label or title that start a repeat are one not
    /// understood, not a name.
    @Test func aRepeatNotUnderstoodIsFoundInTheLeftovers() {
        #expect(SpokenRepeat.repeatStart(in: ["every", "blue", "moon"]) == nil)
        #expect(SpokenRepeat.repeatStart(in: ["read", "every", "chapter"]) == nil)
        #expect(SpokenRepeat.repeatStart(in: ["every", "fortnight", "cleaning"]) == 0)
        #expect(SpokenRepeat.repeatStart(in: ["birthday", "yearly"]) == 1)
        #expect(SpokenRepeat.repeatStart(in: ["gym", "every", "2", "tuesdays"]) == 1)
    }

    @Test func wordsThatAreNoRepeatAreLeftAlone() throws {
        for text in ["7:00", "tomorrow 7:00", "next tue 2pm", "明天早上7點", "in 25 min"] {
            let (found, left) = try SpokenRepeat.split(text, field: "TIME")
            #expect(found == nil && left == text, "\(text)")
        }
        for bad in ["every blue moon 7:00", "every 2 weeks 9:00", "every 0 days 7:00", "every", "every month on the 32nd 9:00", "every 999 fortnight on fri 9:00"] {
            #expect(throws: ValidationError.self, "\(bad)") { try SpokenRepeat.split(bad, field: "TIME") }
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
        // As people say one of a unit.
        ("a week", 604_800), ("an hour", 3600), ("a day", 86_400), ("half an hour", 1800),
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
            #expect(error.field == "--in" && error.requirement == DurationParser.requirement)
        }
        do { _ = try DurationParser.parse("36501d", field: "--in") } catch {
            #expect(error.requirement == "must be at most 36500 days (100 years)")
        }
    }

    @Test func repeatDaysInSystemdsFormAndMore() throws {
        #expect(try RepeatDays.parse("Mon..Fri") == .weekdays)
        #expect(try RepeatDays.parse("mon to fri") == .weekdays && RepeatDays.parse("Friday through Sunday, tue") == RepeatDays([.friday, .saturday, .sunday, .tuesday]))
        #expect(try RepeatDays.parse("weekend") == .weekends)
        #expect(try RepeatDays.parse("Saturday,Sunday") == .weekends)
        #expect(try RepeatDays.parse("fri..mon") == RepeatDays([.friday, .saturday, .sunday, .monday]))
        #expect(throws: ValidationError.self) { try RepeatDays.parse("Mon...Fri") }
    }
}

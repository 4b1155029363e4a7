// SPDX-License-Identifier: Apache-2.0
@testable import AlarmCore
import Foundation
import Testing

/// Alarms and reminders with calendar rules, pauses and holidays: when they
/// fire, when they end, how they read, and what the ringing machine does
/// with them. Expected instants are literals.
@Suite struct CalendarAlarmTests {
    static let utc = Zone.utc
    static let created = RingingMachineTests.at("2026-12-01T00:00:00Z")

    static func day(_ text: String) -> Int64 { CivilTime.dayNumber(isoDate: text)! }
    static func at(_ text: String) -> Date { RingingMachineTests.at(text) }

    static func alarm(_ rule: RecurrenceRule?, days: RepeatDays = .never, time: String = "07:30", paused: String? = nil, skipHolidays: Bool = false) throws -> Alarm {
        Alarm(id: UUID(uuidString: "00000000-0000-0000-0000-0000000000C1")!, time: try timeOfDay(time), days: days, label: "Cal",
              recurrence: rule, pausedUntil: paused.map(day), skipHolidays: skipHolidays, created: created)
    }

    static func fires(_ alarm: Alarm, after: String, count: Int, zone: Zone = utc, holidays: HolidayCalendar = .empty) -> [String] {
        var result: [String] = []
        var cursor = at(after)
        while result.count < count, let next = alarm.nextFire(after: cursor, in: zone, holidays: holidays) {
            result.append(ISO.string(next))
            cursor = next
        }
        return result
    }

    static let holidays = try! HolidayCalendar(icalendar: """
        BEGIN:VCALENDAR
        VERSION:2.0
        BEGIN:VEVENT
        UID:xmas
        DTSTART;VALUE=DATE:20001225
        RRULE:FREQ=YEARLY
        SUMMARY:Christmas Day
        END:VEVENT
        BEGIN:VEVENT
        UID:boxing
        DTSTART;VALUE=DATE:20261228
        SUMMARY:Boxing Day (substitute)
        END:VEVENT
        END:VCALENDAR
        """)

    @Test func aDatedAlarmRingsOnceOnItsDayAndThenIsOver() throws {
        let flight = try Self.alarm(.once(on: Self.day("2026-12-24")), time: "05:10")
        #expect(!flight.isOneShot)
        #expect(Self.fires(flight, after: "2026-12-02T00:00:00Z", count: 3) == ["2026-12-24T05:10:00Z"])
        #expect(flight.isLast(Self.at("2026-12-24T05:10:00Z"), in: Self.utc, holidays: .empty))
        #expect(flight.repeatText == "Once on Thu, Dec 24")
        #expect(flight.listLine == "Cal, Once on Thu, Dec 24")
    }

    @Test func everyOtherWeekCountsFromTheStart() throws {
        let gym = try Self.alarm(RecurrenceRule(.weekly, interval: 2, byDay: [.init(.monday), .init(.thursday)], start: Self.day("2026-12-07")))
        #expect(Self.fires(gym, after: "2026-12-01T00:00:00Z", count: 4)
            == ["2026-12-07T07:30:00Z", "2026-12-10T07:30:00Z", "2026-12-21T07:30:00Z", "2026-12-24T07:30:00Z"])
        #expect(gym.repeatText == "Every 2 weeks on Mon, Thu")
        #expect(!gym.isLast(Self.at("2026-12-24T07:30:00Z"), in: Self.utc, holidays: .empty))
    }

    @Test func monthlyOnThe31stSkipsShortMonthsAsRFC5545Says() throws {
        let rent = try Self.alarm(RecurrenceRule(.monthly, byMonthDay: [31], start: Self.day("2026-12-01")))
        #expect(Self.fires(rent, after: "2026-12-01T00:00:00Z", count: 4)
            == ["2026-12-31T07:30:00Z", "2027-01-31T07:30:00Z", "2027-03-31T07:30:00Z", "2027-05-31T07:30:00Z"])
        #expect(rent.recurrence?.skippedMonthsNote == "months without day 31 are skipped")
        #expect(rent.repeatText == "Monthly on day 31")
    }

    @Test func rulesReadInWords() {
        let start = Self.day("2026-12-01")
        let cases: [(RecurrenceRule, String)] = [
            (RecurrenceRule(.daily, interval: 3, start: start), "Every 3 days"),
            (RecurrenceRule(.monthly, byMonthDay: [15], start: start), "Monthly on day 15"),
            (RecurrenceRule(.monthly, byMonthDay: [-1], start: start), "Monthly on the last day"),
            (RecurrenceRule(.monthly, byDay: [.init(.tuesday, ordinal: 2)], start: start), "Monthly on the 2nd Tue"),
            (RecurrenceRule(.monthly, byDay: [.init(.friday, ordinal: -1)], start: start), "Monthly on the last Fri"),
            (RecurrenceRule(.yearly, byMonthDay: [24], byMonth: [12], start: start), "Yearly on Dec 24"),
            (RecurrenceRule(.weekly, byDay: [.init(.monday)], start: start, end: .until(Self.day("2027-06-30"))), "Mon, until Jun 30, 2027"),
            (RecurrenceRule(.daily, start: start, end: .count(3)), "Every day, 3 times"),
            (RecurrenceRule(.daily, start: start, exceptions: [Self.day("2026-12-25"), Self.day("2027-01-01")]), "Every day, except 2 dates"),
            (RecurrenceRule(.daily, start: start, exceptions: [Self.day("2026-12-25")]), "Every day, except Dec 25"),
        ]
        for (rule, words) in cases { #expect(rule.displayText == words) }
    }

    @Test func aRuleThatEndsSwitchesTheAlarmOffAfterItsLastOccurrence() throws {
        let thrice = try Self.alarm(RecurrenceRule(.daily, start: Self.day("2026-12-01"), end: .count(3)))
        #expect(Self.fires(thrice, after: "2026-11-30T00:00:00Z", count: 5) == ["2026-12-01T07:30:00Z", "2026-12-02T07:30:00Z", "2026-12-03T07:30:00Z"])
        #expect(!thrice.isLast(Self.at("2026-12-02T07:30:00Z"), in: Self.utc, holidays: .empty))
        #expect(thrice.isLast(Self.at("2026-12-03T07:30:00Z"), in: Self.utc, holidays: .empty))
        // Dismissing the last occurrence switches it off, as for a one-shot alarm.
        let ringing = RingState(anchor: Self.at("2026-12-03T07:30:00Z"), phase: .ringing(since: Self.at("2026-12-03T07:30:00Z")),
                                occurrence: Self.at("2026-12-03T07:30:00Z"))
        let last = try RingingMachine.handle(.dismiss, item: .alarm(thrice), state: ringing, now: Self.at("2026-12-03T07:31:00Z"), zone: Self.utc,
                                             policy: RingingMachineTests.policy)
        #expect(last.actions.contains(.disableAlarm))
        var earlier = ringing
        earlier.occurrence = Self.at("2026-12-02T07:30:00Z")
        earlier.phase = .ringing(since: Self.at("2026-12-02T07:30:00Z"))
        let middle = try RingingMachine.handle(.dismiss, item: .alarm(thrice), state: earlier, now: Self.at("2026-12-02T07:31:00Z"), zone: Self.utc,
                                               policy: RingingMachineTests.policy)
        #expect(!middle.actions.contains(.disableAlarm))
    }

    @Test func aPausePassesOverDaysBeforeItsEndAndRingsOnTheDayItself() throws {
        let work = try Self.alarm(nil, days: .weekdays, paused: "2027-01-05")
        #expect(Self.fires(work, after: "2026-12-21T00:00:00Z", count: 2) == ["2027-01-05T07:30:00Z", "2027-01-06T07:30:00Z"])
        // Once the pause is over it changes nothing.
        #expect(Self.fires(work, after: "2027-02-01T00:00:00Z", count: 1) == ["2027-02-01T07:30:00Z"])
        // A pinned zone's day: 07:30 in Tokyo on Jan 5 is Jan 4 22:30 UTC.
        var pinned = work
        pinned.timeZone = try zone("Asia/Tokyo")
        #expect(Self.fires(pinned, after: "2026-12-21T00:00:00Z", count: 1) == ["2027-01-04T22:30:00Z"])
    }

    @Test func holidaysArePassedOverOnlyWhenAsked() throws {
        let asked = try Self.alarm(nil, days: .weekdays, skipHolidays: true)
        #expect(Self.fires(asked, after: "2026-12-24T08:00:00Z", count: 2, holidays: Self.holidays) == ["2026-12-29T07:30:00Z", "2026-12-30T07:30:00Z"])
        let notAsked = try Self.alarm(nil, days: .weekdays)
        #expect(Self.fires(notAsked, after: "2026-12-24T08:00:00Z", count: 1, holidays: Self.holidays) == ["2026-12-25T07:30:00Z"])
        // The holiday is the day where the alarm rings, in its zone.
        var taipei = asked
        taipei.timeZone = try zone("Asia/Taipei")
        #expect(Self.fires(taipei, after: "2026-12-24T00:00:00Z", count: 1, holidays: Self.holidays) == ["2026-12-28T23:30:00Z"])
        // The ringing machine takes the calendar from its policy.
        var policy = RingingMachineTests.policy
        policy.holidays = Self.holidays
        let state = RingState(anchor: Self.at("2026-12-24T08:00:00Z"))
        #expect(RingingMachine.wake(item: .alarm(asked), state: state, zone: Self.utc, policy: policy) == Self.at("2026-12-29T07:30:00Z"))
        #expect(RingingMachine.wake(item: .alarm(asked), state: state, zone: Self.utc, policy: RingingMachineTests.policy) == Self.at("2026-12-25T07:30:00Z"))
    }

    @Test func aCalendarThatCoversEveryDayEndsTheSearch() throws {
        let everyDay = try HolidayCalendar(icalendar: "BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20000101\nRRULE:FREQ=DAILY\nEND:VEVENT\nEND:VCALENDAR\n")
        let asked = try Self.alarm(nil, days: .everyDay, skipHolidays: true)
        #expect(asked.nextFire(after: Self.at("2026-12-01T00:00:00Z"), in: Self.utc, holidays: everyDay) == nil)
    }

    @Test func theScheduleIncludesTheRulePauseAndHolidays() throws {
        let plain = try Self.alarm(nil, days: .weekdays)
        var paused = plain
        paused.pausedUntil = Self.day("2027-01-05")
        var skipping = plain
        skipping.skipHolidays = true
        var ruled = plain
        ruled.days = .never
        ruled.recurrence = .once(on: Self.day("2026-12-24"))
        for changed in [paused, skipping, ruled] { #expect(!Item.alarm(plain).hasSameSchedule(as: .alarm(changed))) }
        // Setting and clearing leaves the alarm as it was, box and all.
        var back = paused
        back.pausedUntil = nil
        #expect(back == plain)
    }

    @Test func aRepeatingReminderDoneComesBackAtItsNextDayAfterNow() throws {
        let water = Reminder(title: "Water the plants", due: Self.at("2026-12-02T18:00:00Z"),
                             recurrence: RecurrenceRule(.daily, interval: 3, start: Self.day("2026-12-02")), created: Self.created)
        // Done before it is due: the occurrence after this one.
        #expect(water.nextDue(after: Self.at("2026-12-02T09:00:00Z"), in: Self.utc) == Self.at("2026-12-05T18:00:00Z"))
        // Done a week late: the first one still ahead, not a string of overdue ones.
        #expect(water.nextDue(after: Self.at("2026-12-09T19:00:00Z"), in: Self.utc) == Self.at("2026-12-11T18:00:00Z"))
        // Local time of day is kept across a DST change.
        let berlin = try zone("Europe/Berlin")
        let weekly = Reminder(title: "Bins", due: Self.at("2027-03-22T17:00:00Z"),
                              recurrence: RecurrenceRule(.weekly, byDay: [.init(.monday)], start: Self.day("2027-03-22")), created: Self.created)
        #expect(weekly.nextDue(after: Self.at("2027-03-22T17:00:00Z"), in: berlin) == Self.at("2027-03-29T16:00:00Z"))

        let ringing = RingState(anchor: Self.at("2026-12-02T18:00:00Z"), phase: .ringing(since: Self.at("2026-12-02T18:00:00Z")),
                                occurrence: Self.at("2026-12-02T18:00:00Z"))
        let done = try RingingMachine.handle(.complete, item: .reminder(water), state: ringing, now: Self.at("2026-12-02T18:01:00Z"), zone: Self.utc,
                                             policy: RingingMachineTests.policy)
        #expect(done.actions == [.stopRinging, .advanceReminder(due: Self.at("2026-12-05T18:00:00Z")),
                                 .record(.completed, scheduled: Self.at("2026-12-02T18:00:00Z"), detail: "next due 2026-12-05T18:00:00Z")])
        let step = try DaemonMachine.step(.command(.complete), item: .reminder(water), state: ringing, now: Self.at("2026-12-02T18:01:00Z"), zone: Self.utc,
                                          policy: RingingMachineTests.policy)
        guard case .reminder(let after)? = step.item else { Issue.record("no reminder"); return }
        #expect(after.due == Self.at("2026-12-05T18:00:00Z") && !after.done)
        #expect(step.history.map(\.event) == [.completed])

        // The last occurrence done is done for good.
        let twice = Reminder(title: "Twice", due: Self.at("2026-12-03T18:00:00Z"),
                             recurrence: RecurrenceRule(.daily, start: Self.day("2026-12-02"), end: .count(2)), created: Self.created)
        #expect(twice.nextDue(after: Self.at("2026-12-03T18:00:00Z"), in: Self.utc) == nil)
        let last = try RingingMachine.handle(.complete, item: .reminder(twice), state: RingState(anchor: Self.created), now: Self.at("2026-12-03T18:01:00Z"),
                                             zone: Self.utc, policy: RingingMachineTests.policy)
        #expect(last.actions.first == .completeReminder)
    }

    @Test func advanceNoticesAreGivenAtTheirLeads() {
        let id = UUID()
        let due = Self.at("2026-12-02T14:00:00Z")
        let before = NoticePlan.plan(firings: [], reminders: [(id, due, [900, 3600])], now: Self.at("2026-12-02T12:00:00Z"), upcomingLead: 1800, given: [])
        #expect(before.due.isEmpty && before.next == Self.at("2026-12-02T13:00:00Z"))
        let hour = NoticePlan.plan(firings: [], reminders: [(id, due, [900, 3600])], now: Self.at("2026-12-02T13:00:01Z"), upcomingLead: 1800, given: [])
        #expect(hour.due == [NoticePlan.Notice(kind: .advance, id: id, occurrence: due, at: Self.at("2026-12-02T13:00:00Z"))])
        #expect(hour.next == Self.at("2026-12-02T13:45:00Z"))
        // Given once; a reminder gets no upcoming notice or audibility check.
        let again = NoticePlan.plan(firings: [], reminders: [(id, due, [900, 3600])], now: Self.at("2026-12-02T13:00:02Z"), upcomingLead: 1800,
                                    given: Set(hour.due))
        #expect(again.due.isEmpty)
    }

    @Test func validationNamesTheField() throws {
        var both = try Self.alarm(.once(on: Self.day("2026-12-24")))
        both.days = .weekdays
        #expect(throws: ValidationError(field: "days", requirement: "cannot be combined with a rule (a rule names its weekdays in byDay)", value: "mon,tue,wed,thu,fri")) {
            try both.validate()
        }
        let noDue = Reminder(title: "x", recurrence: RecurrenceRule(.daily, start: 0), created: Self.created)
        #expect(throws: ValidationError.self) { try noDue.validate() }
        let tooMany = Reminder(title: "x", before: Array(1...9), created: Self.created)
        #expect(throws: ValidationError(field: "before", requirement: "must be at most 8 notices", value: "9")) { try tooMany.validate() }
    }

    @Test func isoDatesAreStrict() {
        #expect(CivilTime.dayNumber(isoDate: "2026-12-24") == CivilTime.dayNumber(year: 2026, month: 12, day: 24))
        #expect(CivilTime.dayNumber(isoDate: "20261224", basic: true) == CivilTime.dayNumber(year: 2026, month: 12, day: 24))
        for bad in ["2026-02-29", "2026-13-01", "2026-1-01", "26-12-24", "2026/12/24", "0000-01-01", "2026-12-24 ", "２０２６-12-24"] {
            #expect(CivilTime.dayNumber(isoDate: bad) == nil, "\(bad)")
        }
    }
}

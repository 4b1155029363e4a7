// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import AlarmCore

/// What makes an alarm the same as another, which `AddAlarm` refuses
/// without `force`: when it rings and what it is called, nothing else.
@Suite struct AlarmTwinTests {
    static let created = Date(timeIntervalSince1970: 1_772_000_000)

    static func alarm(_ hour: Int, _ minute: Int = 0, days: RepeatDays = .never, label: String = "Work", rule: RecurrenceRule? = nil,
                      sound: Sound = .defaultAlarm, enabled: Bool = true) -> Alarm {
        Alarm(time: try! TimeOfDay(hour: hour, minute: minute), days: days, label: label, sound: sound, enabled: enabled, recurrence: rule, created: created)
    }

    static let work = alarm(7, days: .weekdays)
    static let fortnightly = RecurrenceRule(.weekly, interval: 2, byDay: [.init(.friday)], start: 20_000)

    @Test func theSameTimeDaysAndLabelInAnyCaseIsATwin() {
        #expect(Self.work.isTwin(of: Self.alarm(7, days: .weekdays, label: " work ")))
        // How it rings otherwise (sound, on or off) does not tell them apart.
        #expect(Self.work.isTwin(of: Self.alarm(7, days: .weekdays, sound: .themed("bell"), enabled: false)))
        #expect(Self.alarm(9, rule: Self.fortnightly).isTwin(of: Self.alarm(9, rule: Self.fortnightly)))
    }

    @Test(arguments: [
        alarm(7, days: .weekdays, label: "Gym"),
        alarm(7, 1, days: .weekdays),
        alarm(7, days: RepeatDays(.monday)),
        alarm(7),
        alarm(7, rule: RecurrenceRule(.weekly, byDay: [.init(.monday)], start: 20_000)),
    ])
    func anotherTimeDayOrLabelIsNot(_ other: Alarm) {
        #expect(!Self.work.isTwin(of: other))
        #expect(!other.isTwin(of: Self.work))
    }

    /// Two repeats alike from today on ring together whenever they began;
    /// two alarms on one date each are the same only on the same date.
    @Test func aRepeatsFirstDayDoesNotCountAOneOffsDayDoes() {
        var later = Self.fortnightly
        later.start += 14
        #expect(Self.alarm(9, rule: Self.fortnightly).isTwin(of: Self.alarm(9, rule: later)))
        let christmas = RecurrenceRule(.daily, start: 20_811, end: .count(1))
        var boxingDay = christmas
        boxingDay.start += 1
        #expect(Self.alarm(9, rule: christmas).isTwin(of: Self.alarm(9, rule: christmas)))
        #expect(!Self.alarm(9, rule: christmas).isTwin(of: Self.alarm(9, rule: boxingDay)))
    }

    /// `skip gym tomorrow` keeps a daily alarm as a weekly rule with an
    /// exception; adding `6:00 daily gym` again is still the same alarm.
    @Test func daysAreTheWeeklyRuleTheyAreAndSkippedDaysDoNotCount() {
        var skipping = RecurrenceRule.weekly(on: .everyDay, start: 20_000)
        skipping.exceptions = [20_001]
        #expect(Self.alarm(6, days: .everyDay, label: "gym").isTwin(of: Self.alarm(6, label: "gym", rule: skipping)))
        #expect(Self.alarm(6, label: "gym", rule: skipping).isTwin(of: Self.alarm(6, days: .everyDay, label: "gym")))
        #expect(!Self.alarm(6, days: .weekdays, label: "gym").isTwin(of: Self.alarm(6, label: "gym", rule: skipping)))
    }
}

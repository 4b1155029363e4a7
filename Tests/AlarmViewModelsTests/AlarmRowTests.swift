// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmViewModels
import Testing

@Suite struct AlarmRowTests {
    /// Sunday 23:25; the weekday alarm rings Monday 07:30.
    let now = Fixture.at("2026-03-08T23:25:00Z")
    let work = Fixture.alarm(next: "2026-03-09T07:30:00Z")

    @Test func aRowSaysItsTimeRepeatLabelAndNextRingInEnglish() {
        let row = AlarmRow(work, now: now, zone: .utc, language: Languages.english)
        #expect(row.timeText == "07:30")
        #expect(row.repeatText == "Weekdays")
        #expect(row.label == "Work")
        #expect(row.nextText == "in 8 h 5 min")
        #expect(row.subtitle == "Work, Weekdays · in 8 h 5 min")
        #expect(row.switchName == "Work")
        #expect(row.enabled && !row.isRinging && !row.isSnoozed)
        #expect(row.zoneText == nil)
    }

    @Test(.enabled(if: Languages.chineseUnavailable == nil)) func aRowSpeaksTraditionalChinese() {
        let l = Languages.zh
        let row = AlarmRow(work, now: now, zone: .utc, language: l)
        #expect(row.timeText == "上午7:30")
        #expect(row.repeatText == "平日")
        #expect(row.nextText == "8 小時 5 分鐘後")
        #expect(row.subtitle == "Work，平日 · 8 小時 5 分鐘後")
        var evening = work
        evening.time = Fixture.time(18, 45)
        evening.days = .weekends
        evening.label = "鬧鐘"
        let other = AlarmRow(evening, now: now, zone: .utc, language: l)
        #expect(other.timeText == "下午6:45")
        #expect(other.repeatText == "假日")
        #expect(other.switchName == "鬧鐘")
    }

    @Test func aOneShotAlarmLeavesTheRepeatOutOfItsSubtitle() {
        var once = work
        once.days = .never
        let row = AlarmRow(once, now: now, zone: .utc, language: Languages.english)
        #expect(row.repeatText == "Never")
        #expect(row.subtitle == "Work · in 8 h 5 min")
    }

    @Test func aRuleIsShownInItsOwnWords() throws {
        var rule = RecurrenceRule(.weekly, interval: 2, byDay: [.init(.monday), .init(.thursday)], start: Fixture.day(2026, 3, 2))
        rule.end = nil
        var item = work
        item.days = .never
        item.rule = rule
        #expect(AlarmRow(item, now: now, zone: .utc, language: Languages.english).repeatText == "Every 2 weeks on Mon, Thu")
        if Languages.chineseUnavailable == nil {
            #expect(AlarmRow(item, now: now, zone: .utc, language: Languages.zh).repeatText == rule.text(in: Languages.zh))
            #expect(rule.text(in: Languages.zh).contains("週一"))
        }
    }

    @Test func ringingAndSnoozedRowsSaySo() {
        var ringing = work
        ringing.phase = .ringing
        let row = AlarmRow(ringing, now: now, zone: .utc, language: Languages.english)
        #expect(row.isRinging)
        #expect(row.nextText == "ringing")
        var snoozed = work
        snoozed.phase = .snoozed
        snoozed.next = Fixture.at("2026-03-08T23:34:00Z")
        let snoozedRow = AlarmRow(snoozed, now: now, zone: .utc, language: Languages.english)
        #expect(snoozedRow.isSnoozed)
        #expect(snoozedRow.nextText == "snoozed until 23:34")
    }

    @Test func aPinnedAlarmNamesItsZone() {
        var pinned = work
        pinned.timeZone = "Asia/Taipei"
        #expect(AlarmRow(pinned, now: now, zone: .utc, language: Languages.english).zoneText == "Asia/Taipei")
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmViewModels
import Foundation
import Testing

@Suite struct NextRingPhraseTests {
    let l = Languages.english

    func phrase(_ item: AlarmItem, _ now: String, zone: Zone = .utc) -> String {
        NextRingPhrase.text(for: item, now: Fixture.at(now), zone: zone, in: l)
    }

    @Test func spansWithinADayAreSaidInHoursAndMinutes() {
        let item = Fixture.alarm(next: "2026-03-09T07:30:00Z")
        #expect(phrase(item, "2026-03-09T06:30:00Z") == "in 1 h")
        #expect(phrase(item, "2026-03-09T06:45:00Z") == "in 45 min")
        #expect(phrase(item, "2026-03-09T07:29:01Z") == "in less than a minute")
        #expect(phrase(item, "2026-03-09T07:28:59Z") == "in 1 min")
        #expect(phrase(item, "2026-03-08T23:25:00Z") == "in 8 h 5 min")
        // 23 h 59 min 30 s: minutes are never rounded up.
        #expect(phrase(item, "2026-03-08T07:30:30Z") == "in 23 h 59 min")
    }

    @Test func aSpanAcrossMidnightIsStillASpan() {
        let item = Fixture.alarm(0, 0, 10, next: "2026-03-10T00:10:00Z")
        #expect(phrase(item, "2026-03-09T23:50:00Z") == "in 20 min")
    }

    @Test func furtherAheadTheDayIsSaid() {
        let item = Fixture.alarm(next: "2026-03-10T07:30:00Z")
        #expect(phrase(item, "2026-03-09T07:00:00Z") == "tomorrow")
        #expect(phrase(item, "2026-03-06T07:00:00Z") == "on Tue")
        #expect(phrase(item, "2026-02-20T07:00:00Z") == "on Mar 10")
    }

    @Test func aDaylightSavingChangeCountsRealTime() throws {
        // Berlin springs forward on 2026-03-29 at 02:00: from 22:00 on the
        // evening before to 07:30 is 8 h 30 min, not the 9 h 30 min of the walls.
        var alarm = Alarm(time: Fixture.time(7, 30), days: .everyDay, created: Fixture.at("2026-03-01T00:00:00Z"))
        alarm.label = "Work"
        let now = Fixture.at("2026-03-28T22:00:00+01:00")
        let next = try #require(alarm.nextFire(after: now, in: Fixture.berlin))
        let item = AlarmItem(id: Fixture.ids[0], time: alarm.time, days: .everyDay, next: next)
        #expect(NextRingPhrase.text(for: item, now: now, zone: Fixture.berlin, in: l) == "in 8 h 30 min")
        // And falling back on 2026-10-25 adds the hour.
        let autumn = Fixture.at("2026-10-24T22:00:00+02:00")
        let later = try #require(alarm.nextFire(after: autumn, in: Fixture.berlin))
        let autumnItem = AlarmItem(id: Fixture.ids[0], time: alarm.time, days: .everyDay, next: later)
        #expect(NextRingPhrase.text(for: autumnItem, now: autumn, zone: Fixture.berlin, in: l) == "in 10 h 30 min")
    }

    @Test func offPausedSkippingAndOverSaySo() {
        var off = Fixture.alarm(next: nil, enabled: false)
        #expect(phrase(off, "2026-03-09T06:00:00Z") == "switched off")
        off.enabled = true
        #expect(phrase(off, "2026-03-09T06:00:00Z") == "will not ring again")

        var paused = Fixture.alarm(next: "2026-12-14T07:30:00Z")
        paused.pausedUntil = Fixture.day(2026, 12, 14)
        #expect(phrase(paused, "2026-12-01T06:00:00Z") == "paused until Dec 14")
        // The pause is over on its day.
        #expect(phrase(paused, "2026-12-14T06:00:00Z") == "in 1 h 30 min")

        // Wednesday noon, weekdays at 07:30, the next one skipped: the daemon's
        // next is Friday's, and the row names Thursday's, the one skipped.
        var skipping = Fixture.alarm(next: "2026-03-13T07:30:00Z")
        skipping.skipNext = true
        #expect(phrase(skipping, "2026-03-11T12:00:00Z") == "skipping Thu")
    }

    @Test(.enabled(if: Languages.chineseUnavailable == nil)) func phrasesInTraditionalChinese() {
        let zh = Languages.zh
        var paused = Fixture.alarm(next: "2026-12-14T07:30:00Z")
        paused.pausedUntil = Fixture.day(2026, 12, 14)
        #expect(NextRingPhrase.text(for: paused, now: Fixture.at("2026-12-01T06:00:00Z"), zone: .utc, in: zh) == "暫停至 12月14日")
        let soon = Fixture.alarm(next: "2026-03-09T07:30:00Z")
        #expect(NextRingPhrase.text(for: soon, now: Fixture.at("2026-03-09T07:29:30Z"), zone: .utc, in: zh) == "不到 1 分鐘後")
        #expect(NextRingPhrase.text(for: soon, now: Fixture.at("2026-03-08T07:00:00Z"), zone: .utc, in: zh) == "明天")
        let off = Fixture.alarm(enabled: false)
        #expect(NextRingPhrase.text(for: off, now: Fixture.at("2026-03-09T06:00:00Z"), zone: .utc, in: zh) == "已關閉")
    }

    @Test func withoutLiveStateTheNextRingIsWorkedOut() {
        var item = Fixture.alarm(next: nil)
        item.hasLiveState = false
        // Monday 06:00: the weekday alarm rings at 07:30.
        #expect(phrase(item, "2026-03-09T06:00:00Z") == "in 1 h 30 min")
    }
}

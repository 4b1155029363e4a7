// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import Testing

@Suite struct TimerTests {
    @Test func presetsAndCountdowns() {
        #expect(TimerPresets.minutes == [1, 5, 10, 15, 25])
        #expect(TimerPresets.name(minutes: 5, in: Languages.english) == "5 min")
        let now = Fixture.at("2026-03-09T12:00:00Z")
        let tea = ReminderItem(id: Fixture.ids[0], title: "Tea", due: Fixture.at("2026-03-09T12:04:59Z"), isTimer: true)
        let row = TimerRow(tea, now: now, language: Languages.english)
        #expect(row.remainingText == "4:59" && row.remainingSeconds == 299)
        #expect(row.cancelName == "Cancel Tea")
        #expect(row.cancelRequest.id == Fixture.ids[0])
        #expect(TimerRow.remainingText(3723) == "1:02:03")
        #expect(TimerRow.remainingText(-5) == "0:00")
        // A fraction of a second left still shows the second.
        #expect(TimerRow(tea, now: Fixture.at("2026-03-09T12:04:58.5Z"), language: Languages.english).remainingText == "0:01")
        let request = TimerPresets.startRequest(seconds: 300, now: now, zone: .utc, language: Languages.english)
        #expect(request.changes.title == "Timer 5:00")
        #expect(request.changes.due == "2026-03-09T12:05:00+00:00")
        #expect(request.changes.timer == true)
    }

    @Test func customDurations() throws {
        let l = Languages.english
        #expect(try TimerDuration.parse("90", in: l).get() == 5400)
        #expect(try TimerDuration.parse("1:30", in: l).get() == 90)
        #expect(try TimerDuration.parse("1:02:03", in: l).get() == 3723)
        #expect(try TimerDuration.parse("1h 30m", in: l).get() == 5400)
        #expect(try TimerDuration.parse("45s", in: l).get() == 45)
        for bad in ["", "0", "1:60", "abc", "25:00:01", "1:2", "5x", "-5"] {
            guard case .failure(let error) = TimerDuration.parse(bad, in: l) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(error.field == .duration)
        }
        #expect(TimerDuration.seconds(minutes: 1, seconds: 30) == 90)
        #expect(TimerDuration.seconds(minutes: 0, seconds: 0) == nil)
    }
}

@Suite struct RingingModelTests {
    @Test func anAlarmOffersItsOwnSnoozeFirst() {
        var item = Fixture.alarm(label: "Work")
        item.phase = .ringing
        item.snooze = SnoozeSettings(enabled: true, minutes: 10, maxCount: 2)
        let model = RingingModel(alarm: item, language: Languages.english)
        #expect(model.title == "Work" && model.timeText == "07:30")
        #expect(model.snoozeChoices.map(\.minutes) == [10, 5, 15])
        #expect(model.stopLabel == "Stop" && model.snoozeLabel == "Snooze")
        #expect(model.stopRequest.id == item.id)
        #expect(model.snoozeRequest(minutes: 5).json == ["id": .string(item.id), "minutes": 5])
        item.snoozeCount = 2
        let spent = RingingModel(alarm: item, language: Languages.english)
        #expect(!spent.snoozeAllowed && spent.snoozeChoices.isEmpty)
        if Languages.chineseUnavailable == nil {
            let zh = RingingModel(alarm: item, language: Languages.zh)
            #expect(zh.stopLabel == "停止" && zh.snoozeLabel == "稍後提醒")
        }
    }

    @Test func aReminderSnoozesForTheDaemonsLengthOrAnother() {
        let item = ReminderItem(id: Fixture.ids[1], title: "Call mum", due: Fixture.at("2026-03-09T18:00:00Z"), phase: .ringing)
        let model = RingingModel(reminder: item, now: Fixture.at("2026-03-09T18:00:05Z"), zone: .utc, language: Languages.english)
        #expect(model.timeText == "18:00")
        #expect(model.snoozeChoices.map(\.minutes) == [nil, 5, 10, 15])
        #expect(model.snoozeRequest().json == ["id": .string(Fixture.ids[1])])
    }
}

@Suite struct StatusBannerTests {
    let l = Languages.english

    /// A `Status` reply with these warnings (`nil`: a daemon that does not say).
    static func status(_ warnings: [String]?) -> Status.Reply {
        Status.Reply(version: "1", alarms: 0, reminders: 0, ringing: [], next: nil, timeZone: "UTC", wake: nil, linger: nil, warnings: warnings, sync: nil)
    }

    @Test func allWellIsNoBanner() {
        #expect(StatusBanner(reachability: .connected, status: Self.status([]), language: l) == nil)
        #expect(StatusBanner(reachability: .connected, status: Self.status(nil), language: l) == nil)
        #expect(StatusBanner(reachability: .connected, status: nil, language: l) == nil)
    }

    @Test func unreachableSaysHowToStartIt() throws {
        let banner = try #require(StatusBanner(reachability: .unreachable(path: "/run/user/1000/alarmd/io.alarmd"), status: nil, language: l))
        #expect(banner.title == "alarmd is not running")
        #expect(banner.advice.contains("systemctl --user start alarmd.socket"))
    }

    @Test func theDaemonsWarningsAreClassifiedMuteFirst() throws {
        let status = Self.status(["the machine will not wake from suspend for it (no RTC wake alarm)", "the output \"Speakers\" is muted"])
        let banner = try #require(StatusBanner(reachability: .connected, status: status, language: l))
        #expect(banner.problem == .outputMuted)
        #expect(StatusBanner.classify("the output \"Speakers\" is at 10 % volume") == .outputMuted)
        #expect(StatusBanner.classify("the sound server has no output to play on") == .noSoundServer)
        #expect(StatusBanner.classify("nothing can play its sound (connection refused, and no sound player is installed)") == .noSoundServer)
        #expect(StatusBanner.classify("the machine will not wake from suspend for it (no permission)") == .noWakeUp)
        #expect(StatusBanner.classify("no notification will show (no server)") == .noNotifications)
        #expect(StatusBanner.classify("something new") == .other)
        let other = try #require(StatusBanner(reachability: .connected, status: Self.status(["something new"]), language: l))
        #expect(other.title == "Alarms may not be heard: something new")
    }
}

@Suite struct ToastTextTests {
    let now = Fixture.at("2026-03-08T23:25:00Z")

    @Test func savingAnAlarmSaysWhenItRings() {
        let item = Fixture.alarm(next: "2026-03-09T07:30:00Z")
        #expect(ToastText.alarmSaved(item, now: now, language: Languages.english).title == "Alarm set for 8 h 5 min from now")
        var far = item
        far.next = Fixture.at("2026-03-11T09:00:00Z")
        #expect(ToastText.alarmSaved(far, now: now, language: Languages.english).title == "Alarm set for 2 d 9 h from now")
        if Languages.chineseUnavailable == nil {
            #expect(ToastText.alarmSaved(item, now: now, language: Languages.zh).title == "鬧鐘將在 8 小時 5 分鐘後響起")
        }
    }

    @Test func deletingOffersUndo() {
        let toast = ToastText.deleted(title: "Work", language: Languages.english)
        #expect(toast.title == "Deleted “Work”" && toast.buttonLabel == "Undo")
        if Languages.chineseUnavailable == nil {
            #expect(ToastText.deleted(title: "Work", language: Languages.zh) == ToastText(title: "已刪除「Work」", buttonLabel: "復原"))
        }
    }

    @Test func skippingNamesTheDaySkippedNotTheRingAfter() {
        // Weekdays at 7:30, on Wednesday noon: Thursday is skipped, and the
        // daemon's next ring is then Friday's.
        var item = Fixture.alarm(next: "2026-03-13T07:30:00Z")
        item.skipNext = true
        #expect(ToastText.skipped(item, now: Fixture.at("2026-03-11T12:00:00Z"), zone: .utc, language: Languages.english).title == "“Work” will not ring on Thu")
    }
}

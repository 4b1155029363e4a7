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

    @Test func pauseResumeAndMoreTime() throws {
        let l = Languages.english
        let now = Fixture.at("2026-03-09T12:00:00.4Z")
        let tea = ReminderItem(id: Fixture.ids[0], title: "Tea", due: Fixture.at("2026-03-09T12:04:59Z"), isTimer: true)
        #expect(TimerChange.pauseOrResume(tea) == .pause)
        // Paused: no due time, the whole seconds left kept (a part of a second counts).
        let pause = try TimerChange.pause.request(for: tea, now: now, zone: .utc).get()
        #expect(pause.id == Fixture.ids[0])
        #expect(pause.changes.due == "" && pause.changes.timerLeft == .some(299))
        var paused = tea
        (paused.due, paused.timerLeft) = (nil, 299)
        let row = TimerRow(paused, now: Fixture.at("2026-03-09T13:00:00Z"), language: l)
        #expect(row.isPaused && row.remainingText == "4:59", "a paused timer's time left stands still")
        #expect(row.pauseName == "Resume Tea" && row.moreTimeName == "One more minute for Tea")
        #expect(TimerRow(tea, now: now, language: l).pauseName == "Pause Tea")
        #expect(TimerChange.pauseOrResume(paused) == .resume)
        // Resumed: due the seconds left after the whole second it resumed in.
        let resume = try TimerChange.resume.changes(due: nil, timerLeft: 299, phase: .waiting, now: now, zone: .utc).get()
        #expect(resume.due == "2026-03-09T12:04:59+00:00" && resume.timerLeft == .some(nil))
        // More time: on the due time of a running timer, on the time left of a paused one.
        #expect(try TimerRow.moreTime.request(for: tea, now: now, zone: .utc).get().changes.due == "2026-03-09T12:05:59+00:00")
        #expect(try TimerRow.moreTime.request(for: paused, now: now, zone: .utc).get().changes.timerLeft == .some(359))
        // What does not apply is said, not sent.
        // A ringing or snoozed timer is past its due time: neither paused nor given more.
        var ringing = tea
        ringing.phase = .ringing
        #expect(throws: TimerChange.Refusal.ringing) { try TimerChange.pause.request(for: ringing, now: now, zone: .utc).get() }
        #expect(throws: TimerChange.Refusal.ringing) { try TimerRow.moreTime.request(for: ringing, now: now, zone: .utc).get() }
        var snoozed = tea
        (snoozed.phase, snoozed.next) = (.snoozed, Fixture.at("2026-03-09T12:09:59Z"))
        #expect(throws: TimerChange.Refusal.snoozed) { try TimerRow.moreTime.request(for: snoozed, now: now, zone: .utc).get() }
        #expect(throws: TimerChange.Refusal.snoozed) { try TimerChange.pause.request(for: snoozed, now: now, zone: .utc).get() }
        #expect(throws: TimerChange.Refusal.pausedAlready) { try TimerChange.pause.request(for: paused, now: now, zone: .utc).get() }
        #expect(throws: TimerChange.Refusal.notPaused) { try TimerChange.resume.request(for: tea, now: now, zone: .utc).get() }
        #expect(TimerChange.refusalText(.ringing, quoted: "“Tea”", language: l) == "“Tea” is ringing: snooze or dismiss it")
        #expect(ToastText.timerChanged(.pause, TimerRow(paused, now: now, language: l), language: l).title == "“Tea” paused, 4:59 left")
        var longer = paused
        longer.timerLeft = 359
        #expect(ToastText.timerChanged(.add(seconds: 60), TimerRow(longer, now: now, language: l), language: l).title == "“Tea”: 5:59 left")
        #expect(ToastText.timerRefused(.snoozed, title: "Tea", language: l).title == "“Tea” is snoozed: it rings again when the snooze ends")
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

    /// Of several ringing, an alarm first, else the reminder due first; the
    /// view says how many others ring.
    @Test func theFirstOfSeveralRingingSaysHowManyOthersRing() {
        let now = Fixture.at("2026-03-09T18:00:05Z")
        var work = Fixture.alarm(label: "Work")
        let waiting = work
        work.phase = .ringing
        let tea = ReminderItem(id: Fixture.ids[1], title: "Tea", due: Fixture.at("2026-03-09T18:00:00Z"), isTimer: true, phase: .ringing)
        let mum = ReminderItem(id: Fixture.ids[2], title: "Call mum", due: Fixture.at("2026-03-09T17:59:00Z"), phase: .ringing)
        let l = Languages.english
        let all = RingingModel.first(alarms: [work], reminders: [tea, mum], now: now, zone: .utc, language: l)
        #expect(all?.title == "Work" && all?.othersText == "2 more ringing")
        let two = RingingModel.first(alarms: [waiting], reminders: [tea, mum], now: now, zone: .utc, language: l)
        #expect(two?.title == "Call mum" && two?.othersText == "1 more ringing", "the one due first")
        let one = RingingModel.first(alarms: [waiting], reminders: [tea], now: now, zone: .utc, language: l)
        #expect(one?.title == "Tea" && one?.othersText == nil)
        #expect(RingingModel.first(alarms: [waiting], reminders: [], now: now, zone: .utc, language: l) == nil)
        // The one shown stays while it rings, whatever else starts ringing.
        let kept = RingingModel.first(alarms: [work], reminders: [tea, mum], keeping: tea.id, now: now, zone: .utc, language: l)
        #expect(kept?.title == "Tea" && kept?.othersText == "2 more ringing")
        let gone = RingingModel.first(alarms: [waiting], reminders: [mum], keeping: tea.id, now: now, zone: .utc, language: l)
        #expect(gone?.title == "Call mum" && gone?.othersText == nil)
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

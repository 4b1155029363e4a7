// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// The ringing lifecycle as tables of (state, event, now) → (state, actions),
/// driven by a manual clock: every `now` is a literal.
@Suite struct RingingMachineTests {
    static let utc = Zone.utc
    static let policy = RingPolicy(missedGrace: 300, reminderSnooze: SnoozeSettings(enabled: true, minutes: 5, maxCount: 0), reminderRingSeconds: 60)

    /// 2026-03-09 is a Monday.
    static func at(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        if text.contains(".") { formatter.formatOptions.insert(.withFractionalSeconds) }
        return formatter.date(from: text)!
    }

    static func alarm(days: RepeatDays = .weekdays, snooze: SnoozeSettings = SnoozeSettings(enabled: true, minutes: 9, maxCount: 2), skipNext: Bool = false, ringSeconds: Int = 120) -> Item {
        .alarm(Alarm(id: UUID(uuidString: "00000000-0000-0000-0000-0000000000A1")!, time: try! TimeOfDay(hour: 7, minute: 30), days: days, label: "Work",
                     snooze: snooze, ringSeconds: ringSeconds, skipNext: skipNext, created: at("2026-03-01T00:00:00Z")))
    }

    static let reminder = Item.reminder(Reminder(id: UUID(uuidString: "00000000-0000-0000-0000-0000000000B1")!, title: "Call Bob", due: at("2026-03-09T10:00:00Z"), created: at("2026-03-01T00:00:00Z")))

    func advance(_ item: Item, _ state: RingState, _ now: String) -> RingTransition {
        RingingMachine.advance(item: item, state: state, now: Self.at(now), zone: Self.utc, policy: Self.policy)
    }

    @Test func wakeIsTheNextOccurrenceAfterTheAnchor() {
        let state = RingState(anchor: Self.at("2026-03-09T07:30:00Z"))
        // Anchored at Monday's occurrence: the next is Tuesday's, never Monday's again.
        #expect(RingingMachine.wake(item: Self.alarm(), state: state, zone: Self.utc, policy: Self.policy) == Self.at("2026-03-10T07:30:00Z"))
        var disabled = Self.alarm()
        if case .alarm(var alarm) = disabled { alarm.enabled = false; disabled = .alarm(alarm) }
        #expect(RingingMachine.wake(item: disabled, state: state, zone: Self.utc, policy: Self.policy) == nil)
    }

    @Test func dueOnTimeRings() {
        let result = advance(Self.alarm(), RingState(anchor: Self.at("2026-03-08T12:00:00Z")), "2026-03-09T07:30:00.002Z")
        #expect(result.state == RingState(anchor: Self.at("2026-03-09T07:30:00Z"), phase: .ringing(since: Self.at("2026-03-09T07:30:00.002Z")), occurrence: Self.at("2026-03-09T07:30:00Z")))
        #expect(result.actions == [.record(.fired, scheduled: Self.at("2026-03-09T07:30:00Z"), detail: ""), .startRinging(resumed: false)])
    }

    @Test func notYetDueDoesNothing() {
        let state = RingState(anchor: Self.at("2026-03-08T12:00:00Z"))
        let result = advance(Self.alarm(), state, "2026-03-09T07:29:59Z")
        #expect(result.state == state)
        #expect(result.actions.isEmpty)
    }

    @Test(arguments: [
        // (now, rings?) — grace is 300 s: 2 minutes late rings, 2 hours late is missed.
        ("2026-03-09T07:32:00Z", true),
        ("2026-03-09T07:35:00Z", true),
        ("2026-03-09T07:35:01Z", false),
        ("2026-03-09T09:30:00Z", false),
    ])
    func lateOccurrencesRingWithinGraceElseOneMissedEvent(now: String, rings: Bool) {
        let result = advance(Self.alarm(), RingState(anchor: Self.at("2026-03-08T12:00:00Z")), now)
        let occurrence = Self.at("2026-03-09T07:30:00Z")
        if rings {
            #expect(result.state.phase == .ringing(since: Self.at(now)))
            #expect(result.actions == [.record(.fired, scheduled: occurrence, detail: ""), .startRinging(resumed: false)])
        } else {
            #expect(result.state == RingState(anchor: occurrence))
            #expect(result.actions == [.record(.missed, scheduled: occurrence, detail: ""), .showMissed(scheduled: occurrence)])
        }
    }

    @Test func aWeekAwayGivesOneMissedEventAndMovesOn() {
        // Away from Monday 2026-03-02 to Monday 2026-03-09 12:00: five weekday occurrences lost.
        let result = advance(Self.alarm(), RingState(anchor: Self.at("2026-03-01T12:00:00Z")), "2026-03-09T12:00:00Z")
        let missed = result.actions.filter { if case .record(.missed, _, _) = $0 { return true } else { return false } }
        #expect(missed.count == 1)
        #expect(result.state == RingState(anchor: Self.at("2026-03-09T07:30:00Z")))
        #expect(RingingMachine.wake(item: Self.alarm(), state: result.state, zone: Self.utc, policy: Self.policy) == Self.at("2026-03-10T07:30:00Z"))
    }

    @Test func lateButWithinGraceAfterEarlierMissesRingsTheLatestAndReportsOneMiss() {
        let result = advance(Self.alarm(), RingState(anchor: Self.at("2026-03-05T12:00:00Z")), "2026-03-09T07:31:00Z")
        #expect(result.actions.count == 4)
        #expect(result.actions[0] == .record(.missed, scheduled: Self.at("2026-03-06T07:30:00Z"), detail: "occurrences from 2026-03-06T07:30:00Z were missed"))
        #expect(result.actions[2] == .record(.fired, scheduled: Self.at("2026-03-09T07:30:00Z"), detail: ""))
    }

    @Test func snoozeCountsAndIsRefusedAtTheLimit() throws {
        let ringing = RingState(anchor: Self.at("2026-03-09T07:30:00Z"), phase: .ringing(since: Self.at("2026-03-09T07:30:00Z")), occurrence: Self.at("2026-03-09T07:30:00Z"))
        let first = try RingingMachine.handle(.snooze(minutes: nil), item: Self.alarm(), state: ringing, now: Self.at("2026-03-09T07:31:00Z"), zone: .utc, policy: Self.policy)
        #expect(first.state.phase == .snoozed(until: Self.at("2026-03-09T07:40:00Z")))
        #expect(first.state.snoozeCount == 1)
        #expect(first.actions.first == .stopRinging)
        // The snooze ends: rings again, same occurrence.
        let again = advance(Self.alarm(), first.state, "2026-03-09T07:40:00Z")
        #expect(again.state.phase == .ringing(since: Self.at("2026-03-09T07:40:00Z")))
        #expect(again.state.occurrence == Self.at("2026-03-09T07:30:00Z"))
        #expect(again.actions.last == .startRinging(resumed: false))
        let second = try RingingMachine.handle(.snooze(minutes: 1), item: Self.alarm(), state: again.state, now: Self.at("2026-03-09T07:41:00Z"), zone: .utc, policy: Self.policy)
        #expect(second.state.phase == .snoozed(until: Self.at("2026-03-09T07:42:00Z")))
        let third = advance(Self.alarm(), second.state, "2026-03-09T07:42:00Z")
        #expect(throws: RingError.snoozeNotAllowed(id: Self.alarm().id, title: "Work", reason: "it was already snoozed 2 times, the most it allows")) {
            try RingingMachine.handle(.snooze(minutes: nil), item: Self.alarm(), state: third.state, now: Self.at("2026-03-09T07:43:00Z"), zone: .utc, policy: Self.policy)
        }
    }

    @Test func snoozeOffOrNotRingingIsRefused() {
        let ringing = RingState(anchor: Self.at("2026-03-09T07:30:00Z"), phase: .ringing(since: Self.at("2026-03-09T07:30:00Z")), occurrence: Self.at("2026-03-09T07:30:00Z"))
        #expect(throws: RingError.snoozeNotAllowed(id: Self.alarm().id, title: "Work", reason: "snooze is off for it")) {
            try RingingMachine.handle(.snooze(minutes: nil), item: Self.alarm(snooze: SnoozeSettings(enabled: false)), state: ringing, now: Self.at("2026-03-09T07:31:00Z"), zone: .utc, policy: Self.policy)
        }
        #expect(throws: RingError.notRinging(title: "Work")) {
            try RingingMachine.handle(.dismiss, item: Self.alarm(), state: RingState(anchor: Self.at("2026-03-09T07:30:00Z")), now: Self.at("2026-03-09T07:31:00Z"), zone: .utc, policy: Self.policy)
        }
    }

    @Test func dismissMovesARepeatingAlarmOnAndDisablesAOneShot() throws {
        let occurrence = Self.at("2026-03-09T07:30:00Z")
        let ringing = RingState(anchor: occurrence, phase: .ringing(since: occurrence), occurrence: occurrence)
        let repeating = try RingingMachine.handle(.dismiss, item: Self.alarm(), state: ringing, now: Self.at("2026-03-09T07:31:00Z"), zone: .utc, policy: Self.policy)
        #expect(repeating.state == RingState(anchor: occurrence))
        #expect(repeating.actions == [.stopRinging, .record(.dismissed, scheduled: occurrence, detail: "")])
        let oneShot = try RingingMachine.handle(.dismiss, item: Self.alarm(days: .never), state: ringing, now: Self.at("2026-03-09T07:31:00Z"), zone: .utc, policy: Self.policy)
        #expect(oneShot.actions == [.stopRinging, .record(.dismissed, scheduled: occurrence, detail: ""), .disableAlarm])
    }

    @Test func ringDurationEndsInSnoozeWhenAllowedElseDismissal() {
        let occurrence = Self.at("2026-03-09T07:30:00Z")
        let ringing = RingState(anchor: occurrence, phase: .ringing(since: occurrence), occurrence: occurrence)
        // ringSeconds 120: wake at 07:32.
        #expect(RingingMachine.wake(item: Self.alarm(), state: ringing, zone: Self.utc, policy: Self.policy) == Self.at("2026-03-09T07:32:00Z"))
        let snoozed = advance(Self.alarm(), ringing, "2026-03-09T07:32:00Z")
        #expect(snoozed.state.phase == .snoozed(until: Self.at("2026-03-09T07:41:00Z")))
        #expect(snoozed.actions == [.stopRinging, .record(.timedOut, scheduled: occurrence, detail: "snoozed until 2026-03-09T07:41:00Z")])
        let noSnooze = advance(Self.alarm(snooze: SnoozeSettings(enabled: false)), ringing, "2026-03-09T07:32:00Z")
        #expect(noSnooze.state == RingState(anchor: occurrence))
        #expect(noSnooze.actions == [.stopRinging, .record(.timedOut, scheduled: occurrence, detail: "dismissed")])
    }

    /// `EscalateAfter=`: once per ringing, before the ring duration ends;
    /// never for reminders, never when the ringing ends first.
    @Test func anUnansweredAlarmEscalatesOnceThenTimesOut() {
        var policy = Self.policy
        policy.escalateAfter = 60
        let occurrence = Self.at("2026-03-09T07:30:00Z")
        let ringing = RingState(anchor: occurrence, phase: .ringing(since: occurrence), occurrence: occurrence)
        #expect(RingingMachine.wake(item: Self.alarm(), state: ringing, zone: Self.utc, policy: policy) == Self.at("2026-03-09T07:31:00Z"))
        let step = RingingMachine.advance(item: Self.alarm(), state: ringing, now: Self.at("2026-03-09T07:31:00.001Z"), zone: Self.utc, policy: policy)
        var escalated = ringing
        escalated.escalated = true
        #expect(step.state == escalated)
        #expect(step.actions == [.escalate, .record(.escalated, scheduled: occurrence, detail: "ringing unanswered for 1 min")])
        // Then the ring duration as before; the snooze's ringing starts afresh.
        #expect(RingingMachine.wake(item: Self.alarm(), state: escalated, zone: Self.utc, policy: policy) == Self.at("2026-03-09T07:32:00Z"))
        let out = RingingMachine.advance(item: Self.alarm(), state: escalated, now: Self.at("2026-03-09T07:32:00Z"), zone: Self.utc, policy: policy)
        #expect(out.actions.first == .stopRinging && !out.state.escalated)
        // Late past the ring's end (the daemon was away): only the time-out.
        let late = RingingMachine.advance(item: Self.alarm(), state: ringing, now: Self.at("2026-03-09T07:33:00Z"), zone: Self.utc, policy: policy)
        #expect(!late.actions.contains(.escalate) && late.actions.first == .stopRinging)
        // A ring duration no longer than the escalation: none.
        #expect(RingingMachine.wake(item: Self.alarm(ringSeconds: 60), state: ringing, zone: Self.utc, policy: policy) == Self.at("2026-03-09T07:31:00Z"))
        #expect(!RingingMachine.advance(item: Self.alarm(ringSeconds: 60), state: ringing, now: Self.at("2026-03-09T07:31:00Z"), zone: Self.utc, policy: policy)
            .actions.contains(.escalate))
        // Reminders do not escalate.
        let reminderRinging = RingState(anchor: occurrence, phase: .ringing(since: occurrence), occurrence: occurrence)
        #expect(policy.escalation(of: Self.reminder, ringingSince: occurrence) == nil)
        #expect(RingingMachine.wake(item: Self.reminder, state: reminderRinging, zone: Self.utc, policy: policy) == Self.at("2026-03-09T07:31:00Z"),
                "the reminder's own 60 s ring, not an escalation")
        policy.escalateAfter = 90
        #expect(policy.escalation(of: Self.reminder, ringingSince: occurrence) == nil)
        #expect(RingingMachine.wake(item: Self.alarm(), state: ringing, zone: Self.utc, policy: policy) == Self.at("2026-03-09T07:31:30Z"))
        #expect(RingingMachine.advance(item: Self.alarm(), state: ringing, now: Self.at("2026-03-09T07:31:30Z"), zone: Self.utc, policy: policy)
            .actions.last == .record(.escalated, scheduled: occurrence, detail: "ringing unanswered for 1 min 30 s"))
    }

    @Test func skipNextPassesOverOneOccurrenceSilently() {
        let result = advance(Self.alarm(skipNext: true), RingState(anchor: Self.at("2026-03-08T12:00:00Z")), "2026-03-09T07:30:00Z")
        #expect(result.state == RingState(anchor: Self.at("2026-03-09T07:30:00Z")))
        #expect(result.actions == [.clearSkipNext, .record(.skipped, scheduled: Self.at("2026-03-09T07:30:00Z"), detail: "")])
    }

    @Test func reminderRingsOnceAndStaysOpenUntilDone() throws {
        let due = Self.at("2026-03-09T10:00:00Z")
        let fired = advance(Self.reminder, RingState(anchor: Self.at("2026-03-08T00:00:00Z")), "2026-03-09T10:00:00Z")
        #expect(fired.state.phase == .ringing(since: due))
        let dismissed = try RingingMachine.handle(.dismiss, item: Self.reminder, state: fired.state, now: Self.at("2026-03-09T10:00:30Z"), zone: .utc, policy: Self.policy)
        #expect(!dismissed.actions.contains(.completeReminder))
        #expect(RingingMachine.wake(item: Self.reminder, state: dismissed.state, zone: Self.utc, policy: Self.policy) == nil)
        let done = try RingingMachine.handle(.complete, item: Self.reminder, state: fired.state, now: Self.at("2026-03-09T10:00:30Z"), zone: .utc, policy: Self.policy)
        #expect(done.actions == [.stopRinging, .completeReminder, .record(.completed, scheduled: due, detail: "")])
        #expect(throws: RingError.notAReminder(title: "Work")) {
            try RingingMachine.handle(.complete, item: Self.alarm(), state: fired.state, now: due, zone: .utc, policy: Self.policy)
        }
    }

    @Test func snoozeThatEndedLongAgoIsReportedAsMissed() {
        let occurrence = Self.at("2026-03-09T07:30:00Z")
        let snoozed = RingState(anchor: occurrence, phase: .snoozed(until: Self.at("2026-03-09T07:39:00Z")), occurrence: occurrence, snoozeCount: 1)
        let result = advance(Self.alarm(), snoozed, "2026-03-09T09:00:00Z")
        #expect(result.state == RingState(anchor: occurrence))
        #expect(result.actions.first == .record(.missed, scheduled: Self.at("2026-03-09T07:39:00Z"), detail: "snoozed alarm was due while alarmd was not running"))
    }

    @Test func clockMovingBackKeepsRecentAnchorsAndDropsFarFutureOnes() {
        let recent = RingState(anchor: Self.at("2026-03-09T07:30:00Z"))
        #expect(RingingMachine.clockMovedBack(state: recent, now: Self.at("2026-03-09T07:00:00Z")) == recent)
        let far = RingState(anchor: Self.at("2030-01-01T07:30:00Z"))
        #expect(RingingMachine.clockMovedBack(state: far, now: Self.at("2026-03-09T07:00:00Z")).anchor == Self.at("2026-03-09T07:00:00Z"))
    }

    @Test func resetStopsRingingAndLooksForwardFromNow() {
        let ringing = RingState(anchor: Self.at("2026-03-09T07:30:00Z"), phase: .ringing(since: Self.at("2026-03-09T07:30:00Z")), occurrence: Self.at("2026-03-09T07:30:00Z"))
        let result = RingingMachine.reset(state: ringing, now: Self.at("2026-03-09T07:31:00Z"))
        #expect(result.state == RingState(anchor: Self.at("2026-03-09T07:31:00Z")))
        #expect(result.actions == [.stopRinging])
        #expect(RingingMachine.resume(state: ringing) == [.startRinging(resumed: true)])
    }

    /// Only an ordinary firing is saved ahead; its state is exactly what firing
    /// on the dot would give.
    @Test func anOrdinaryFiringCanBeSavedAhead() {
        let monday = Self.at("2026-03-09T07:30:00Z")
        let waiting = RingState(anchor: Self.at("2026-03-08T12:00:00Z"))
        let ahead = RingingMachine.firingAhead(item: Self.alarm(), state: waiting, wake: monday, zone: Self.utc, policy: Self.policy)
        #expect(ahead == RingTransition(state: RingState(anchor: monday, phase: .ringing(since: monday), occurrence: monday),
                                        actions: [.record(.fired, scheduled: monday, detail: ""), .startRinging(resumed: false)]))
        // Not: a skipped occurrence, an item already ringing or snoozed, or a
        // wake-up that is a timeout rather than an occurrence.
        #expect(RingingMachine.firingAhead(item: Self.alarm(skipNext: true), state: waiting, wake: monday, zone: Self.utc, policy: Self.policy) == nil)
        let ringing = RingState(anchor: monday, phase: .ringing(since: monday), occurrence: monday)
        #expect(RingingMachine.firingAhead(item: Self.alarm(), state: ringing, wake: monday.addingTimeInterval(120), zone: Self.utc, policy: Self.policy) == nil)
        let snoozed = RingState(anchor: monday, phase: .snoozed(until: monday.addingTimeInterval(540)), occurrence: monday, snoozeCount: 1)
        #expect(RingingMachine.firingAhead(item: Self.alarm(), state: snoozed, wake: monday.addingTimeInterval(540), zone: Self.utc, policy: Self.policy) == nil)
    }

    /// Read back at start-up, a firing saved ahead for an instant still to come
    /// waits for that occurrence again; one whose instant has passed rang (or
    /// was about to) and rings on; real ringing and snoozed states are untouched.
    @Test(arguments: [
        ("2026-03-09T07:29:59Z", "waits for 07:30 again"),
        ("2026-03-09T07:30:00Z", "rang: rings on"),
        ("2026-03-09T08:00:00Z", "rang: rings on"),
    ])
    func aSavedAheadFiringLoadsAsWaitingUntilItsInstant(now: String, why: String) {
        let monday = Self.at("2026-03-09T07:30:00Z")
        let saved = RingState(anchor: monday, phase: .ringing(since: monday), occurrence: monday)
        let loaded = RingingMachine.loaded(saved, now: Self.at(now))
        if Self.at(now) < monday {
            #expect(loaded == RingState(anchor: monday.addingTimeInterval(-0.000_001)), "\(why)")
            #expect(RingingMachine.wake(item: Self.alarm(), state: loaded, zone: Self.utc, policy: Self.policy) == monday, "\(why)")
        } else {
            #expect(loaded == saved, "\(why)")
        }
        let rangLate = RingState(anchor: monday, phase: .ringing(since: monday.addingTimeInterval(0.003)), occurrence: monday)
        #expect(RingingMachine.loaded(rangLate, now: monday) == rangLate)
        let snoozed = RingState(anchor: monday, phase: .snoozed(until: monday.addingTimeInterval(540)), occurrence: monday, snoozeCount: 1)
        #expect(RingingMachine.loaded(snoozed, now: monday) == snoozed)
    }

    /// The history has no `fired` row for a saved-ahead state whose instant has
    /// passed: the daemon died before announcing it, so it waits for that
    /// occurrence again and the firing (or the miss) is recorded after all.
    @Test func aSavedAheadFiringNeverAnnouncedLoadsAsWaiting() {
        let monday = Self.at("2026-03-09T07:30:00Z")
        let saved = RingState(anchor: monday, phase: .ringing(since: monday), occurrence: monday)
        let loaded = RingingMachine.loaded(saved, now: Self.at("2026-03-09T07:30:02Z"), fireRecorded: false)
        #expect(loaded == RingState(anchor: monday.addingTimeInterval(-0.000_001)))
        // Two seconds late: it rings now, with its `fired` record.
        let result = advance(Self.alarm(), loaded, "2026-03-09T07:30:02Z")
        #expect(result.actions == [.record(.fired, scheduled: monday, detail: ""), .startRinging(resumed: false)])
        // Snoozed, or rung late, is not the saved-ahead shape: left alone.
        let snoozed = RingState(anchor: monday, phase: .ringing(since: monday), occurrence: monday, snoozeCount: 1)
        #expect(RingingMachine.loaded(snoozed, now: monday, fireRecorded: false) == snoozed)
    }

    static func edited(_ item: Item, _ change: (inout Alarm) -> Void) -> Item {
        guard case .alarm(var alarm) = item else { return item }
        change(&alarm)
        return .alarm(alarm)
    }

    /// An edit that keeps the schedule keeps the lifecycle: ringing rings on,
    /// snoozed stays snoozed, waiting keeps its anchor.
    @Test func anEditOfLabelOrSoundKeepsTheItemWhereItIs() {
        let monday = Self.at("2026-03-09T07:30:00Z")
        let now = Self.at("2026-03-09T07:30:20Z")
        let before = Self.alarm(days: .never)
        let relabelled = Self.edited(before) { $0.label = "Flight"; $0.sound = .none; $0.ringSeconds = 30; $0.skipNext = true }
        for state in [
            RingState(anchor: monday, phase: .ringing(since: monday), occurrence: monday),
            RingState(anchor: monday, phase: .snoozed(until: now.addingTimeInterval(60)), occurrence: monday, snoozeCount: 1),
            RingState(anchor: Self.at("2026-03-08T12:00:00Z")),
        ] {
            #expect(RingingMachine.edited(from: before, to: relabelled, state: state, now: now) == RingTransition(state: state))
        }
        // The one-shot alarm edited while ringing still switches off when dismissed.
        let ringing = RingState(anchor: monday, phase: .ringing(since: monday), occurrence: monday)
        let dismissed = try? RingingMachine.handle(.dismiss, item: relabelled, state: ringing, now: now, zone: .utc, policy: Self.policy)
        #expect(dismissed?.actions.contains(.disableAlarm) == true)
    }

    /// An edit that moves the schedule or switches the item off ends a ringing
    /// or snooze with a `dismissed` record, and looks forward from now.
    @Test(arguments: ["time", "days", "zone", "off"])
    func anEditOfTheScheduleEndsTheRingingWithARecord(change: String) {
        let monday = Self.at("2026-03-09T07:30:00Z")
        let now = Self.at("2026-03-09T07:30:20Z")
        let before = Self.alarm(days: .never)
        let after = Self.edited(before) { alarm in
            switch change {
            case "time": alarm.time = try! TimeOfDay(hour: 7, minute: 45)
            case "days": alarm.days = .weekdays
            case "zone": alarm.timeZone = Zone.utc
            default: alarm.enabled = false
            }
        }
        let detail = change == "off" ? "switched off by an edit" : "rescheduled by an edit"
        let ringing = RingState(anchor: monday, phase: .ringing(since: monday), occurrence: monday)
        #expect(RingingMachine.edited(from: before, to: after, state: ringing, now: now)
            == RingTransition(state: RingState(anchor: now), actions: [.stopRinging, .record(.dismissed, scheduled: monday, detail: detail)]))
        let snoozed = RingState(anchor: monday, phase: .snoozed(until: now.addingTimeInterval(60)), occurrence: monday, snoozeCount: 1)
        #expect(RingingMachine.edited(from: before, to: after, state: snoozed, now: now)
            == RingTransition(state: RingState(anchor: now), actions: [.record(.dismissed, scheduled: monday, detail: detail)]))
        let waiting = RingState(anchor: Self.at("2026-03-08T12:00:00Z"))
        #expect(RingingMachine.edited(from: before, to: after, state: waiting, now: now) == RingTransition(state: RingState(anchor: now)))
        // Rescheduled, the one-shot alarm is still on and fires at its new time.
        if change == "time" {
            let next = RingingMachine.wake(item: after, state: RingState(anchor: now), zone: Self.utc, policy: Self.policy)
            #expect(next == Self.at("2026-03-09T07:45:00Z"))
        }
    }

    /// A reminder's schedule is its due time and done flag; title and notes are not.
    @Test func aReminderEditEndsTheRingingOnlyWhenDueOrDoneChanges() {
        let due = Self.at("2026-03-09T10:00:00Z")
        let now = Self.at("2026-03-09T10:00:05Z")
        let ringing = RingState(anchor: due, phase: .ringing(since: due), occurrence: due)
        guard case .reminder(let reminder) = Self.reminder else { Issue.record("not a reminder"); return }
        var retitled = reminder
        retitled.title = "Call Bob back"
        retitled.notes = "about the flat"
        #expect(RingingMachine.edited(from: Self.reminder, to: .reminder(retitled), state: ringing, now: now) == RingTransition(state: ringing))
        var moved = reminder
        moved.due = due.addingTimeInterval(3600)
        #expect(RingingMachine.edited(from: Self.reminder, to: .reminder(moved), state: ringing, now: now).actions
            == [.stopRinging, .record(.dismissed, scheduled: due, detail: "rescheduled by an edit")])
    }

    @Test func removingARingingOrSnoozedItemRecordsItsEnd() {
        let monday = Self.at("2026-03-09T07:30:00Z")
        #expect(RingingMachine.removed(state: RingState(anchor: monday)).isEmpty)
        #expect(RingingMachine.removed(state: RingState(anchor: monday, phase: .ringing(since: monday), occurrence: monday))
            == [.stopRinging, .record(.dismissed, scheduled: monday, detail: "removed")])
        #expect(RingingMachine.removed(state: RingState(anchor: monday, phase: .snoozed(until: monday), occurrence: monday, snoozeCount: 1))
            == [.record(.dismissed, scheduled: monday, detail: "removed")])
    }
}

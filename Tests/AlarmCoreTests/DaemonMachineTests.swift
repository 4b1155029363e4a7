// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// The daemon's decisions, event by event: (item, state, event, now) → (item,
/// state, rows to commit, effects). No store, socket or clock: every `now` is
/// a literal, as in `RingingMachineTests`.
@Suite struct DaemonMachineTests {
    static let utc = Zone.utc
    static let policy = RingPolicy(missedGrace: 300, reminderSnooze: SnoozeSettings(enabled: true, minutes: 5, maxCount: 0), reminderRingSeconds: 60)
    static let id = UUID(uuidString: "00000000-0000-0000-0000-0000000000A1")!

    /// 2026-03-09 is a Monday.
    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    static func alarm(days: RepeatDays = .weekdays, time: (Int, Int) = (7, 30), label: String = "Work", enabled: Bool = true, skipNext: Bool = false) -> Alarm {
        Alarm(id: id, time: try! TimeOfDay(hour: time.0, minute: time.1), days: days, label: label, snooze: SnoozeSettings(enabled: true, minutes: 9, maxCount: 2),
              enabled: enabled, skipNext: skipNext, created: at("2026-03-01T00:00:00Z"))
    }

    static let reminder = Reminder(id: UUID(uuidString: "00000000-0000-0000-0000-0000000000B1")!, title: "Call Bob", due: at("2026-03-09T10:00:00Z"), created: at("2026-03-01T00:00:00Z"))

    static let occurrence = at("2026-03-09T07:30:00Z")
    static let ringing = RingState(anchor: occurrence, phase: .ringing(since: occurrence), occurrence: occurrence)
    static let waiting = RingState(anchor: at("2026-03-08T12:00:00Z"))

    func step(_ event: DaemonMachine.Event, _ item: Item, _ state: RingState?, _ now: String) throws -> DaemonMachine.Step {
        try DaemonMachine.step(event, item: item, state: state, now: Self.at(now), zone: Self.utc, policy: Self.policy)
    }

    func history(_ kind: EventKind, _ item: Item, scheduled: Date?, actual: String, detail: String = "") -> HistoryEvent {
        HistoryEvent(itemID: item.id, itemKind: item.kind, event: kind, scheduled: scheduled, actual: Self.at(actual), detail: detail)
    }

    @Test func anAddedItemIsInsertedAndLooksForwardFromNow() throws {
        let item = Item.alarm(Self.alarm())
        let result = try step(.added, item, nil, "2026-03-09T06:00:00Z")
        #expect(result.item == item)
        #expect(result.state == RingState(anchor: Self.at("2026-03-09T06:00:00Z")))
        #expect(result.write == .insert(item))
        #expect(result.saveState)
        #expect(result.history.isEmpty)
        #expect(result.effects == [.changed(detail: "added")])
    }

    @Test func aLateButGraceFulFiringRingsAndRecordsFiredWithoutTouchingTheItem() throws {
        let item = Item.alarm(Self.alarm())
        let result = try step(.due, item, Self.waiting, "2026-03-09T07:32:00Z")
        #expect(result.item == item)
        #expect(result.write == .none)
        #expect(result.state.isRinging)
        #expect(result.history == [history(.fired, item, scheduled: Self.occurrence, actual: "2026-03-09T07:32:00Z")])
        #expect(result.effects == [.record(.fired, scheduled: Self.occurrence, detail: ""), .startRinging(resumed: false)])
    }

    @Test func aOneShotMissedBeyondGraceIsSwitchedOffAndTheSwitchIsWritten() throws {
        let item = Item.alarm(Self.alarm(days: .never))
        let result = try step(.due, item, Self.waiting, "2026-03-09T09:30:00Z")
        guard case .alarm(let after)? = result.item else { Issue.record("no alarm"); return }
        #expect(!after.enabled)
        #expect(after.updated == Self.at("2026-03-09T09:30:00Z"))
        #expect(result.write == .update(.alarm(after)))
        #expect(result.history.map(\.event) == [.missed])
        #expect(result.effects.contains(.showMissed(scheduled: Self.occurrence)))
        #expect(!result.effects.contains(.startRinging(resumed: false)))
    }

    @Test func aSkippedOccurrenceClearsSkipNextAndRecordsIt() throws {
        let item = Item.alarm(Self.alarm(skipNext: true))
        let result = try step(.due, item, Self.waiting, "2026-03-09T07:30:00Z")
        guard case .alarm(let after)? = result.item else { Issue.record("no alarm"); return }
        #expect(!after.skipNext)
        #expect(result.write == .update(.alarm(after)))
        #expect(result.history.map(\.event) == [.skipped])
        #expect(!result.state.isRinging)
    }

    @Test func dismissingARingingOneShotStopsItRecordsItAndSwitchesItOff() throws {
        let item = Item.alarm(Self.alarm(days: .never))
        let result = try step(.command(.dismiss), item, Self.ringing, "2026-03-09T07:31:00Z")
        guard case .alarm(let after)? = result.item else { Issue.record("no alarm"); return }
        #expect(!after.enabled)
        #expect(result.write == .update(.alarm(after)))
        #expect(result.effects == [.stopRinging, .record(.dismissed, scheduled: Self.occurrence, detail: "")])
        #expect(result.history == [history(.dismissed, item, scheduled: Self.occurrence, actual: "2026-03-09T07:31:00Z")])
        #expect(!result.state.isRinging)
    }

    @Test func snoozingARepeatingAlarmWritesOnlyItsState() throws {
        let item = Item.alarm(Self.alarm())
        let result = try step(.command(.snooze(minutes: nil)), item, Self.ringing, "2026-03-09T07:31:00Z")
        #expect(result.item == item)
        #expect(result.write == .none)
        #expect(result.saveState)
        #expect(result.state.isSnoozed)
        #expect(result.effects.first == .stopRinging)
        #expect(result.history.map(\.event) == [.snoozed])
    }

    @Test func commandsTheRingingMachineRefusesAreThrown() {
        #expect(throws: RingError.notRinging(title: "Work")) { try step(.command(.dismiss), .alarm(Self.alarm()), Self.waiting, "2026-03-09T07:00:00Z") }
        #expect(throws: RingError.notAReminder(title: "Work")) { try step(.command(.complete), .alarm(Self.alarm()), Self.ringing, "2026-03-09T07:31:00Z") }
    }

    @Test func completingARingingReminderMarksItDoneAndStopsIt() throws {
        let item = Item.reminder(Self.reminder)
        let due = Self.at("2026-03-09T10:00:00Z")
        let state = RingState(anchor: due, phase: .ringing(since: due), occurrence: due)
        let result = try step(.command(.complete), item, state, "2026-03-09T10:00:30Z")
        guard case .reminder(let after)? = result.item else { Issue.record("no reminder"); return }
        #expect(after.done)
        #expect(result.write == .update(.reminder(after)))
        #expect(result.effects == [.stopRinging, .record(.completed, scheduled: due, detail: "")])
    }

    @Test func aLabelEditKeepsARingingItemRingingAndIsWritten() throws {
        let before = Item.alarm(Self.alarm())
        let after = Item.alarm(Self.alarm(label: "Gym"))
        let result = try step(.edited(to: after), before, Self.ringing, "2026-03-09T07:31:00Z")
        #expect(result.item == after)
        #expect(result.state == Self.ringing)
        #expect(result.write == .update(after))
        #expect(result.history.isEmpty)
        #expect(result.effects == [.changed(detail: "edited")])
    }

    @Test func aTimeEditEndsTheRingingRecordsItAndKeepsTheOneShotOn() throws {
        let before = Item.alarm(Self.alarm(days: .never))
        let after = Item.alarm(Self.alarm(days: .never, time: (7, 45)))
        let result = try step(.edited(to: after), before, Self.ringing, "2026-03-09T07:31:00Z")
        #expect(result.item == after)
        #expect(result.state == RingState(anchor: Self.at("2026-03-09T07:31:00Z")))
        #expect(result.write == .update(after))
        #expect(result.effects == [.stopRinging, .record(.dismissed, scheduled: Self.occurrence, detail: "rescheduled by an edit"), .changed(detail: "edited")])
        #expect(result.history.map(\.detail) == ["rescheduled by an edit"])
    }

    @Test func switchingARingingAlarmOffEndsTheRinging() throws {
        let before = Item.alarm(Self.alarm())
        let after = Item.alarm(Self.alarm(enabled: false))
        let result = try step(.edited(to: after), before, Self.ringing, "2026-03-09T07:31:00Z")
        #expect(result.effects.contains(.record(.dismissed, scheduled: Self.occurrence, detail: "switched off by an edit")))
        #expect(result.effects.first == .stopRinging)
    }

    @Test func removingARingingItemStopsItRecordsTheEndAndDeletesTheRow() throws {
        let item = Item.alarm(Self.alarm())
        let result = try step(.removed, item, Self.ringing, "2026-03-09T07:31:00Z")
        #expect(result.item == nil)
        #expect(result.write == .remove(Self.id, .alarm))
        #expect(!result.saveState)
        #expect(result.effects == [.stopRinging, .record(.dismissed, scheduled: Self.occurrence, detail: "removed"), .changed(detail: "removed")])
        #expect(result.history.map(\.event) == [.dismissed])
    }

    @Test func removingAWaitingItemRecordsNothing() throws {
        let result = try step(.removed, .alarm(Self.alarm()), Self.waiting, "2026-03-09T07:00:00Z")
        #expect(result.history.isEmpty)
        #expect(result.effects == [.changed(detail: "removed")])
    }

    @Test func aClockSetBackFarBringsAFutureAnchorBackToNowAndOnlyThenSaves() throws {
        let item = Item.alarm(Self.alarm())
        let future = RingState(anchor: Self.at("2026-03-20T00:00:00Z"))
        let moved = try step(.clockMovedBack, item, future, "2026-03-09T07:00:00Z")
        #expect(moved.state == RingState(anchor: Self.at("2026-03-09T07:00:00Z")))
        #expect(moved.saveState)
        #expect(moved.effects.isEmpty && moved.history.isEmpty && moved.write == .none)
        let kept = try step(.clockMovedBack, item, Self.waiting, "2026-03-09T07:00:00Z")
        #expect(kept.state == Self.waiting)
        #expect(!kept.saveState)
    }

    @Test func ringingActionsMapToEffectsAndItemChangesDoNot() {
        #expect(DaemonMachine.Effect(.startRinging(resumed: true)) == .startRinging(resumed: true))
        #expect(DaemonMachine.Effect(.record(.fired, scheduled: nil, detail: "x")) == .record(.fired, scheduled: nil, detail: "x"))
        #expect(DaemonMachine.Effect(.disableAlarm) == nil)
        #expect(DaemonMachine.Effect(.clearSkipNext) == nil)
        #expect(DaemonMachine.Effect(.completeReminder) == nil)
    }
}

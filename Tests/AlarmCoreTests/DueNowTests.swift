// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// A reminder added or moved to an instant that has just passed — `remind add
/// X --in now`, whose instant the client reads before the daemon gets the
/// request — is due at once, within the missed grace; beyond it, or for an
/// alarm (a time of day), the first occurrence after now is the one meant.
@Suite struct DueNowTests {
    static let policy = RingPolicy(missedGrace: 300, reminderSnooze: SnoozeSettings(enabled: true, minutes: 5, maxCount: 0), reminderRingSeconds: 60)
    static let now = Date(timeIntervalSince1970: 1_773_050_400.25)  // 2026-03-09T10:00:00.25Z

    static func reminder(dueBefore seconds: TimeInterval) -> Item {
        .reminder(Reminder(id: UUID(uuidString: "00000000-0000-0000-0000-0000000000D1")!, title: "Tea", due: now.addingTimeInterval(-seconds),
                           created: now.addingTimeInterval(-3600)))
    }

    /// The step at the item's wake-up, which the scheduler takes once the timer fires.
    func due(_ step: DaemonMachine.Step, at now: Date) throws -> DaemonMachine.Step {
        try DaemonMachine.step(.due, item: step.item!, state: step.state, now: now, zone: .utc, policy: Self.policy)
    }

    @Test(arguments: [0.0, 0.25, 0.5, 1, 299])
    func aReminderAddedJustAfterItsDueInstantRingsAtOnce(secondsLate: TimeInterval) throws {
        let item = Self.reminder(dueBefore: secondsLate)
        let added = try DaemonMachine.step(.added, item: item, state: nil, now: Self.now, zone: .utc, policy: Self.policy)
        let wake = RingingMachine.wake(item: item, state: added.state, zone: .utc, policy: Self.policy)
        #expect(wake == Self.now.addingTimeInterval(-secondsLate))
        let fired = try due(added, at: Self.now)
        #expect(fired.state.isRinging)
        #expect(fired.effects == [.record(.fired, scheduled: Self.now.addingTimeInterval(-secondsLate), detail: ""), .startRinging(resumed: false)])
    }

    @Test func aReminderOverdueBeyondTheGraceStaysOverdue() throws {
        let item = Self.reminder(dueBefore: 301)
        let added = try DaemonMachine.step(.added, item: item, state: nil, now: Self.now, zone: .utc, policy: Self.policy)
        #expect(added.state == RingState(anchor: Self.now))
        #expect(RingingMachine.wake(item: item, state: added.state, zone: .utc, policy: Self.policy) == nil)
    }

    @Test func aReminderMovedToAnInstantJustPastRingsAtOnce() throws {
        let before = Self.reminder(dueBefore: -3600)
        let after = Self.reminder(dueBefore: 0.4)
        let edited = try DaemonMachine.step(.edited(to: after), item: before, state: RingState(anchor: Self.now.addingTimeInterval(-60)), now: Self.now,
                                            zone: .utc, policy: Self.policy)
        #expect(RingingMachine.wake(item: after, state: edited.state, zone: .utc, policy: Self.policy) == Self.now.addingTimeInterval(-0.4))
        #expect(try due(edited, at: Self.now).state.isRinging)
    }

    @Test func aDoneReminderIsNotRungByAnEdit() throws {
        guard case .reminder(var done) = Self.reminder(dueBefore: 1) else { return }
        done.done = true
        #expect(RingingMachine.fresh(item: .reminder(done), now: Self.now, policy: Self.policy) == RingState(anchor: Self.now))
    }

    /// `alarmctl add 9:58` at 10:00 means tomorrow's 9:58, not a ring now.
    @Test func anAlarmWhoseTimeHasJustPassedWaitsForItsNextOccurrence() throws {
        let alarm = Item.alarm(Alarm(time: try TimeOfDay(hour: 9, minute: 58), created: Self.now))
        let added = try DaemonMachine.step(.added, item: alarm, state: nil, now: Self.now, zone: .utc, policy: Self.policy)
        #expect(added.state == RingState(anchor: Self.now))
        #expect(RingingMachine.wake(item: alarm, state: added.state, zone: .utc, policy: Self.policy) == Date(timeIntervalSince1970: 1_773_050_400 + 86_400 - 120))
    }

    @Test func withNoGraceOnlyAnInstantNotYetPastRings() throws {
        let strict = RingPolicy(missedGrace: 0, reminderSnooze: .default, reminderRingSeconds: 60)
        #expect(RingingMachine.fresh(item: Self.reminder(dueBefore: 0), now: Self.now, policy: strict).anchor < Self.now)
        #expect(RingingMachine.fresh(item: Self.reminder(dueBefore: 0.001), now: Self.now, policy: strict) == RingState(anchor: Self.now))
    }
}

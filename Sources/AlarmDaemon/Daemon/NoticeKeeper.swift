// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Dispatch
import FoundationEssentials

/// Gives the notices ``NoticePlan`` decides, on time: one wall-clock timer of
/// the owner's, re-armed for the next notice whenever the plan changes.
/// Confined to the owner, like the scheduler whose firings it reads: what
/// changes is in ``state``, which checks that.
final class NoticeKeeper: Sendable {
    private let owner: Owner
    private let clock: any WallClock
    private let give: @Sendable (NoticePlan.Notice) -> Void

    private struct State {
        var timer: LoopTimer?
        var armedFor: Date?
        /// Notices given, until their occurrence passes.
        var given: Set<NoticePlan.Notice> = []
        /// The firings and lead of the last update, for the timer to re-plan with.
        var firings: [(id: UUID, at: Date)] = []
        var reminders: [(id: UUID, at: Date, before: [Int])] = []
        var upcomingLead: TimeInterval = 0
    }
    private let state: QueueBound<State>

    /// `give` runs on the owner's queue for each notice as it falls due.
    init(owner: Owner, clock: any WallClock, give: @escaping @Sendable (NoticePlan.Notice) -> Void) {
        self.owner = owner
        self.clock = clock
        self.give = give
        state = QueueBound(State(), queue: owner.queue)
    }

    /// The alarms' next firings changed (or the time did): gives what is due
    /// and arms the timer for the next notice.
    func update(firings: [(id: UUID, at: Date)], reminders: [(id: UUID, at: Date, before: [Int])], upcomingLead: TimeInterval) {
        owner.assertCurrent()
        state.firings = firings
        state.reminders = reminders
        state.upcomingLead = upcomingLead
        replan()
    }

    private func replan() {
        let now = clock.now()
        state.given = NoticePlan.pruned(state.given, now: now)
        let (due, next) = NoticePlan.plan(firings: state.firings, reminders: state.reminders, now: now, upcomingLead: state.upcomingLead,
                                          given: state.given)
        for notice in due {
            state.given.insert(notice)
            give(notice)
        }
        arm(next)
    }

    private func arm(_ instant: Date?) {
        guard instant != state.armedFor else { return }
        state.armedFor = instant
        guard let instant else {
            state.timer?.disarm()
            return
        }
        if state.timer == nil {
            state.timer = owner.timer(.wall) { [weak self] in
                self?.state.armedFor = nil
                self?.replan()
            }
        }
        state.timer?.schedule(wall: clock.systemInstant(for: instant))
    }
}

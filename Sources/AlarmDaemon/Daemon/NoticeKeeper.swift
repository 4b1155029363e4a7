// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Dispatch
import Foundation

/// Gives the notices ``NoticePlan`` decides, on time: one wall-clock timer on
/// the owner's queue, re-armed for the next notice whenever the plan changes.
/// Confined to the owner, like the scheduler whose firings it reads.
final class NoticeKeeper: @unchecked Sendable {
    private let owner: Owner
    private let clock: any WallClock
    private let give: (NoticePlan.Notice) -> Void
    private var timer: DispatchSourceTimer?
    private var armedFor: Date?
    /// Notices given, until their occurrence passes.
    private var given: Set<NoticePlan.Notice> = []
    /// The firings and lead of the last update, for the timer to re-plan with.
    private var firings: [(id: UUID, at: Date)] = []
    private var reminders: [(id: UUID, at: Date, before: [Int])] = []
    private var upcomingLead: TimeInterval = 0

    /// `give` runs on the owner's queue for each notice as it falls due.
    init(owner: Owner, clock: any WallClock, give: @escaping (NoticePlan.Notice) -> Void) {
        self.owner = owner
        self.clock = clock
        self.give = give
    }

    deinit { timer?.cancel() }

    /// The alarms' next firings changed (or the time did): gives what is due
    /// and arms the timer for the next notice.
    func update(firings: [(id: UUID, at: Date)], reminders: [(id: UUID, at: Date, before: [Int])], upcomingLead: TimeInterval) {
        owner.assertCurrent()
        self.firings = firings
        self.reminders = reminders
        self.upcomingLead = upcomingLead
        replan()
    }

    private func replan() {
        let now = clock.now()
        given = NoticePlan.pruned(given, now: now)
        let (due, next) = NoticePlan.plan(firings: firings, reminders: reminders, now: now, upcomingLead: upcomingLead, given: given)
        for notice in due {
            given.insert(notice)
            give(notice)
        }
        arm(next)
    }

    private func arm(_ instant: Date?) {
        guard instant != armedFor else { return }
        armedFor = instant
        guard let instant else {
            timer?.cancel()
            timer = nil
            return
        }
        if timer == nil {
            let timer = DispatchSource.makeTimerSource(queue: owner.queue)
            timer.setEventHandler { [weak self] in
                self?.armedFor = nil
                self?.replan()
            }
            timer.resume()
            self.timer = timer
        }
        // A notice may be a second late; nothing is gained by waking the CPU
        // exactly for it.
        timer?.schedule(wallDeadline: clock.wallDeadline(for: instant), repeating: .never, leeway: .seconds(1))
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// Pause, Resume and more time for a timer: the change each sends, the
/// same from `alarmctl timer pause|resume|add`, the terminal interface and
/// the app. A paused timer has no due time and keeps the whole seconds left
/// (`timerLeft`); resumed, it is due that many seconds after the whole
/// second it resumed in.
public enum TimerChange: Equatable, Sendable {
    case pause
    case resume
    /// More time: on the seconds left of a paused timer, on the due time of a running one.
    case add(seconds: Int)

    /// Why a change does not apply to a timer as it is.
    public enum Refusal: Error, Equatable, Sendable {
        /// It rings: Snooze and Stop are its choices.
        case ringing
        /// It is snoozed: it rings again at the snooze's end, or is dismissed.
        case snoozed
        case pausedAlready
        case notPaused
    }

    /// Pause for a running timer, Resume for a paused one.
    public static func pauseOrResume(_ item: ReminderItem) -> TimerChange { item.timerLeft == nil ? .pause : .resume }

    /// The changes for a timer due at `due` (running) or with `timerLeft`
    /// seconds left (paused), in `phase`.
    /// A countdown only: a timer ringing or snoozed is past its due time,
    /// and more time on it would move an instant already gone.
    public func changes(due: Date?, timerLeft: Int?, phase: ItemPhase, now: Date, zone: Zone) -> Result<ReminderChanges, Refusal> {
        switch phase {
        case .ringing: return .failure(.ringing)
        case .snoozed: return .failure(.snoozed)
        case .waiting: break
        }
        var changes = ReminderChanges()
        switch (self, timerLeft, due) {
        case (.pause, nil, let due?):
            changes.due = ""
            changes.timerLeft = .some(max(1, Int(due.timeIntervalSince(now).rounded(.up))))
        case (.resume, let left?, _):
            let resumed = now.timeIntervalSince1970.rounded(.down) + TimeInterval(left)
            changes.due = WireTime.string(Date(timeIntervalSince1970: resumed), in: zone)
            changes.timerLeft = .some(nil)
        case (.add(let seconds), let left?, _):
            changes.timerLeft = .some(left + seconds)
        case (.add(let seconds), nil, let due?):
            changes.due = WireTime.string(due.addingTimeInterval(TimeInterval(seconds)), in: zone)
        case (.pause, _, _):
            return .failure(.pausedAlready)
        case (.resume, nil, _), (.add, nil, nil):
            return .failure(.notPaused)
        }
        return .success(changes)
    }

    /// The `UpdateReminder` call for `item`.
    public func request(for item: ReminderItem, now: Date, zone: Zone) -> Result<UpdateReminder.Request, Refusal> {
        changes(due: item.due, timerLeft: item.timerLeft, phase: item.phase, now: now, zone: zone).map { UpdateReminder.Request(id: item.id, $0) }
    }

    /// Why it was refused, as alarmctl says it; `quoted` is the timer's
    /// title in the reader's quotation marks. (The app and the terminal
    /// interface say it as a toast: ``ToastText/timerRefused(_:title:language:)``.)
    public static func refusalText(_ refusal: Refusal, quoted: String, language l: some Localization) -> String {
        switch refusal {
        case .ringing: l.Lf("%s is ringing: snooze or dismiss it", quoted)
        case .snoozed: l.Lf("%s is snoozed: dismiss it, or it rings again when the snooze ends", quoted)
        case .pausedAlready: l.Lf("timer %s is paused already", quoted)
        case .notPaused: l.Lf("timer %s is not paused", quoted)
        }
    }
}

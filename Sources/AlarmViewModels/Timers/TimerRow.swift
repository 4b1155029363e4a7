// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// One timer: its title, the time left as a countdown shows it, and its
/// Pause or Resume, one more minute and Cancel.
public struct TimerRow: Equatable, Sendable, Identifiable {
    public let id: String
    public let title: String
    /// `4:59`, `1:02:03`; `0:00` once it is due.
    public let remainingText: String
    /// Whole seconds left, rounded up (a timer shows 0:00 only when due).
    public let remainingSeconds: Int
    public let isRinging: Bool
    /// Snoozed: the time left counts down to the snooze's end.
    public let isSnoozed: Bool
    /// Paused: the time left stands still.
    public let isPaused: Bool
    /// The accessible name of the Cancel button: `Cancel Tea`.
    public let cancelName: String
    /// Of the Pause or Resume button: `Pause Tea`, `Resume Tea`.
    public let pauseName: String
    /// Of the one-more-minute button: `One more minute for Tea`.
    public let moreTimeName: String

    public init(_ item: ReminderItem, now: Date, language l: some Localization) {
        id = item.id
        title = item.title
        // A paused timer keeps its time left; a running one counts down to its due time.
        // A snoozed one counts down to its snooze's end (its live `next`).
        let end = item.phase == .snoozed ? (item.next ?? item.due) : item.due
        let left = item.timerLeft ?? end.map { max(0, Int($0.timeIntervalSince(now).rounded(.up))) } ?? 0
        remainingSeconds = left
        remainingText = Self.remainingText(left)
        isRinging = item.phase == .ringing
        isSnoozed = item.phase == .snoozed
        isPaused = item.timerLeft != nil
        cancelName = l.Lf("Cancel %s", item.title)
        pauseName = isPaused ? l.Lf("Resume %s", item.title) : l.Lf("Pause %s", item.title)
        moreTimeName = l.Lf("One more minute for %s", item.title)
    }

    /// `m:ss` under an hour, else `h:mm:ss`.
    public static func remainingText(_ seconds: Int) -> String {
        let seconds = max(0, seconds)
        let h = seconds / 3600, m = seconds / 60 % 60, s = seconds % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// The time a `+` or `+1 min` adds.
    public static let moreTime = TimerChange.add(seconds: 60)

    /// Cancel: the timer is removed (as `alarmctl timer rm` does).
    public var cancelRequest: RemoveReminder.Request { RemoveReminder.Request(id: id) }
}

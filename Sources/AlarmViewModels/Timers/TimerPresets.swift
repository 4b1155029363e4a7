// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// The timer page's one-click lengths, and the request that starts a timer.
public enum TimerPresets {
    /// Minutes.
    public static let minutes = [1, 5, 10, 15, 25]

    /// A preset's button text: `5 min`.
    public static func name(minutes: Int, in l: some Localization) -> String { l.Lf("%d min", minutes) }

    /// `AddReminder` for a timer of `seconds` from `now` (rounded to the
    /// second): due then, `timer: true`. The title is the label, or
    /// `Timer` and its length, as alarmctl names timers.
    public static func startRequest(seconds: Int, label: String? = nil, now: Date, zone: Zone, language l: some Localization) -> AddReminder.Request {
        let due = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded() + TimeInterval(seconds))
        let title = label.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 } ?? l.Lf("Timer %s", TimerRow.remainingText(seconds))
        var changes = ReminderChanges(title: title, due: WireTime.string(due, in: zone))
        changes.timer = true
        return AddReminder.Request(changes)
    }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// The human sentences alarmd writes to the journal and its status line.
public enum EventText {
    /// `Alarm "Work" (07:30, Weekdays)` or `Reminder "Buy milk"`.
    public static func subject(_ item: Item) -> String {
        switch item {
        case .alarm(let alarm):
            let repeatText = alarm.isOneShot ? "once" : alarm.repeatText
            return "Alarm \(ValidationError.quoted(alarm.label)) (\(alarm.time), \(repeatText))"
        case .reminder(let reminder):
            return "Reminder \(ValidationError.quoted(reminder.title))"
        }
    }

    /// `Alarm "Work" (07:30, Weekdays) fired 3 ms late`.
    public static func sentence(_ event: EventKind, item: Item, lateness: TimeInterval?, detail: String) -> String {
        var text = subject(item) + " "
        switch event {
        case .fired: text += "fired " + (lateness.map(latenessText) ?? "")
        case .snoozed: text += "snoozed"
        case .dismissed: text += "dismissed"
        case .timedOut: text += "stopped ringing on its own (timed out)"
        case .skipped: text += "skipped this occurrence, as asked"
        case .missed: text += "was missed" + (lateness.map { ": due \(durationText($0)) ago" } ?? "")
        case .completed: text += "completed"
        case .changed: text += "changed"
        case .escalated: text += "escalated"
        case .notice: text += "is coming up"
        }
        if !detail.isEmpty { text += " (\(detail))" }
        return text.trimmingSpaces()
    }

    /// `on time`, `3 ms late`, `1.2 s late`, `2 min late`.
    public static func latenessText(_ seconds: TimeInterval) -> String {
        if seconds < 0.0005 { return "on time" }
        return durationText(seconds) + " late"
    }

    /// `3 ms`, `1.2 s`, `2 min`, `3 h`, `2 d`.
    public static func durationText(_ seconds: TimeInterval, in l: some Localization = .source) -> String {
        switch seconds {
        case ..<1: return l.Lf("%d ms", Int((seconds * 1000).rounded()))
        case ..<60: return l.Lf("%s s", (seconds * 10).rounded() / 10)
        case ..<3600: return l.Lf("%d min", Int(seconds / 60))
        case ..<172_800: return l.Lf("%d h", Int(seconds / 3600))
        default: return l.Lf("%d d", Int(seconds / 86_400))
        }
    }

    /// sd_notify STATUS: `4 alarms, 2 reminders; next: Tue 07:30 Work`.
    public static func status(alarms: Int, reminders: Int, next: (instant: Date, item: Item)?, zone: Zone) -> String {
        var text = plural(alarms, "alarm") + ", " + plural(reminders, "reminder") + "; next: "
        guard let next else { return text + "none" }
        let rules = zone.rules
        let local = rules.localDateTime(at: next.instant.epochSecondsFloor)
        text += "\(local.weekday.shortName) \(local.hourMinuteText) \(next.item.title)"
        return text
    }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}

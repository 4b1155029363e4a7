// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// What one to-do's row says: its title, and beneath it when it is due, how
/// it repeats and the first line of its notes; whether it is done; the name
/// a screen reader gives its check button; its image.
public struct ReminderRow: Equatable, Sendable, Identifiable {
    public let id: String
    public let title: String
    /// `Due Thu 14:00 · Every day · Buy oat milk`; empty when there is nothing.
    public let subtitle: String
    /// The same without the notes: `Due Thu 14:00 · Every day`.
    public let whenText: String
    public let done: Bool
    public let isRinging: Bool
    /// ``ReminderItem/isOverdue(due:allDay:done:phase:now:zone:)``: its
    /// due text says so in words, and the row's second line is red.
    public let isOverdue: Bool
    /// The check button's accessible name: the to-do's title.
    public let checkName: String
    public let imagePath: String?

    public init(_ item: ReminderItem, now: Date, zone: Zone, language l: some Localization) {
        id = item.id
        title = item.title
        done = item.done
        isRinging = item.phase == .ringing
        checkName = item.title
        imagePath = item.imagePath
        isOverdue = ReminderItem.isOverdue(due: item.due, allDay: item.allDay, done: item.done, phase: item.phase, now: now, zone: zone)
        var parts: [String] = []
        if let due = item.due {
            let days = DayText(now: now, zone: zone)
            let when = item.allDay ? days.weekdayOrDate(days.day(of: due), in: l) : days.clock(due, in: l)
            parts.append(item.phase == .snoozed ? l.Lf("Snoozed, was due %s", when) : isOverdue ? l.Lf("Overdue, was due %s", when) : l.Lf("Due %s", when))
        }
        if let repeatText = item.repeatText(in: l) { parts.append(repeatText) }
        whenText = parts.joined(separator: " · ")
        if let line = item.notes.split(separator: "\n", omittingEmptySubsequences: true).first { parts.append(String(line)) }
        subtitle = parts.joined(separator: " · ")
    }
}

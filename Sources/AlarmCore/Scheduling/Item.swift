// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// An alarm or a reminder, as the scheduler and the ringing machine see it.
public enum Item: Hashable, Sendable, Identifiable {
    case alarm(Alarm)
    case reminder(Reminder)

    public var id: UUID {
        switch self {
        case .alarm(let alarm): return alarm.id
        case .reminder(let reminder): return reminder.id
        }
    }

    /// When it was last changed by a person (or by sync, to the other side's time).
    public var updated: Date {
        switch self {
        case .alarm(let alarm): return alarm.updated
        case .reminder(let reminder): return reminder.updated
        }
    }

    public var kind: ItemKind {
        switch self {
        case .alarm: return .alarm
        case .reminder: return .reminder
        }
    }

    /// The alarm's label or the reminder's title.
    public var title: String {
        switch self {
        case .alarm(let alarm): return alarm.label
        case .reminder(let reminder): return reminder.title
        }
    }

    /// The longest label or title, in UTF-8 bytes.
    public static let maxTitleBytes = max(TextRules.label.maxBytes, TextRules.title.maxBytes)

    /// A label or title as names are compared: case and the spaces around it
    /// do not count (`alarmctl disable " work"` finds "Work").
    public static func folded(_ title: String) -> String { title.trimmingSpaces().lowercased() }

    /// Whether the default lists show it: every alarm, and a reminder until it is done.
    public var isListed: Bool {
        if case .reminder(let reminder) = self { return !reminder.done }
        return true
    }

    /// The command run when it fires; empty for none.
    public var command: [String] {
        switch self {
        case .alarm(let alarm): return alarm.command
        case .reminder(let reminder): return reminder.command
        }
    }

    /// Whether it can fire at all: an enabled alarm, or a reminder not yet done.
    public var isActive: Bool {
        switch self {
        case .alarm(let alarm): return alarm.enabled
        case .reminder(let reminder): return !reminder.done
        }
    }

    /// The first occurrence strictly after `instant`; `holidays` are passed
    /// over by an alarm that skips them.
    public func nextOccurrence(after instant: Date, in zone: Zone, holidays: HolidayCalendar) -> Date? {
        switch self {
        case .alarm(let alarm): return alarm.nextFire(after: instant, in: zone, holidays: holidays)
        case .reminder(let reminder): return reminder.nextFire(after: instant, in: zone)
        }
    }

    /// The same, with the system zone's rules already looked up.
    public func nextOccurrence(after instant: Date, systemRules: ZoneRules, holidays: HolidayCalendar) -> Date? {
        switch self {
        case .alarm(let alarm): return alarm.nextFire(after: instant, systemRules: systemRules, holidays: holidays)
        case .reminder(let reminder): return reminder.nextFire(after: instant, in: Zone(rules: systemRules))
        }
    }

    func snooze(_ policy: RingPolicy) -> SnoozeSettings {
        switch self {
        case .alarm(let alarm): return alarm.snooze
        case .reminder: return policy.reminderSnooze
        }
    }

    func ringSeconds(_ policy: RingPolicy) -> Int {
        switch self {
        case .alarm(let alarm): return alarm.ringSeconds
        case .reminder: return policy.reminderRingSeconds
        }
    }

    /// An alarm is spent once its last occurrence is over: a one-shot
    /// alarm's only one, or the last of a rule that ends (see
    /// ``Alarm/isLast(_:in:holidays:)``). A reminder stays until it is done.
    public func endsAfter(_ occurrence: Date, in zone: Zone, holidays: HolidayCalendar) -> Bool {
        if case .alarm(let alarm) = self { return alarm.isLast(occurrence, in: zone, holidays: holidays) }
        return false
    }

    /// The files it hands to a sound player or the notification server, with
    /// the field each is in: an alarm's or a reminder's sound file, a
    /// reminder's image.
    public var files: [(field: String, path: String)] {
        var files: [(field: String, path: String)] = []
        switch self {
        case .alarm(let alarm):
            if case .file(let path) = alarm.sound { files.append(("sound", path)) }
        case .reminder(let reminder):
            if case .file(let path)? = reminder.sound { files.append(("sound", path)) }
            if let image = reminder.imagePath { files.append(("imagePath", image)) }
        }
        return files
    }

    /// The requirement every file of ``files`` must meet.
    public static let fileRequirement = N_("must be an absolute path to a readable regular file")

    /// Checks the files this item names that `before` (the stored version,
    /// `nil` for a new item) does not name in the same field: each must be a
    /// readable regular file, as `isReadableRegularFile` (which does the I/O)
    /// finds it. A file unchanged by an edit is left to the check at ring
    /// time, so a sound deleted since does not block changing the label.
    public func checkFiles(changedFrom before: Item?, _ isReadableRegularFile: (String) -> Bool) throws(ValidationError) {
        let known = before?.files ?? []
        for (field, path) in files where !known.contains(where: { $0.field == field && $0.path == path }) {
            guard path.hasPrefix("/"), isReadableRegularFile(path) else { throw .text(field, Self.fileRequirement, got: path) }
        }
    }

    /// A countdown: it rings like an alarm and is done once it stops.
    public var isTimer: Bool {
        if case .reminder(let reminder) = self { return reminder.isTimer }
        return false
    }

    /// A reminder with a rule, which marking done brings back.
    public var recursAsReminder: Bool {
        if case .reminder(let reminder) = self { return reminder.recurrence != nil }
        return false
    }

    /// An alarm set to pass over its next occurrence.
    public var skipsNext: Bool {
        if case .alarm(let alarm) = self { return alarm.skipNext }
        return false
    }

    /// Whether `other` says all this item says, whenever each was written
    /// (`created`, `updated`) and wherever a reminder stands in the list: an
    /// import of an unchanged export changes nothing.
    public func saysTheSame(as other: Item) -> Bool {
        switch (self, other) {
        case (.alarm(var a), .alarm(let b)):
            (a.created, a.updated) = (b.created, b.updated)
            return a == b
        case (.reminder(var a), .reminder(let b)):
            (a.created, a.updated, a.position) = (b.created, b.updated, b.position)
            return a == b
        default:
            return false
        }
    }

    /// Whether `other` fires at the same instants as this item: the fields that
    /// decide its occurrences and whether it fires at all. Label, sound, snooze
    /// settings, ring length, notes and skip-next are not part of it: changing
    /// them leaves an occurrence that is ringing or snoozed where it is.
    public func hasSameSchedule(as other: Item) -> Bool {
        switch (self, other) {
        case (.alarm(let a), .alarm(let b)):
            return a.time == b.time && a.days == b.days && a.timeZone == b.timeZone && a.enabled == b.enabled
                && a.recurrence == b.recurrence && a.pausedUntil == b.pausedUntil && a.skipHolidays == b.skipHolidays
        case (.reminder(let a), .reminder(let b)):
            return a.due == b.due && a.done == b.done
        default:
            return false
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Daemon-wide settings that the ringing machine needs (from the configuration).
public struct RingPolicy: Hashable, Sendable {
    /// An occurrence at most this late when the daemon gets to it still rings;
    /// an older one becomes a single `missed` event.
    public var missedGrace: TimeInterval
    /// Reminders carry no snooze settings of their own.
    public var reminderSnooze: SnoozeSettings
    public var reminderRingSeconds: Int
    /// An alarm ringing unanswered this long escalates; 0 never. Reminders do not.
    public var escalateAfter: TimeInterval
    /// The days `[Alarms] Holidays=` lists, which alarms that skip holidays
    /// pass over.
    public var holidays: HolidayCalendar

    public static let `default` = RingPolicy(missedGrace: 300, reminderSnooze: .default, reminderRingSeconds: Alarm.defaultRingSeconds)

    public init(missedGrace: TimeInterval, reminderSnooze: SnoozeSettings, reminderRingSeconds: Int, escalateAfter: TimeInterval = 0, holidays: HolidayCalendar = .empty) {
        self.missedGrace = missedGrace
        self.reminderSnooze = reminderSnooze
        self.reminderRingSeconds = reminderRingSeconds
        self.escalateAfter = escalateAfter
        self.holidays = holidays
    }

    /// When `item`, ringing since `since`, escalates: `nil` for a reminder,
    /// with escalation off, or when it would stop ringing first.
    public func escalation(of item: Item, ringingSince since: Date) -> Date? {
        guard case .alarm(let alarm) = item, escalateAfter > 0, escalateAfter < TimeInterval(alarm.ringSeconds) else { return nil }
        return since.addingTimeInterval(escalateAfter)
    }
}

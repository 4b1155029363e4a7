import FoundationEssentials

/// Daemon-wide settings that the ringing machine needs (from the configuration).
public struct RingPolicy: Hashable, Sendable {
    /// An occurrence at most this late when the daemon gets to it still rings;
    /// an older one becomes a single `missed` event.
    public var missedGrace: TimeInterval
    /// Reminders carry no snooze settings of their own.
    public var reminderSnooze: SnoozeSettings
    public var reminderRingSeconds: Int

    public static let `default` = RingPolicy(missedGrace: 300, reminderSnooze: .default, reminderRingSeconds: Alarm.defaultRingSeconds)

    public init(missedGrace: TimeInterval, reminderSnooze: SnoozeSettings, reminderRingSeconds: Int) {
        self.missedGrace = missedGrace
        self.reminderSnooze = reminderSnooze
        self.reminderRingSeconds = reminderRingSeconds
    }
}

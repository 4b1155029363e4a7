/// How an alarm may be snoozed.
public struct SnoozeSettings: Hashable, Sendable {
    /// Whether the Snooze action is offered at all.
    public var enabled: Bool
    /// Minutes from the snooze until the item rings again, 1–60.
    public var minutes: Int
    /// How many snoozes one occurrence allows; 0 means unlimited.
    public var maxCount: Int

    /// iOS's fixed nine minutes, unlimited.
    public static let `default` = SnoozeSettings(enabled: true, minutes: 9, maxCount: 0)
    public static let minutesRange = 1...60
    public static let maxCountRange = 0...100

    public init(enabled: Bool = true, minutes: Int = 9, maxCount: Int = 0) {
        self.enabled = enabled
        self.minutes = minutes
        self.maxCount = maxCount
    }

    public func validate() throws(ValidationError) {
        guard Self.minutesRange.contains(minutes) else {
            throw ValidationError(field: "snoozeMinutes", requirement: "must be 1–60", value: String(minutes))
        }
        guard Self.maxCountRange.contains(maxCount) else {
            throw ValidationError(field: "maxSnoozes", requirement: "must be 0–100 (0 = unlimited)", value: String(maxCount))
        }
    }

    /// Whether one more snooze is allowed after `count` snoozes of this occurrence.
    public func allowsSnooze(after count: Int) -> Bool {
        enabled && (maxCount == 0 || count < maxCount)
    }
}

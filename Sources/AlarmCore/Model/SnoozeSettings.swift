// SPDX-License-Identifier: Apache-2.0
/// How an alarm may be snoozed.
public struct SnoozeSettings: Hashable, Sendable {
    /// Whether the Snooze action is offered at all.
    public var enabled: Bool
    // Narrow storage (a daemon keeps a million alarms in memory); the public
    // Ints accept anything so `validate()` can name an out-of-range value.
    // Values beyond the storage saturate, and still fail validation.
    private var storedMinutes: Int16
    private var storedMaxCount: Int16

    /// Minutes from the snooze until the item rings again, 1–60.
    public var minutes: Int {
        get { Int(storedMinutes) }
        set { storedMinutes = Int16(clamping: newValue) }
    }
    /// How many snoozes one occurrence allows; 0 means unlimited.
    public var maxCount: Int {
        get { Int(storedMaxCount) }
        set { storedMaxCount = Int16(clamping: newValue) }
    }

    /// iOS's fixed nine minutes, unlimited.
    public static let `default` = SnoozeSettings(enabled: true, minutes: 9, maxCount: 0)
    public static let minutesRange = 1...60
    public static let maxCountRange = 0...100

    public init(enabled: Bool = true, minutes: Int = 9, maxCount: Int = 0) {
        self.enabled = enabled
        storedMinutes = Int16(clamping: minutes)
        storedMaxCount = Int16(clamping: maxCount)
    }

    public func validate() throws(ValidationError) {
        guard Self.minutesRange.contains(minutes) else {
            throw ValidationError(field: "snoozeMinutes", requirement: N_("must be 1–60"), value: String(minutes))
        }
        guard Self.maxCountRange.contains(maxCount) else {
            throw ValidationError(field: "maxSnoozes", requirement: N_("must be 0–100 (0 = unlimited)"), value: String(maxCount))
        }
    }

    /// Whether one more snooze is allowed after `count` snoozes of this occurrence.
    public func allowsSnooze(after count: Int) -> Bool {
        enabled && (maxCount == 0 || count < maxCount)
    }
}

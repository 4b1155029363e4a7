import FoundationEssentials

/// Where one item stands in its ringing lifecycle. This is persisted before any
/// change to it is acknowledged, so that a restart neither loses a snooze nor
/// rings an occurrence twice.
public struct RingState: Hashable, Sendable {
    public enum Phase: Hashable, Sendable {
        /// Waiting for the first occurrence after `anchor`.
        case waiting
        /// Ringing since the given instant.
        case ringing(since: Date)
        /// Snoozed; rings again at the given instant.
        case snoozed(until: Date)
    }

    /// The next occurrence is the first one strictly after this instant: the
    /// scheduled instant of the last occurrence dealt with (rung, skipped or
    /// missed), or the moment the item was created, changed or enabled.
    public var anchor: Date
    public var phase: Phase
    /// The scheduled instant of the occurrence that is ringing or snoozed.
    public var occurrence: Date?
    /// Snoozes taken for `occurrence`.
    public var snoozeCount: Int

    public init(anchor: Date, phase: Phase = .waiting, occurrence: Date? = nil, snoozeCount: Int = 0) {
        self.anchor = anchor
        self.phase = phase
        self.occurrence = occurrence
        self.snoozeCount = snoozeCount
    }

    public var isRinging: Bool { if case .ringing = phase { return true } else { return false } }
    public var isSnoozed: Bool { if case .snoozed = phase { return true } else { return false } }
}

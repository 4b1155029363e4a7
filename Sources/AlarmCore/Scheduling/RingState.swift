// SPDX-License-Identifier: Apache-2.0
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
    // Int32 (snoozes are at most 100) so that `escalated` fits in the same
    // 48 bytes: a daemon keeps a state for each of a million items.
    private var storedSnoozeCount: Int32
    /// Snoozes taken for `occurrence`.
    public var snoozeCount: Int {
        get { Int(storedSnoozeCount) }
        set { storedSnoozeCount = Int32(clamping: newValue) }
    }
    /// This ringing went to full volume (`[Alarms] EscalateAfter=`); every
    /// ringing starts without, a snoozed one's next too.
    public var escalated: Bool

    public init(anchor: Date, phase: Phase = .waiting, occurrence: Date? = nil, snoozeCount: Int = 0, escalated: Bool = false) {
        self.anchor = anchor
        self.phase = phase
        self.occurrence = occurrence
        storedSnoozeCount = Int32(clamping: snoozeCount)
        self.escalated = escalated
    }

    public var isRinging: Bool { if case .ringing = phase { return true } else { return false } }
    public var isSnoozed: Bool { if case .snoozed = phase { return true } else { return false } }
}

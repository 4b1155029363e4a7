// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// `[Wake]` in alarmd.conf: whether, and how early, alarmd sets the machine
/// to wake from suspend for what is due next.
public struct WakeSettings: Hashable, Sendable {
    /// `Enabled=`: off, alarmd never sets a wake-up.
    public var enabled = true
    /// `Lead=`: how long before the occurrence the machine wakes, so that it
    /// has resumed (and alarmd re-planned) when the alarm rings.
    public var lead: TimeInterval = 60
    /// `Reminders=`: reminders with a due time wake the machine too (timers always do).
    public var reminders = false
    /// `SuspendAgain=`: after a wake alarmd caused, when what woke the
    /// machine stops ringing by timing out (nobody snoozed or dismissed
    /// anything), ask logind to suspend again.
    public var suspendAgain = false

    public init() {}
}

/// Which occurrence the machine should wake for, and when. Pure: the daemon
/// gives it the plan's next firings and the time, and arms what it returns.
public enum WakePlan {
    /// Whether `item` is one that wakes the machine under `settings`.
    public static func wakes(_ item: Item, settings: WakeSettings) -> Bool {
        guard settings.enabled else { return false }
        switch item {
        case .alarm: return true
        // A timer rings as an alarm does, suspended or not, as on a phone.
        case .reminder(let reminder): return settings.reminders || reminder.isTimer
        }
    }

    /// The instant to wake for an occurrence at `firing`, or `nil` when there
    /// is none to wake for. `lead` before it, so it rings on time; when that
    /// moment has passed already (the occurrence is closer than the lead), the
    /// occurrence's own instant, which still beats noticing only at a manual
    /// resume; nothing for an occurrence that is not in the future.
    public static func instant(for firing: Date?, now: Date, settings: WakeSettings) -> Date? {
        guard settings.enabled, let firing, firing > now else { return nil }
        let early = firing.addingTimeInterval(-settings.lead)
        return early > now ? early : firing
    }
}

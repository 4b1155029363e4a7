// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// The outputs that make a person notice an item: the desktop issue plugs in
/// notifications and sound; until then, and as a fallback, the journal.
///
/// Calls arrive on the output worker's queue (``Owner/output``), one at a
/// time, in the order the owner made them; a slow call delays the journal
/// entries and notifications behind it, never a firing. ``stopAll()`` is the
/// exception: it comes from the thread shutting the daemon down.
public protocol Ringer: Sendable {
    func startRinging(_ item: Item, occurrence: Date, snoozeCount: Int, resumed: Bool)
    func stopRinging(_ id: UUID)
    /// It rang unanswered too long: the sound to full volume at once.
    func escalate(_ id: UUID)
    /// `zone` is the system zone, which a reminder's missed time is shown in.
    func showMissed(_ item: Item, scheduled: Date, zone: Zone)
    /// The daemon is going away: stop everything, and wait for it. Never
    /// called on the output worker's queue.
    func stopAll()
}

import AlarmCore
import Foundation

/// The outputs that make a person notice an item: the desktop issue plugs in
/// notifications and sound; until then, and as a fallback, the journal.
///
/// Calls arrive on the scheduler's output queue and must return quickly: an
/// implementation that talks to slow things does so on its own queue.
public protocol Ringer: Sendable {
    func startRinging(_ item: Item, occurrence: Date, snoozeCount: Int, resumed: Bool)
    func stopRinging(_ id: UUID)
    /// `zone` is the system zone, which a reminder's missed time is shown in.
    func showMissed(_ item: Item, scheduled: Date, zone: Zone)
    /// The daemon is going away: stop everything.
    func stopAll()
}

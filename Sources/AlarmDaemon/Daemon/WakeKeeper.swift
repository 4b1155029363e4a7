import AlarmCore
import Foundation
import Glibc

/// What `Status` reports about waking from suspend.
public struct WakeStatus: Sendable, Equatable {
    /// The means in use: `timerfd`, or `none` (the user manager's timer and
    /// the system helper that issue 14 also describes are not built yet).
    public var method: String
    /// The instant the machine is set to wake, if it is.
    public var next: Date?
    /// Why there is no wake-up, if there is none.
    public var reason: String?

    public init(method: String, next: Date?, reason: String?) {
        self.method = method
        self.next = next
        self.reason = reason
    }
}

/// Keeps the machine set to wake from suspend for the next occurrence that
/// should ring (``WakePlan``): alarmd's own `CLOCK_REALTIME_ALARM` timer when
/// the process holds `CAP_WAKE_ALARM`, else none, with the reason said once
/// in the journal and always in `Status`. Confined to the owner; what
/// `Status` reads is published through a mutex.
final class WakeKeeper {
    private let owner: Owner
    private let journal: Journal
    /// Open only while a wake-up is set (see ``WakeTimer``).
    private var timer: WakeTimer?
    /// Whether this process may have a wake-up timer at all (probed once).
    private let timerUsable: Bool
    private var status: WakeStatus
    /// `status` as the last update left it, for `Status` on any thread.
    let board: Published<WakeStatus>
    /// The last reason logged, so each is logged once, not at every re-plan.
    private var loggedReason: String?

    init(owner: Owner, journal: Journal) {
        self.owner = owner
        self.journal = journal
        switch WakeTimer.open(queue: owner.queue) {
        case .success:
            timerUsable = true
            status = WakeStatus(method: "timerfd", next: nil, reason: nil)
        case .failure(let error):
            timerUsable = false
            status = WakeStatus(method: "none", next: nil, reason: Self.reason(error))
        }
        board = Published(status)
    }

    static func reason(_ error: SystemError) -> String {
        guard error.code == EPERM else { return "cannot use a wake-up timer: \(error)" }
        return "alarmd lacks CAP_WAKE_ALARM, which its own wake-up timer needs; "
            + "setting a wake-up through the user manager or the alarmd-wake helper is not implemented yet"
    }

    /// Sets the wake-up for the occurrence at `firing` (the next one that
    /// should wake the machine), or clears it.
    func update(firing: Date?, now: Date, settings: WakeSettings) {
        owner.assertCurrent()
        defer { board.value = status }
        guard timerUsable else {
            logOnce(status.reason ?? "no wake-up timer")
            return
        }
        let instant = WakePlan.instant(for: firing, now: now, settings: settings)
        status.reason = settings.enabled ? (instant == nil ? "nothing is due that should wake the machine" : nil) : "switched off ([Wake] Enabled=no)"
        guard instant != timer?.armed else { return }
        guard let instant, let firing else {
            timer = nil
            status.next = nil
            return
        }
        do throws(SystemError) {
            if timer == nil { timer = try WakeTimer.open(queue: owner.queue).get() }
            try timer?.arm(instant)
            status.next = instant
            journal.send("Set the machine to wake at \(instant.rfc3339UTC) for the occurrence at \(firing.rfc3339UTC)", priority: .debug,
                         messageID: MessageID.wakeArmed,
                         fields: [("ALARMD_WAKE_AT", instant.rfc3339UTC), ("ALARMD_FIRING_AT", firing.rfc3339UTC), ("ALARMD_WAKE_METHOD", "alarmd's own CLOCK_REALTIME_ALARM timer")])
        } catch {
            timer = nil
            status.next = nil
            status.reason = "cannot set the wake-up timer: \(error)"
            logOnce(status.reason!)
        }
    }

    private func logOnce(_ reason: String) {
        guard reason != loggedReason else { return }
        loggedReason = reason
        journal.send("Cannot wake the machine from suspend: \(reason); alarms due while it sleeps ring only after it resumes",
                     priority: .warning, messageID: MessageID.wakeUnavailable, fields: [("ALARMD_DETAIL", reason)])
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials
import Glibc
import SystemCalls

/// What `Status` reports about waking from suspend.
public struct WakeStatus: Sendable, Equatable {
    /// The means in use: `timerfd`, `user-timer`, `helper`, or `none`.
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
/// should ring (``WakePlan``), with the first means that works:
///
/// 1. alarmd's own `CLOCK_REALTIME_ALARM` timer (``WakeTimer``), when the
///    process holds `CAP_WAKE_ALARM` (probed once, at start);
/// 2. else a transient timer of the user's service manager
///    (``UserManagerTimer``);
/// 3. else the `alarmd-wake` system helper (``WakeHelperClient``), once
///    the manager has refused; it stays the first choice while it works;
/// 4. else none, with the reason said once in the journal and always in
///    `Status`. Both outside means are asked again at the next change.
///
/// 2 and 3 block, so they are asked on the output worker, and the answer
/// comes back here unless a later request has overtaken it.
///
/// Confined to the owner (every entry point checks it, and so does
/// ``state``; Sendable so that the output worker's answer can come back to
/// it); what `Status` reads is published through a mutex.
final class WakeKeeper: Sendable {
    private let owner: Owner
    private let journal: Journal
    /// Whether this process may have a wake-up timer of its own (probed once).
    private let timerUsable: Bool
    /// The user manager's timer and the helper; used on the output worker only.
    private let userTimer: UserManagerTimer
    private let helper: WakeHelperClient
    /// `state.status` as the last update left it, for `Status` on any thread.
    let board: Published<WakeStatus>

    private struct State {
        /// Open only while a wake-up is set (see ``WakeTimer``).
        var timer: WakeTimer?
        /// The instant last handed to `userTimer`, answered or not.
        var requested: Date??
        var status: WakeStatus
        /// The last reason logged, so each is logged once, not at every re-plan.
        var loggedReason: String?
    }
    private let state: QueueBound<State>

    /// `helperSocket`: where `alarmd-wake` listens. `helperLost` runs on the
    /// owner when the helper lets go of a wake-up it held (it stopped), so
    /// that the daemon sets it again.
    init(owner: Owner, journal: Journal, helperSocket: String, helperLost: @escaping @Sendable () -> Void) {
        self.owner = owner
        self.journal = journal
        userTimer = UserManagerTimer(queue: owner.output)
        helper = WakeHelperClient(path: helperSocket, queue: owner.output)

        let status: WakeStatus
        switch AlarmClock.probe() {
        case nil:
            timerUsable = true
            status = WakeStatus(method: "timerfd", next: nil, reason: nil)
        case let error?:
            timerUsable = false
            // Not yet known to work: said once the manager has answered.
            status = WakeStatus(method: "none", next: nil, reason: Self.reason(error))
        }
        board = Published(status)
        state = QueueBound(State(status: status), queue: owner.queue)
        helper.lost = { [weak self] in
            owner.post { [weak self] in
                self?.state.requested = nil
                helperLost()
            }
        }
    }

    static func reason(_ error: SystemError) -> String {
        guard error.code == EPERM else { return "cannot use a wake-up timer of its own: \(error)" }
        return "alarmd lacks CAP_WAKE_ALARM, which its own wake-up timer needs"
    }

    /// Sets the wake-up for the occurrence at `firing` (the next one that
    /// should wake the machine), or clears it.
    func update(firing: Date?, now: Date, settings: WakeSettings) {
        owner.assertCurrent()
        defer { board.value = state.status }
        guard timerUsable else { return updateOutside(firing: firing, now: now, settings: settings) }
        let instant = WakePlan.instant(for: firing, now: now, settings: settings)
        state.status.reason = Self.reason(for: instant, settings: settings)
        guard instant != state.timer?.armed else { return }
        guard let instant, let firing else {
            state.timer = nil
            state.status.next = nil
            return
        }
        do throws(SystemError) {
            if state.timer == nil { state.timer = try WakeTimer.open(owner: owner).get() }
            try state.timer?.arm(instant)
            state.status.next = instant
            logArmed(instant, for: firing, via: "alarmd's own CLOCK_REALTIME_ALARM timer")
        } catch {
            state.timer = nil
            state.status.next = nil
            state.status.reason = "cannot set the wake-up timer: \(error)"
            logOnce(state.status.reason!)
        }
    }

    /// The same through the user manager or the helper: asked on the output
    /// worker, and the answer taken here unless a later request has overtaken it.
    private func updateOutside(firing: Date?, now: Date, settings: WakeSettings) {
        let instant = WakePlan.instant(for: firing, now: now, settings: settings)
        guard state.requested != .some(instant) else { return }
        state.requested = .some(instant)
        let (userTimer, helper, owner) = (userTimer, helper, owner)
        let preferHelper = state.status.method == Method.helper
        owner.output.async { [weak self] in
            let outcome = Self.setOutside(instant, userTimer: userTimer, helper: helper, preferHelper: preferHelper)
            owner.post { [weak self] in self?.outsideAnswered(instant, firing: firing, outcome: outcome, settings: settings) }
        }
    }

    private enum Method {
        static let userTimer = "user-timer"
        static let helper = "helper"
    }

    /// On the output worker: sets `instant` with the user manager, else with
    /// the helper (the helper first when it was the one that worked last), and
    /// clears it with the one not used. The method used, or why neither worked.
    private static func setOutside(_ instant: Date?, userTimer: UserManagerTimer, helper: WakeHelperClient, preferHelper: Bool) -> Result<String, WakeHelperClient.Failure> {
        func viaHelper() throws(WakeHelperClient.Failure) -> String {
            try helper.set(instant)
            if userTimer.armed != nil { try? userTimer.set(nil) }
            return Method.helper
        }
        if preferHelper, let method = try? viaHelper() { return .success(method) }
        let managerFailure: SystemError
        do throws(SystemError) {
            try userTimer.set(instant)
            if helper.armed != nil { try? helper.set(nil) }
            return .success(Method.userTimer)
        } catch {
            managerFailure = error
        }
        do throws(WakeHelperClient.Failure) { return .success(try viaHelper()) } catch {
            return .failure(WakeHelperClient.Failure(description: "the user manager refused a wake-up timer (\(managerFailure)) and \(error)"))
        }
    }

    private func outsideAnswered(_ instant: Date?, firing: Date?, outcome: Result<String, WakeHelperClient.Failure>, settings: WakeSettings) {
        owner.assertCurrent()
        guard state.requested == .some(instant) else { return }
        defer { board.value = state.status }
        switch outcome {
        case .failure(let failure):
            // Asked again at the next change: the manager or the helper may come back.
            state.requested = nil
            state.status = WakeStatus(method: "none", next: nil, reason: "alarmd lacks CAP_WAKE_ALARM, \(failure)")
            logOnce(state.status.reason!)
        case .success(let method):
            state.status.method = method
            state.status.next = instant
            state.status.reason = Self.reason(for: instant, settings: settings)
            if let instant, let firing {
                logArmed(instant, for: firing, via: method == Method.helper ? "the alarmd-wake helper" : "the user manager's timer \(UserManagerTimer.unit)")
            }
        }
    }

    /// Why no wake-up is set while the means works, if none is.
    private static func reason(for instant: Date?, settings: WakeSettings) -> String? {
        guard settings.enabled else { return "switched off ([Wake] Enabled=no)" }
        return instant == nil ? "nothing is due that should wake the machine" : nil
    }

    private func logArmed(_ instant: Date, for firing: Date, via method: String) {
        journal.send("Set the machine to wake at \(instant.rfc3339UTC) for the occurrence at \(firing.rfc3339UTC)", priority: .debug,
                     messageID: MessageID.wakeArmed,
                     fields: [("ALARMD_WAKE_AT", instant.rfc3339UTC), ("ALARMD_FIRING_AT", firing.rfc3339UTC), ("ALARMD_WAKE_METHOD", method)])
    }

    /// Removes a wake-up left with the user manager or the helper (the
    /// daemon is stopping; a new one sets its own).
    func stop() {
        let (userTimer, helper) = (userTimer, helper)
        owner.output.sync {
            userTimer.stop()
            if helper.armed != nil { try? helper.set(nil) }
        }
    }

    private func logOnce(_ reason: String) {
        guard reason != state.loggedReason else { return }
        state.loggedReason = reason
        journal.send("Cannot wake the machine from suspend: \(reason); alarms due while it sleeps ring only after it resumes",
                     priority: .warning, messageID: MessageID.wakeUnavailable, fields: [("ALARMD_DETAIL", reason)])
    }
}

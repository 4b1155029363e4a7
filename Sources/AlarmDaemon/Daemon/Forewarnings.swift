// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Dispatch
import FoundationEssentials
import SystemCalls

/// What alarmd says before an alarm rings, on the owner: the upcoming notice
/// with Dismiss now (`[Alarms] UpcomingNotice=`), and whether the alarm will
/// be heard — checked when an alarm is added, edited or switched on, and
/// again ten minutes before each occurrence, when a problem becomes a
/// notification. The checks run on the probe's worker and come back here.
/// What changes is the owner's, in ``state``, which checks that.
final class Forewarnings: Sendable {
    /// The last check's findings, with the wake-up as it was when the check
    /// ended; ``current`` is what `Status` and `GetAlarm` read, on any thread.
    let report = Published<AudibilityReport?>(nil)

    private let owner: Owner
    private let scheduler: Scheduler
    private let ringer: DesktopRinger
    private let journal: Journal
    private let configuration: Published<DaemonConfig>
    private let wakeStatus: @Sendable () -> WakeStatus
    private let probe: AudibilityProbe
    private let clock: any WallClock

    /// Checks that changes ask for start at most this often: a client adding
    /// alarms in a loop would otherwise keep the probe's worker (a connection
    /// to the sound server and a bus call each time) and a core busy. A
    /// ten-minute notice's check does not wait.
    static let checkSpacing: DispatchTimeInterval = .seconds(1)

    private struct State {
        /// Made at the first ``planChanged()`` (see ``notices``).
        var notices: NoticeKeeper?
        var checking = false
        var checkPacer = Pacer(interval: Forewarnings.checkSpacing)
        /// Where `checkPacer` waits; made at its first wait.
        var checkTimer: LoopTimer?
        /// Sounds to check with the next check, and the ten-minute notices that
        /// wait for it.
        var pendingSounds: Set<Sound> = []
        var pendingNotices: [(alarm: Alarm, occurrence: Date)] = []
    }
    private let state: QueueBound<State>

    /// The keeper of the notices, made on first use: it calls back into this.
    private var notices: NoticeKeeper {
        if let notices = state.notices { return notices }
        let notices = NoticeKeeper(owner: owner, clock: clock) { [unowned self] in give($0) }
        state.notices = notices
        return notices
    }

    init(owner: Owner, clock: any WallClock, scheduler: Scheduler, ringer: DesktopRinger, journal: Journal, configuration: Published<DaemonConfig>,
         probe: AudibilityProbe, wakeStatus: @escaping @Sendable () -> WakeStatus) {
        self.owner = owner
        self.clock = clock
        self.scheduler = scheduler
        self.ringer = ringer
        self.journal = journal
        self.configuration = configuration
        self.probe = probe
        self.wakeStatus = wakeStatus
        state = QueueBound(State(), queue: owner.queue)
    }

    /// The plan changed: the notices follow the alarms' next firings. Only
    /// alarms waiting for their occurrence (a snoozed one's next ring is not
    /// an occurrence to announce).
    func planChanged() {
        owner.assertCurrent()
        // Without alarms (or reminders with notices) the walks below would
        // visit every reminder to find none, ten times a second while
        // thousands ring.
        var firings: [Scheduler.Firing] = []
        if scheduler.table.alarmCount > 0 {
            firings = scheduler.upcomingFirings(NoticePlan.horizon) { item in
                guard case .alarm(let alarm) = item, alarm.enabled else { return false }
                return scheduler.entry(item).state.phase == .waiting
            }
        }
        var reminders: [(id: UUID, at: Date, before: [Int])] = []
        if scheduler.table.noticedReminderCount > 0 {
            // Due ones only: a reminder ringing or snoozed has had its notices.
            reminders = scheduler.upcomingFirings(NoticePlan.horizon) { item in
                guard case .reminder(let reminder) = item, !reminder.before.isEmpty else { return false }
                return scheduler.entry(item).state.phase == .waiting
            }.compactMap { firing in
                guard case .reminder(let reminder) = firing.item else { return nil }
                return (reminder.id, firing.at, reminder.before)
            }
        }
        notices.update(firings: firings.map { ($0.item.id, $0.at) }, reminders: reminders, upcomingLead: configuration.value.upcomingNotice)
    }

    /// An item was added or changed: an alarm that is on gets its sound checked.
    func changed(_ item: Item) {
        guard case .alarm(let alarm) = item, alarm.enabled else { return }
        check(sounds: [alarm.sound])
    }

    /// The last check's findings with the wake-up as it stands now. The means
    /// of waking is settled on the output worker and may change after a
    /// check (at start-up the user manager or the helper answers after the
    /// first check), so the check's view of it is not what is said.
    var current: AudibilityReport? {
        guard var found = report.value else { return nil }
        found.wakeProblem = Self.wakeProblem(wakeStatus(), enabled: configuration.value.wake.enabled)
        return found
    }

    /// Why the machine will not wake for an alarm: only when no means
    /// works, and waking is not switched off on purpose.
    static func wakeProblem(_ wake: WakeStatus, enabled: Bool) -> String? {
        enabled && wake.method == "none" ? wake.reason ?? Audibility.noWakeMeans : nil
    }

    /// The warnings for `alarm`, from the last check; none before the first.
    static func warnings(for alarm: Alarm, _ report: AudibilityReport?) -> [String] {
        report.map { Audibility.warnings(for: alarm.sound, $0) } ?? []
    }

    /// Checks with `sounds` among the sounds: now, or after the check that
    /// runs, or once ``checkSpacing`` has passed since the last began (a
    /// ten-minute notice does not wait for that). At most one check runs at
    /// a time, and requests made meanwhile join the next.
    func check(sounds: Set<Sound>, notifying alarm: (Alarm, Date)? = nil) {
        owner.assertCurrent()
        state.pendingSounds.formUnion(sounds)
        if let alarm { state.pendingNotices.append(alarm) }
        guard !state.checking else { return }
        switch state.checkPacer.decide(now: .now(), urgent: !state.pendingNotices.isEmpty) {
        case .run:
            break
        case .wait(let due):
            // Weak: a daemon stopped meanwhile checks nothing more.
            if state.checkTimer == nil {
                state.checkTimer = owner.timer(.monotonic) { [weak self] in
                    guard let self else { return }
                    state.checkPacer.woke()
                    if !state.pendingSounds.isEmpty || !state.pendingNotices.isEmpty { check(sounds: []) }
                }
            }
            state.checkTimer!.schedule(at: due)
            return
        case .waiting:
            return
        }
        state.checking = true
        let sounds = state.pendingSounds, waiting = state.pendingNotices
        state.pendingSounds = []
        state.pendingNotices = []
        let config = configuration.value
        let wake = wakeStatus()
        let wakeProblem = Self.wakeProblem(wake, enabled: config.wake.enabled)
        let probe = probe
        probe.queue.async { [self] in
            let fresh = probe.check(sounds: sounds, wakeProblem: wakeProblem)
            owner.post { [self] in finished(fresh, checked: sounds, waiting: waiting) }
        }
    }

    private func finished(_ fresh: AudibilityReport, checked: Set<Sound>, waiting: [(alarm: Alarm, occurrence: Date)]) {
        // Sounds not checked this time keep what the last check found.
        var merged = fresh
        merged.wakeProblem = Self.wakeProblem(wakeStatus(), enabled: configuration.value.wake.enabled)
        for (sound, problem) in report.value?.soundProblems ?? [:] where !checked.contains(where: { $0.description == sound }) {
            merged.soundProblems[sound] = problem
        }
        report.value = merged
        state.checking = false
        let zone = scheduler.systemZone
        for (alarm, occurrence) in waiting {
            let warnings = Audibility.warnings(for: alarm.sound, merged)
            guard !warnings.isEmpty else { continue }
            journal.send("\(EventText.subject(.alarm(alarm))) may not be heard: \(warnings.joined(separator: "; "))", priority: .warning,
                         messageID: MessageID.mayNotBeHeard, fields: [("ALARMD_ITEM_ID", alarm.id.lowercasedText), ("ALARMD_DETAIL", warnings.joined(separator: "; "))])
            let ringer = ringer, found = merged
            // The notification says it in the session's language, on the
            // worker that holds it.
            owner.output.async { ringer.showNotHeard(alarm, occurrence: occurrence, report: found, zone: zone) }
        }
        if !state.pendingSounds.isEmpty || !state.pendingNotices.isEmpty { check(sounds: []) }
    }

    private func give(_ notice: NoticePlan.Notice) {
        if notice.kind == .advance, let item = scheduler.item(notice.id), case .reminder(let reminder) = item {
            return advance(reminder, notice: notice)
        }
        guard let item = scheduler.item(notice.id), case .alarm(let alarm) = item else { return }
        switch notice.kind {
        case .upcoming:
            let ringer = ringer, zone = scheduler.systemZone
            owner.output.async { ringer.showUpcoming(alarm, occurrence: notice.occurrence, zone: zone) }
        case .audibility:
            check(sounds: [alarm.sound], notifying: (alarm, notice.occurrence))
        case .advance:
            break
        }
    }

    /// A reminder's advance notice: a quiet notification, a `notice` event
    /// in the journal and on Watch. Not in the history: nothing happened to
    /// the reminder itself.
    private func advance(_ reminder: Reminder, notice: NoticePlan.Notice) {
        let lead = Int(notice.occurrence.timeIntervalSince(notice.at))
        let detail = "due in " + Self.leadText(lead)
        scheduler.announce(.notice, item: .reminder(reminder), scheduled: notice.occurrence, detail: detail)
        let ringer = ringer, zone = scheduler.systemZone
        owner.output.async { ringer.showAdvance(reminder, occurrence: notice.occurrence, zone: zone) }
    }

    /// `15 min`, `1 h`, `1 d 2 h`.
    static func leadText(_ seconds: Int) -> String {
        var parts: [String] = []
        var rest = seconds
        for (unit, size) in [("d", 86_400), ("h", 3600), ("min", 60), ("s", 1)] where rest >= size {
            parts.append("\(rest / size) \(unit)")
            rest %= size
        }
        return parts.isEmpty ? "0 s" : parts.joined(separator: " ")
    }

    /// Dismiss now in an upcoming notice: skips the occurrence it announced,
    /// unless that has come already (then the next one is not the person's
    /// to skip from an old notice).
    func skip(_ id: UUID, occurrence: Date) {
        owner.assertCurrent()
        guard scheduler.now() < occurrence else {
            journal.send("Dismiss now for \(id.lowercasedText) came after its occurrence; nothing skipped", priority: .info)
            return
        }
        let ringer = ringer, zone = scheduler.systemZone, journal = journal
        scheduler.modify(id.uuidString, kind: .alarm, { item, now in
            guard case .alarm(var alarm) = item else { return }
            alarm.skipNext = true
            alarm.updated = now
            item = .alarm(alarm)
        }, completion: { [owner] result in
            switch result {
            case .success(let entry):
                guard case .alarm(let alarm) = entry.item else { return }
                owner.output.async { ringer.showSkipped(alarm, occurrence: occurrence, zone: zone) }
            case .failure(let error):
                journal.send("Dismiss now for \(id.lowercasedText) refused: \(error)", priority: .info)
            }
        })
    }
}

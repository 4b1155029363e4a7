// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmLocale
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization
import SystemCalls

/// Rings on a Linux desktop: a critical notification with Snooze and Dismiss
/// (or Done) actions, a looping sound, and the journal. Everything runs on the
/// output worker's queue, so D-Bus or a player never delays a firing; the
/// notification ids and players it keeps are confined to that queue.
public final class DesktopRinger: Ringer, Sendable {
    /// What the person chose in a notification; the daemon passes it on to the
    /// scheduler.
    public typealias CommandHandler = @Sendable (UUID, RingCommand) -> Void
    /// "Dismiss now" chosen in an upcoming notice: the alarm and the
    /// occurrence the notice was about.
    public typealias SkipHandler = @Sendable (UUID, Date) -> Void

    private let queue: DispatchQueue
    private let journal: Journal
    /// The system zone, for due times in notifications.
    private let zone: @Sendable () -> Zone
    private let settings: @Sendable () -> DaemonConfig
    private let environment: [String: String]
    /// The language notifications are written in: the session's, taken again
    /// on reload (``setLanguage(_:)``). Set on `queue`, which is also where
    /// the daemon calls gettext, so `setlocale` never races a lookup. In a
    /// `Mutex` rather than in `state`: tests ask for
    /// ``notification(for:snoozeCount:config:)`` off the queue.
    private let language = Mutex(GettextLocalization())
    private let onCommand: CommandHandler
    private let onSkip: SkipHandler
    static let retryInterval: TimeInterval = 2
    private let state: QueueBound<State>

    /// What the ringer keeps between calls, all on `queue`.
    private struct State {
        /// Made at first use, with its callbacks (``notifications``).
        var notifications: DesktopNotifications?
        /// Items ringing now, with what their notification is made from, so that it
        /// can be shown again on a notification server that comes back.
        var ringing: [UUID: (item: Item, snoozeCount: Int)] = [:]
        /// Ringing items that have no notification because there was no bus or no
        /// server; retried every `retryInterval` until shown or stopped.
        var unshown: Set<UUID> = []
        var retryScheduled = false
        var shown: [UUID: UInt32] = [:]
        var owners: [UInt32: (id: UUID, kind: ItemKind)] = [:]
        /// Notifications whose action was chosen and handed to the scheduler.
        var chosen: Set<UInt32> = []
        /// Sounds through the sound server, each in a sound process of its own
        /// (``SoundHelper``); external players (`loops`) only without a server
        /// or when `Player=` is set.
        var sounds: [UUID: SoundHelper] = [:]
        var loops: [UUID: SoundLoop] = [:]
        /// Whether falling back to the external player has been logged since the
        /// server last played (it is said once, not at every ring).
        var fallbackLogged = false
        /// Upcoming notices shown, by notification id: the alarm and occurrence.
        var upcoming: [UInt32: (id: UUID, occurrence: Date)] = [:]
        /// Counts previews, so that the stop scheduled for one leaves a newer alone.
        var previews = 0
    }

    /// The notification client, made at its first use (on `queue`).
    private var notifications: DesktopNotifications {
        if let notifications = state.notifications { return notifications }
        let notifications = DesktopNotifications(queue: queue) { [journal] in journal.send($0, priority: .warning) }
        notifications.onAction = { [weak self] id, key in self?.actionInvoked(id, key) }
        notifications.onClosed = { [weak self] id, reason in self?.closed(id, reason) }
        notifications.onConnectionLost = { [weak self] in self?.serverLost() }
        notifications.onServerChanged = { [weak self] present in
            guard let self else { return }
            // A server that takes the name shows what is still ringing at
            // once, not at the next retry.
            if present { retryUnshown() } else { serverLost() }
        }
        state.notifications = notifications
        return notifications
    }

    /// `queue` is the output worker's: every call but ``stopAll()`` arrives on it.
    public init(queue: DispatchQueue, journal: Journal, environment: [String: String], settings: @escaping @Sendable () -> DaemonConfig,
                zone: @escaping @Sendable () -> Zone = { .utc }, onSkip: @escaping SkipHandler = { _, _ in }, onCommand: @escaping CommandHandler) {
        self.zone = zone
        self.onSkip = onSkip
        self.queue = queue
        self.journal = journal
        self.environment = environment
        self.settings = settings
        self.onCommand = onCommand
        state = QueueBound(State(), queue: queue)
    }

    public func startRinging(_ item: Item, occurrence: Date, snoozeCount: Int, resumed: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        stop(item.id)
        // "Alarm at 07:30" has said what it had to.
        for (notification, notice) in state.upcoming where notice.id == item.id { closeNotice(notification) }
        let config = settings()
        state.ringing[item.id] = (item, snoozeCount)
        show(item.id, config: config)
        startSound(for: item, config: config)
    }

    public func stopRinging(_ id: UUID) {
        dispatchPrecondition(condition: .onQueue(queue))
        stop(id)
    }

    /// Full volume: on the sound server's stream at once; an external player
    /// starts again at full volume (it cannot be turned up while it plays).
    public func escalate(_ id: UUID) {
        dispatchPrecondition(condition: .onQueue(queue))
        if let sound = state.sounds[id] { return sound.escalate() }
        guard state.loops[id] != nil, let item = state.ringing[id]?.item else { return }
        state.loops.removeValue(forKey: id)?.stop()
        startSound(for: item, config: settings(), volume: SoundLevel.volumeRange.upperBound)
    }

    public func showMissed(_ item: Item, scheduled: Date, zone: Zone) {
        dispatchPrecondition(condition: .onQueue(queue))
        let l = language.withLock { $0 }
        let time: String
        if case .alarm(let alarm) = item { time = l.time(alarm.time) } else {
            time = l.time(of: zone.rules.localDateTime(at: scheduled.epochSecondsFloor))
        }
        _ = notifications.show(.init(summary: l.Lf("Missed: %1$s, %2$s", item.title, time), body: "", actions: [], urgency: 1,
                                     category: "x-alarmd.missed", resident: false, imagePath: nil))
    }

    // MARK: Before it rings

    /// The quiet notice before an alarm (`[Alarms] UpcomingNotice=`): "Alarm
    /// at 07:30 — Work", with Dismiss now, which skips that occurrence.
    public func showUpcoming(_ alarm: Alarm, occurrence: Date, zone: Zone) {
        dispatchPrecondition(condition: .onQueue(queue))
        let l = language.withLock { $0 }
        let time = clock(occurrence, alarm: alarm, zone: zone)
        let summary = alarm.label == Alarm.defaultLabel || alarm.label == l.L(Alarm.defaultLabel)
            ? l.Lf("Alarm at %s", time) : l.Lf("Alarm at %1$s — %2$s", time, alarm.label)
        guard let notification = notifications.show(.init(summary: summary, body: "", actions: [(Self.skipKey, l.L("Dismiss now"))], urgency: 0,
                                                          category: "x-alarmd.upcoming", resident: false, imagePath: nil)) else { return }
        state.upcoming[notification] = (alarm.id, occurrence)
    }

    /// Says that Dismiss now skipped the occurrence.
    public func showSkipped(_ alarm: Alarm, occurrence: Date, zone: Zone) {
        dispatchPrecondition(condition: .onQueue(queue))
        let l = language.withLock { $0 }
        let time = clock(occurrence, alarm: alarm, zone: zone)
        _ = notifications.show(.init(summary: l.Lf("%1$s at %2$s will not ring", alarm.label, time), body: l.L("Its next occurrence was dismissed in advance."), actions: [],
                                     urgency: 0, category: "x-alarmd.upcoming", resident: false, imagePath: nil))
    }

    /// The ten-minute check found reasons the alarm may not be heard: "Your
    /// 07:30 alarm may not be heard: the output is muted".
    public func showNotHeard(_ alarm: Alarm, occurrence: Date, report: AudibilityReport, zone: Zone) {
        dispatchPrecondition(condition: .onQueue(queue))
        let l = language.withLock { $0 }
        let warnings = Audibility.warnings(for: alarm.sound, report, in: l)
        guard let first = warnings.first else { return }
        let time = clock(occurrence, alarm: alarm, zone: zone)
        let body = warnings.dropFirst().map { l.Lf("Also: %s", $0) }.joined(separator: "\n")
        _ = notifications.show(.init(summary: l.Lf("Your %1$s alarm may not be heard: %2$s", time, first), body: DesktopNotifications.escapeMarkup(body), actions: [],
                                     urgency: 1, category: "x-alarmd.warning", resident: false, imagePath: nil))
    }

    /// A reminder's advance notice (`--before`): quiet, no sound, no actions —
    /// "Due at 14:00 (in 15 min): Call the dentist".
    public func showAdvance(_ reminder: Reminder, occurrence: Date, zone: Zone) {
        dispatchPrecondition(condition: .onQueue(queue))
        let language = language.withLock { $0 }
        let when = Self.dueLine(occurrence, allDay: reminder.allDay, zone: zone, now: Date(), language, today: N_("Due at %s"))
        _ = notifications.show(.init(summary: language.Lf("%1$s: %2$s", when, reminder.title), body: DesktopNotifications.escapeMarkup(reminder.notes), actions: [],
                                     urgency: 0, category: "x-alarmd.notice", resident: false, imagePath: reminder.imagePath))
    }

    /// The occurrence's time of day as the system zone shows it (a pinned
    /// alarm's differs from its own time).
    private func clock(_ occurrence: Date, alarm: Alarm, zone: Zone) -> String {
        let language = language.withLock { $0 }
        return alarm.timeZone == nil ? language.time(alarm.time) : language.time(of: zone.rules.localDateTime(at: occurrence.epochSecondsFloor))
    }

    static let skipKey = "skip"

    private func closeNotice(_ notification: UInt32) {
        state.upcoming[notification] = nil
        notifications.close(notification)
    }

    public func stopAll() {
        let groups = queue.sync {
            let groups = state.loops.values.compactMap(\.group) + state.sounds.values.map(\.group)
            for id in Set(state.ringing.keys).union(state.loops.keys) { stop(id) }
            return groups
        }
        // The daemon exits next, before the SIGKILL stop() scheduled; off the
        // queue, so the players that do exit are reaped meanwhile.
        SoundLoop.finish(groups: groups)
    }

    /// Shows `id`'s notification if it is ringing; without a bus or server, it
    /// is retried later. Whether it was shown.
    @discardableResult
    private func show(_ id: UUID, config: DaemonConfig) -> Bool {
        guard let (item, snoozeCount) = state.ringing[id] else { return false }
        guard let notification = notifications.show(notification(for: item, snoozeCount: snoozeCount, config: config)) else {
            state.unshown.insert(id)
            scheduleRetry()
            return false
        }
        state.unshown.remove(id)
        state.shown[id] = notification
        state.owners[notification] = (id, item.kind)
        return true
    }

    private func scheduleRetry() {
        guard !state.retryScheduled else { return }
        state.retryScheduled = true
        queue.asyncAfter(deadline: .now() + Self.retryInterval) { [weak self] in self?.retryUnshown() }
    }

    /// Shows what could not be shown before; stops at the first failure (the
    /// rest would fail the same way) and tries again later.
    private func retryUnshown() {
        state.retryScheduled = false
        let config = settings()
        for id in state.unshown {
            guard show(id, config: config) else { return }
        }
    }

    /// The old server's notifications went with it (or with the connection),
    /// and a new one numbers its own from 1 again: an id kept from before would
    /// close, or act on, another item's notification. Items still ringing are
    /// shown again once a server answers, so they can still be snoozed from the
    /// desktop; those whose action was already handed to the scheduler are
    /// about to stop.
    private func serverLost() {
        state.upcoming.removeAll()
        for (id, notification) in state.shown where !state.chosen.contains(notification) { state.unshown.insert(id) }
        state.shown.removeAll()
        state.owners.removeAll()
        state.chosen.removeAll()
        if !state.unshown.isEmpty { scheduleRetry() }
    }

    private func stop(_ id: UUID) {
        state.ringing[id] = nil
        state.unshown.remove(id)
        if let notification = state.shown.removeValue(forKey: id) {
            state.owners[notification] = nil
            state.chosen.remove(notification)
            notifications.close(notification)
        }
        state.loops.removeValue(forKey: id)?.stop()
        state.sounds.removeValue(forKey: id)?.stop()
    }

    /// `Due 14:00` (`today` says how a time today reads), `Due Fri
    /// 2026-12-04 14:00`, or `Due 2026-12-04` for an all-day reminder, in the
    /// system zone and the language's forms.
    static func dueLine(_ due: Date, allDay: Bool, zone: Zone, now: Date, _ l: some Localization, today: String = N_("Due %s")) -> String {
        let local = zone.rules.localDateTime(at: due.epochSecondsFloor)
        if allDay { return l.Lf("Due %s", l.date(of: local)) }
        let isToday = zone.rules.localDateTime(at: now.epochSecondsFloor).dateText == local.dateText
        return isToday ? l.Lf(today, l.time(of: local))
            : l.Lf("Due %s", l.Lf("%1$s %2$s", l.weekday(local.weekday), l.dateTime(local)))
    }

    /// Takes the session's language again from the environment (a reload that
    /// found new `LANG`/`LC_*` in the service manager) and returns the label a
    /// new alarm gets in it (鬧鐘 under zh_TW).
    public func setLanguage() -> String {
        dispatchPrecondition(condition: .onQueue(queue))
        let fresh = GettextLocalization()
        language.withLock { $0 = fresh }
        return defaultLabel()
    }

    /// The label a new alarm gets in the language notifications are in.
    public func defaultLabel() -> String {
        dispatchPrecondition(condition: .onQueue(queue))
        return language.withLock { $0 }.L(Alarm.defaultLabel)
    }

    /// The action key of a snooze choice: `snooze-10`.
    static let snoozeKeyPrefix = "snooze-"

    func notification(for item: Item, snoozeCount: Int, config: DaemonConfig) -> DesktopNotifications.Notification {
        let language = language.withLock { $0 }
        var actions: [(String, String)] = []
        let body: String
        let snooze: SnoozeSettings
        var image: String?
        switch item {
        case .alarm(let alarm):
            let time = language.time(alarm.time)
            body = alarm.isOneShot ? time : "\(time) · \(alarm.recurrence?.text(in: language) ?? alarm.days.text(in: language))"
            snooze = alarm.snooze
        case .reminder(let reminder) where reminder.isTimer:
            body = reminder.notes.isEmpty ? language.L("Time is up") : reminder.notes
            snooze = config.ringPolicy().reminderSnooze
        case .reminder(let reminder):
            // When it was due, then its notes: a reminder seen late says so.
            let due = reminder.due.map { Self.dueLine($0, allDay: reminder.allDay, zone: zone(), now: Date(), language) }
            body = [due, reminder.notes.isEmpty ? nil : reminder.notes].compactMap { $0 }.joined(separator: "\n")
            snooze = config.ringPolicy().reminderSnooze
            image = reminder.imagePath.flatMap { FileManager.default.isReadableFile(atPath: $0) ? $0 : nil }
        }
        if snooze.allowsSnooze(after: snoozeCount) {
            // The item's own length first (what `alarmctl snooze` does too),
            // then the configured choices; servers that show fewer actions
            // show the first ones.
            actions.append(("snooze", language.Lf("Snooze %d min", snooze.minutes)))
            for minutes in config.snoozeChoices where minutes != snooze.minutes {
                actions.append((Self.snoozeKeyPrefix + String(minutes), language.Lf("Snooze %d min", minutes)))
            }
        }
        if case .reminder = item, !item.isTimer { actions.append(("done", language.L("Done"))) } else { actions.append(("dismiss", language.L("Dismiss"))) }
        // The summary is plain text (servers escape it themselves); only the body is markup.
        return .init(summary: item.title, body: DesktopNotifications.escapeMarkup(body), actions: actions,
                     urgency: 2, category: item.kind == .alarm || item.isTimer ? "x-alarmd.alarm" : "x-alarmd.reminder", resident: true, imagePath: image)
    }

    /// `volume` (percent) instead of the item's own, at once (escalation).
    private func startSound(for item: Item, config: DaemonConfig, volume: Int? = nil) {
        let sound: Sound
        var level = (volume: config.soundVolume, fade: config.soundFade)
        switch item {
        case .alarm(let alarm):
            sound = alarm.sound
            level = (alarm.volume ?? level.volume, alarm.fadeSeconds.map(TimeInterval.init) ?? level.fade)
        case .reminder(let reminder): sound = reminder.sound ?? (reminder.isTimer ? config.alarmSound : config.reminderSound)
        }
        if let volume { level = (volume, 0) }
        let found: String?
        do throws(SoundTheme.Missing) { found = try SoundTheme(theme: config.soundTheme, environment: environment).file(for: sound) } catch {
            journal.send("\(EventText.subject(item)): \(error); ringing silently" + (error.themed ? " (see alarmctl sounds)" : ""), priority: .warning)
            return
        }
        guard let file = found else { return }
        if config.player.isEmpty, playThroughServer(item, file: file, volume: level.volume, fade: level.fade) { return }
        let subject = EventText.subject(item)
        guard let loop = externalPlayer(file, volume: level.volume, config: config, subject: subject, once: false) else { return }
        state.loops[item.id] = loop
        loop.start()
    }

    /// The external player for `file` at `volume` (where the player takes
    /// one; a player named in `Player=` is run as written), or `nil`, logged,
    /// when there is none.
    /// How long a preview's player has to fail before the preview counts as heard.
    static let previewCheck: TimeInterval = 1

    /// A loop playing `file` with the configured player (or the first of the
    /// usual ones found); each failure, and finding no player, is journaled
    /// and given to `failed`.
    private func externalPlayer(_ file: String, volume: Int, config: DaemonConfig, subject: String, once: Bool,
                                failed: (@Sendable (String) -> Void)? = nil) -> SoundLoop? {
        guard let player = config.player.isEmpty ? SoundLoop.defaultPlayer(path: environment["PATH"] ?? "/usr/bin:/bin") : config.player else {
            let reason = MessageFormat.fill(Audibility.noPlayer, ["pw-play, paplay, ogg123, aplay"])
            journal.send("\(subject): \(reason)", priority: .warning)
            failed?(reason)
            return nil
        }
        let volume = config.player.isEmpty ? SoundLoop.volumeArguments(player: player[0], percent: volume) : []
        return SoundLoop(argv: player + volume + [file], once: once, queue: queue) { [journal] reason in
            journal.send("\(subject): \(reason)", priority: .warning)
            failed?(reason)
        }
    }

    /// Plays `file` on a stream of alarmd's own; `false` when it cannot (no
    /// server, a file that does not decode), and the external player should.
    private func playThroughServer(_ item: Item, file: String, volume: Int, fade: TimeInterval) -> Bool {
        playThroughServer(file, id: item.id, name: item.title, role: item.kind == .alarm || item.isTimer ? "alarm" : "event",
                          volume: volume, fade: fade, once: false, subject: EventText.subject(item)) != nil
    }

    /// How long the sound plays once, when the server took it; `nil` when
    /// the external player should play it.
    private func playThroughServer(_ file: String, id: UUID, name: String, role: String, volume: Int, fade: TimeInterval,
                                   once: Bool, subject: String) -> Double? {
        let started = SoundHelper.play(file, name: name, role: role, volume: volume, fade: fade, once: once, queue: queue) { [journal] reason in
            journal.send("\(subject): \(reason)", priority: .warning)
        }
        switch started {
        case .playing(let sound, let seconds):
            state.sounds[id] = sound
            state.fallbackLogged = false
            return seconds
        case .cannotDecode(let reason):
            journal.send("\(subject): \(reason); trying the external player", priority: .warning)
            return nil
        case .noServer(let reason):
            if !state.fallbackLogged {
                state.fallbackLogged = true
                journal.send("Playing sounds through the external player: \(reason)", priority: .notice, fields: [("ALARMD_DETAIL", reason)])
            }
            return nil
        }
    }

    // MARK: Preview

    /// The stream or player of `alarmctl sounds --play`.
    private static let previewID = UUID()
    /// Plays `file` once at `volume` percent, as an alarm would ring it (the
    /// sound server with `media.role` alarm, else the external player), for
    /// `alarmctl sounds --play`. A newer preview replaces an older one; a
    /// preview ends with the sound, and after ``previewLimit`` at the latest.
    public func playOnce(_ file: String, volume: Int, heard: @escaping @Sendable (String?) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        stopPreview()
        state.previews += 1
        let preview = state.previews
        let config = settings()
        let subject = "Sound preview of \(file)"
        var seconds = Self.previewLimit
        if config.player.isEmpty, let played = playThroughServer(file, id: Self.previewID, name: "Sound preview", role: "alarm", volume: volume,
                                                                  fade: 0, once: true, subject: subject) {
            seconds = played
            heard(nil)
        } else {
            // Heard unless the player fails within its first second: a player
            // that cannot open the file or the output ends at once.
            let answered = QueueBound(false, queue: queue)
            let answer: @Sendable (String?) -> Void = { reason in
                guard !answered.value else { return }
                answered.value = true
                heard(reason)
            }
            guard let loop = externalPlayer(file, volume: volume, config: config, subject: subject, once: true, failed: answer) else { return }
            state.loops[Self.previewID] = loop
            loop.start()
            queue.asyncAfter(deadline: .now() + Self.previewCheck) { answer(nil) }
        }
        // The server's buffer, and a player's start-up, come on top of the sound.
        queue.asyncAfter(deadline: .now() + seconds + 0.5) { [weak self] in
            guard let self, state.previews == preview else { return }
            stopPreview()
        }
    }

    private func stopPreview() {
        state.loops.removeValue(forKey: Self.previewID)?.stop()
        state.sounds.removeValue(forKey: Self.previewID)?.stop()
    }

    /// The longest a preview plays: what the sound process decodes at most.
    static let previewLimit = Double(Sound.longestPlay)

    static func isPlayableFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && access(path, R_OK) == 0
    }

    private func actionInvoked(_ notification: UInt32, _ key: String) {
        // The notification is resident, so the server keeps it after an action
        // until we close it: stop() does, once the scheduler has acted on the
        // choice. A server that closes it itself right after an action (reason 2)
        // must not have that count as Dismiss as well, hence `chosen`.
        if let notice = state.upcoming[notification], key == Self.skipKey {
            closeNotice(notification)
            return onSkip(notice.id, notice.occurrence)
        }
        guard let owner = state.owners[notification] else { return }
        state.chosen.insert(notification)
        switch key {
        case "snooze": onCommand(owner.id, .snooze(minutes: nil))
        case _ where key.hasPrefix(Self.snoozeKeyPrefix):
            // Only lengths a snooze may have; a server cannot invent others.
            guard let minutes = Int(key.dropFirst(Self.snoozeKeyPrefix.count)), SnoozeSettings.minutesRange.contains(minutes) else { break }
            onCommand(owner.id, .snooze(minutes: minutes))
        case "dismiss": onCommand(owner.id, .dismiss)
        case "done": onCommand(owner.id, .complete)
        default: break
        }
    }

    /// Closed by the person (reason 2) counts as dismiss; closed because we
    /// asked (3) or expired (1) is bookkeeping only.
    private func closed(_ notification: UInt32, _ reason: UInt32) {
        state.upcoming[notification] = nil
        let choseAction = state.chosen.remove(notification) != nil
        guard let owner = state.owners.removeValue(forKey: notification) else { return }
        if state.shown[owner.id] == notification { state.shown[owner.id] = nil }
        if reason == 2 && !choseAction { onCommand(owner.id, .dismiss) }
    }
}

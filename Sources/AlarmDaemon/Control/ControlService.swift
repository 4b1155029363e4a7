// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmStore
import FoundationEssentials

/// The `io.alarmd` methods: parameters checked and turned into scheduler
/// requests, results turned into the interface's types. Every failure is a
/// typed Varlink error naming what was wrong.
public final class ControlService: Sendable {
    public let scheduler: Scheduler
    let defaults: @Sendable () -> DaemonConfig
    private let sounds: @Sendable () -> [Wire.SoundFile]
    /// How the machine is set to wake from suspend, for `Status`.
    private let wake: @Sendable () -> WakeStatus
    /// Whether the user lingers (logind), `nil` when unknown.
    private let linger: @Sendable () -> Bool?
    /// Plays a sound file once at a volume (percent), on the output worker.
    /// Plays a file at a volume; the completion gets why it is not heard, or `nil`.
    private let play: @Sendable (String, Int, @escaping @Sendable (String?) -> Void) -> Void
    /// What the last audibility check found; `nil` before the first.
    private let audibility: @Sendable () -> AudibilityReport?
    /// The CalDAV sync worker, `nil` when `[Sync]` is not configured or is off.
    private let sync: SyncSupervisor?
    /// Why sync is off though configured (a password file others can read).
    private let syncOff: (server: String, reason: String)?
    /// The label of an alarm added without one, in the session's language.
    private let defaultLabel: @Sendable () -> String

    public init(scheduler: Scheduler, defaults: @escaping @Sendable () -> DaemonConfig, sounds: @escaping @Sendable () -> [Wire.SoundFile],
                wake: @escaping @Sendable () -> WakeStatus = { WakeStatus(method: "none", next: nil, reason: "not set up") },
                linger: @escaping @Sendable () -> Bool? = { nil }, play: @escaping @Sendable (String, Int, @escaping @Sendable (String?) -> Void) -> Void = { _, _, heard in heard(nil) },
                audibility: @escaping @Sendable () -> AudibilityReport? = { nil }, sync: SyncSupervisor? = nil,
                syncOff: (server: String, reason: String)? = nil, defaultLabel: @escaping @Sendable () -> String = { Alarm.defaultLabel }) {
        self.defaultLabel = defaultLabel
        self.sync = sync
        self.syncOff = syncOff
        self.scheduler = scheduler
        self.defaults = defaults
        self.sounds = sounds
        self.wake = wake
        self.linger = linger
        self.play = play
        self.audibility = audibility
    }

    /// The zone instants are shown in: the system zone, read when needed.
    var zone: @Sendable () -> Zone { { [scheduler] in scheduler.systemZone } }

    /// The reply to one call, its method's typed `Reply` encoded. Reads
    /// answer at once; a change answers once it is durable (the scheduler's
    /// group commit), from the scheduler's queue.
    public typealias Reply = @Sendable (Result<JSONObject, VarlinkError>) -> Void

    func handle(_ method: String, _ parameters: Parameters, reply: @escaping Reply) {
        do throws(VarlinkError) {
            switch method {
            case ListAlarms.name: reply(.success(try listAlarms(parameters).json))
            case GetAlarm.name: reply(.success(try getAlarm(request(parameters)).json))
            case AddAlarm.name: try addAlarm(request(parameters), reply)
            case UpdateAlarm.name: try updateAlarm(request(parameters), reply)
            case RemoveAlarm.name: remove(try request(parameters) as IDRequest, kind: .alarm, reply)
            case SetAlarmEnabled.name: setAlarmEnabled(try request(parameters), reply)
            case SkipNext.name: skipNext(try request(parameters), reply)
            case Snooze.name: snooze(try request(parameters), reply)
            case Dismiss.name: dismiss(try request(parameters), reply)
            case AddReminder.name: try addReminder(request(parameters), reply)
            case ListReminders.name: reply(.success(listReminders(try request(parameters)).json))
            case GetReminder.name: reply(.success(try getReminder(request(parameters)).json))
            case UpdateReminder.name: try updateReminder(request(parameters), reply)
            case CompleteReminder.name: completeReminder(try request(parameters), reply)
            case MoveReminder.name: moveReminder(try request(parameters), reply)
            case RemoveReminder.name: remove(try request(parameters) as IDRequest, kind: .reminder, reply)
            case Upcoming.name: reply(.success(upcoming(try request(parameters)).json))
            case History.name: try history(request(parameters), reply)
            case Status.name: reply(.success(try status(parameters).json))
            case ListSounds.name: reply(.success(try listSounds(parameters).json))
            case PlaySound.name: try playSound(request(parameters), reply)
            case Export.name: reply(.success(try export(parameters).json))
            case Import.name: try importDocument(request(parameters), reply)
            case ExportCalendar.name: reply(.success(try exportCalendar(parameters).json))
            case ImportCalendar.name: try importCalendar(request(parameters), reply)
            case Sync.name: try syncNow(parameters, reply)
            default: throw .methodNotFound("\(InterfaceDefinition.name).\(method)")
            }
        } catch {
            reply(.failure(error))
        }
    }

    /// A call's parameters, read and checked as its method's `Request`.
    func request<R: WireRequest>(_ parameters: Parameters) throws(VarlinkError) -> R {
        try R(parameters)
    }

    /// A scheduler call whose refusal is answered as the interface names it.
    private func scheduled<T>(_ body: () throws(SchedulerError) -> T) throws(VarlinkError) -> T {
        do throws(SchedulerError) { return try body() } catch { throw Self.varlinkError(error) }
    }

    /// The scheduler's completion for a change: its result made the
    /// method's reply by `body`, or its error as the interface names it
    /// (through `renaming` first).
    func answer<T, R: WireReply>(_ reply: @escaping Reply, renaming: @escaping @Sendable (SchedulerError) -> SchedulerError = { $0 },
                                         _ body: @escaping @Sendable (T) -> R) -> Scheduler.Completion<T> {
        { result in
            switch result {
            case .success(let value): reply(.success(body(value).json))
            case .failure(let error): reply(.failure(Self.varlinkError(renaming(error))))
            }
        }
    }

    /// A scheduler's refusal as the `io.alarmd` error that names it.
    static func varlinkError(_ error: SchedulerError) -> VarlinkError {
        let named: InterfaceError = switch error {
        case .noSuchItem(let id): .noSuchItem(id: id, message: error.description)
        case .badID: .invalidParameter("id", "must be an id, a prefix of at least 4 of its hexadecimal digits, or a name")
        case .ambiguous(let id, let matches): .ambiguousId(id: id, matches: matches.map(\.id), titles: matches.map(\.title), message: error.description)
        // Each entry is "id title": the id alone, which is 36 characters.
        case .ringingCount(let ringing, _): .notRinging(message: error.description, ringing: ringing.map { String($0.prefix(36)) })
        case .invalid(let validation), .store(.invalid(let validation)): .invalid(validation)
        case .ring(.notRinging): .notRinging(message: error.description, ringing: [])
        case .ring(.snoozeNotAllowed(let id, _, _)): .snoozeNotAllowed(id: id.lowercasedText, message: error.description)
        case .ring(.notAReminder): .invalidParameter("id", "names an alarm; only reminders can be completed")
        case .store(let storeError): .storeFailure(message: "could not save, nothing was changed: \(storeError)")
        }
        return named.varlinkError
    }

    // MARK: - Alarms

    /// An entry's alarm in its wire form, with its live state; an entry
    /// the scheduler found by kind `.alarm` is one.
    private func alarmObject(_ entry: Scheduler.Entry) -> JSONObject {
        guard case .alarm(let alarm) = entry.item else { return [:] }
        return Wire.Alarm.object(alarm, state: entry.state, next: entry.next, skipping: entry.skipping, zone: zone())
    }

    private func reminderObject(_ entry: Scheduler.Entry) -> JSONObject {
        guard case .reminder(let reminder) = entry.item else { return [:] }
        return Wire.Reminder.object(reminder, state: entry.state, next: entry.next, zone: zone())
    }

    private func alarmReply(_ entry: Scheduler.Entry) -> AlarmReply { AlarmReply(alarm: alarmObject(entry)) }
    private func reminderReply(_ entry: Scheduler.Entry) -> ReminderReply { ReminderReply(reminder: reminderObject(entry)) }
    private func remindersReply(_ entries: [Scheduler.Entry]) -> RemindersReply { RemindersReply(reminders: entries.map(reminderObject)) }

    private func listAlarms(_ parameters: Parameters) throws(VarlinkError) -> ListAlarms.Reply {
        let _: ListAlarms.Request = try request(parameters)
        let alarms = scheduler.snapshot().compactMap { entry -> (Alarm, Scheduler.Entry)? in
            if case .alarm(let alarm) = entry.item { return (alarm, entry) }
            return nil
        }
        // Like a phone's alarm list: by time of day, then label.
        let sorted = alarms.sorted { ($0.0.time, $0.0.label, $0.0.id.uuidString) < ($1.0.time, $1.0.label, $1.0.id.uuidString) }
        return ListAlarms.Reply(alarms: sorted.map { alarmObject($0.1) })
    }

    private func getAlarm(_ request: GetAlarm.Request) throws(VarlinkError) -> GetAlarm.Reply {
        let entry = try scheduled { () throws(SchedulerError) in try scheduler.lookup(request.id, kind: .alarm) }
        guard case .alarm(let alarm) = entry.item else { return GetAlarm.Reply(alarm: [:], warnings: []) }
        // An alarm that is off will not ring: nothing to warn about.
        let warnings = alarm.enabled ? Forewarnings.warnings(for: alarm, audibility()) : []
        return GetAlarm.Reply(alarm: alarmObject(entry), warnings: warnings)
    }

    private func addAlarm(_ request: AddAlarm.Request, _ reply: @escaping Reply) throws(VarlinkError) {
        let fields = request.fields
        try checkSound(fields.sound)
        guard let time = fields.time else {
            throw .invalid(ValidationError(field: AddAlarm.Request.alarmFields.name + "." + AlarmFields.time.name, requirement: "is required", value: "nothing"))
        }
        let config = defaults()
        var alarm = Alarm(time: time, label: defaultLabel(), sound: config.alarmSound, snooze: SnoozeSettings(enabled: true, minutes: config.snoozeMinutes, maxCount: 0),
                          ringSeconds: config.ringSeconds, created: scheduler.now())
        fields.apply(to: &alarm)
        if !request.force, let twin = scheduler.twin(of: alarm) {
            let id = twin.id.lowercasedText
            throw InterfaceError.duplicateAlarm(
                id: id, message: "alarm \(id) \(ValidationError.quoted(twin.label)) rings at \(twin.time) just so; nothing was added (force adds another)"
            ).varlinkError
        }
        scheduler.add(.alarm(alarm), completion: answer(reply, renaming: Self.namingFields) { self.alarmReply($0) })
    }

    private func updateAlarm(_ request: UpdateAlarm.Request, _ reply: @escaping Reply) throws(VarlinkError) {
        try checkSound(request.fields.sound)
        let zone = zone
        modifyAlarm(request.id, reply) { alarm, now in
            request.fields.apply(to: &alarm)
            // Pausing over the skipped occurrence spends the skip; a skip set
            // while paused is for the first occurrence after, and stays.
            if request.fields.pausedUntil != nil { alarm.spendSkipCoveredByPause(now: now, systemZone: zone()) }
        }
    }

    /// Changes one alarm in a single step on the scheduler (see
    /// ``Scheduler/modify(_:kind:_:completion:)``), stamping `updated` with the scheduler's clock.
    private func modifyAlarm(_ id: String, _ reply: @escaping Reply, _ change: @escaping @Sendable (inout Alarm, Date) -> Void) {
        scheduler.modify(id, kind: .alarm, { item, now in
            guard case .alarm(var alarm) = item else { return }
            change(&alarm, now)
            alarm.updated = now
            item = .alarm(alarm)
        }, completion: answer(reply, renaming: Self.namingFields) { self.alarmReply($0) })
    }

    /// Validation errors of a built alarm name the wire field (`fields.label`).
    private static func namingFields(_ error: SchedulerError) -> SchedulerError {
        guard case .invalid(let validation) = error else { return error }
        return .invalid(ValidationError(field: AddAlarm.Request.alarmFields.name + "." + validation.field, requirement: validation.requirement, value: validation.value))
    }

    private func setAlarmEnabled(_ request: SetAlarmEnabled.Request, _ reply: @escaping Reply) {
        modifyAlarm(request.id, reply) { alarm, _ in alarm.enabled = request.enabled }
    }

    private func skipNext(_ request: SkipNext.Request, _ reply: @escaping Reply) {
        modifyAlarm(request.id, reply) { alarm, _ in alarm.skipNext = request.skip }
    }

    private func remove(_ request: IDRequest, kind: ItemKind, _ reply: @escaping Reply) {
        scheduler.remove(request.id, kind: kind, completion: answer(reply) { ItemNamed($0) })
    }

    // MARK: - Ringing

    private func snooze(_ request: Snooze.Request, _ reply: @escaping Reply) {
        scheduler.command(.snooze(minutes: request.minutes), id: request.id, completion: answer(reply) { entry in
            var until: String?
            if case .snoozed(let date) = entry.state.phase { until = WireTime.string(date, in: self.zone()) }
            return Snooze.Reply(id: entry.item.id.lowercasedText, title: entry.item.title, until: until, snoozeCount: entry.state.snoozeCount)
        })
    }

    private func dismiss(_ request: Dismiss.Request, _ reply: @escaping Reply) {
        scheduler.command(.dismiss, id: request.id, completion: answer(reply) { ItemNamed($0.item) })
    }

    // MARK: - Reminders

    /// A `due` member: `.none` when absent, `.some(nil)` for "" (clear it).
    private func due(_ changes: ReminderChanges) throws(VarlinkError) -> Date?? {
        guard let text = changes.due else { return .none }
        if text.isEmpty { return .some(nil) }
        return .some(try WireTime.parse(text, parameter: ReminderChanges.due.name, zone: zone()))
    }

    /// An `on` member: the day at `[Reminders] AllDayAt=` in the system zone.
    private func allDayDue(_ changes: ReminderChanges) throws(VarlinkError) -> Date? {
        guard let text = changes.on else { return nil }
        guard let day = CivilTime.dayNumber(isoDate: text) else {
            throw .invalidParameter(ReminderChanges.on.name, "must be a date YYYY-MM-DD, got \(ValidationError.quoted(text))")
        }
        let wall = day * CivilTime.secondsPerDay + Int64(defaults().allDayAt.secondsIntoDay)
        return Date(epochSeconds: zone().rules.instant(forWall: wall))
    }

    private func addReminder(_ request: AddReminder.Request, _ reply: @escaping Reply) throws(VarlinkError) {
        let changes = request.changes
        let allDay = try allDayDue(changes)
        let given = try due(changes) ?? nil
        let due = allDay ?? given
        let imagePath = changes.imagePath?.isEmpty == true ? nil : changes.imagePath
        try checkFile(imagePath, parameter: ReminderChanges.imagePath.name)
        try checkSound(changes.sound ?? nil, field: ReminderChanges.sound.name)
        let reminder = Reminder(title: changes.title ?? "", notes: changes.notes ?? "", due: due, imagePath: imagePath, command: changes.command ?? [],
                                allDay: allDay != nil, recurrence: changes.rule ?? nil, before: changes.before ?? [], sound: changes.sound ?? nil,
                                isTimer: changes.timer ?? false, created: scheduler.now())
        var added = reminder
        added.timerLeft = changes.timerLeft ?? nil
        scheduler.add(.reminder(added), completion: answer(reply) { self.reminderReply($0) })
    }

    private func getReminder(_ request: GetReminder.Request) throws(VarlinkError) -> ReminderReply {
        reminderReply(try scheduled { () throws(SchedulerError) in try scheduler.lookup(request.id, kind: .reminder) })
    }

    private func listReminders(_ request: ListReminders.Request) -> RemindersReply {
        let entries = scheduler.reminders().filter { entry in
            if request.all { return true }
            if case .reminder(let reminder) = entry.item { return !reminder.done }
            return false
        }
        return remindersReply(entries)
    }

    private func updateReminder(_ request: UpdateReminder.Request, _ reply: @escaping Reply) throws(VarlinkError) {
        let changes = request.changes
        let imagePath = changes.imagePath.map { $0.isEmpty ? nil : $0 }
        if let imagePath { try checkFile(imagePath, parameter: ReminderChanges.imagePath.name) }
        let due = try due(changes)
        let allDay = try allDayDue(changes)
        try checkSound(changes.sound ?? nil, field: ReminderChanges.sound.name)
        scheduler.modify(request.id, kind: .reminder, { item, now in
            guard case .reminder(var reminder) = item else { return }
            if let title = changes.title { reminder.title = title }
            if let notes = changes.notes { reminder.notes = notes }
            if let imagePath { reminder.imagePath = imagePath }
            if let command = changes.command { reminder.command = command }
            if let due {
                reminder.due = due
                reminder.allDay = false
            }
            if let allDay {
                reminder.due = allDay
                reminder.allDay = true
            }
            if let rule = changes.rule { reminder.recurrence = rule }
            if let before = changes.before { reminder.before = before }
            if let sound = changes.sound { reminder.sound = sound }
            if let timer = changes.timer { reminder.isTimer = timer }
            if let left = changes.timerLeft { reminder.timerLeft = left }
            reminder.updated = now
            item = .reminder(reminder)
        }, completion: answer(reply) { self.reminderReply($0) })
    }

    private func completeReminder(_ request: CompleteReminder.Request, _ reply: @escaping Reply) {
        scheduler.setDone(request.id, done: request.done, completion: answer(reply) { self.reminderReply($0) })
    }

    private func moveReminder(_ request: MoveReminder.Request, _ reply: @escaping Reply) {
        scheduler.moveReminder(request.id, to: request.position, completion: answer(reply) { self.remindersReply($0) })
    }

    // MARK: - Daemon

    /// What a `Watch` subscriber receives for `event`.
    static func watchReply(_ event: DaemonEvent, zone: Zone) -> JSONObject {
        Watch.Reply(event: eventJSON(event, zone: zone).objectValue ?? [:]).json
    }

    static func eventJSON(_ event: DaemonEvent, zone: Zone) -> JSONValue {
        Wire.Event.json(kind: event.kind.rawValue, item: event.item, scheduled: event.scheduled, actual: event.actual,
                        snoozeCount: event.snoozeCount, detail: event.detail, zone: zone)
    }

    private func history(_ request: History.Request, _ reply: @escaping Reply) throws(VarlinkError) {
        let zone = zone()
        let since = try request.since.map { text throws(VarlinkError) in try WireTime.parse(text, parameter: History.Request.since.name, zone: zone) }
        scheduler.history(id: request.id, since: since, kinds: Set(request.kinds), limit: request.limit ?? History.Request.defaultLimit,
                          completion: answer(reply) { events in
            History.Reply(events: events.map { Wire.HistoryEntry.object($0.event, item: $0.item, zone: zone) })
        })
    }

    private func upcoming(_ request: Upcoming.Request) -> Upcoming.Reply {
        let zone = zone()
        let firings = scheduler.upcoming(request.count ?? Upcoming.Request.defaultCount)
        return Upcoming.Reply(firings: firings.map { Wire.Firing($0.item, at: $0.at, zone: zone) })
    }

    private func status(_ parameters: Parameters) throws(VarlinkError) -> Status.Reply {
        let _: Status.Request = try request(parameters)
        let summary = scheduler.summary()
        let wake = wake()
        return Status.Reply(
            version: AlarmdVersion.string,
            alarms: summary.alarms,
            reminders: summary.reminders,
            timers: summary.timers,
            ringing: summary.ringing.map { $0.lowercasedText },
            next: summary.next.map { Wire.Firing($0.item, at: $0.at, zone: summary.zone) },
            timeZone: summary.zone.identifier,
            wake: Wire.Wake(method: wake.method, next: wake.next.map { WireTime.string($0, in: summary.zone) }, reason: wake.reason),
            linger: linger(),
            warnings: audibility().map { Audibility.machineWarnings($0) } ?? [],
            sync: sync.map { Self.syncState($0.report, zone: summary.zone) }
                ?? syncOff.map { Wire.SyncState(server: $0.server, lastSync: nil, error: "sync is off: " + $0.reason, pending: 0) }
        )
    }

    static func syncState(_ report: SyncReport, zone: Zone) -> Wire.SyncState {
        Wire.SyncState(server: report.server, lastSync: report.lastRound.map { WireTime.string($0, in: zone) }, error: report.error, pending: report.pending)
    }

    /// A round in the sync process; the reply comes once it is done.
    private func syncNow(_ parameters: Parameters, _ reply: @escaping Reply) throws(VarlinkError) {
        let _: Sync.Request = try request(parameters)
        guard let sync else {
            let state = syncOff.map { Wire.SyncState(server: $0.server, lastSync: nil, error: "sync is off: " + $0.reason, pending: 0) }
                ?? Wire.SyncState(server: "", lastSync: nil, error: N_("sync is not configured: set [Sync] URL= (and User=, PasswordFile=) in alarmd.conf"), pending: 0)
            return reply(.success(Sync.Reply(state: state).json))
        }
        let zone = zone()
        sync.syncNow { report in
            reply(.success(Sync.Reply(state: Self.syncState(report, zone: zone), received: report.pulled, sent: report.pushed, removedHere: report.deletedHere,
                                      removedThere: report.deletedThere, conflicts: report.conflicts).json))
        }
    }

    private func listSounds(_ parameters: Parameters) throws(VarlinkError) -> ListSounds.Reply {
        let _: ListSounds.Request = try request(parameters)
        // The sound files the theme found.
        return ListSounds.Reply(sounds: sounds())
    }

    /// Checks the sound, plays it, and replies once it plays or has failed to.
    private func playSound(_ request: PlaySound.Request, _ reply: @escaping Reply) throws(VarlinkError) {
        let parameter = PlaySound.Request.sound.name
        let path: String
        switch request.sound {
        case .none:
            throw .invalidParameter(parameter, "must be a sound to play (a theme name or a file path), got \"none\"")
        case .themed(let name):
            guard let found = sounds().first(where: { $0.name == name }) else {
                throw .invalidParameter(parameter, "must be a sound this machine has, got \(ValidationError.quoted(name)); run 'alarmctl sounds' for the list, or give a file path")
            }
            path = found.path
        case .file(let file):
            try checkFile(file, parameter: parameter)
            path = file
        }
        let volume = request.volume ?? defaults().soundVolume
        let owner = scheduler.owner
        play(path, volume) { notHeard in
            owner.post { reply(.success(PlaySound.Reply(path: path, volume: volume, notHeard: notHeard).json)) }
        }
    }

    private static let soundField = AddAlarm.Request.alarmFields.name + "." + AlarmFields.sound.name

    /// A sound given by a client must be playable here: a theme name that some
    /// installed theme has, or a regular readable file.
    private func checkSound(_ sound: Sound?, field: String = ControlService.soundField) throws(VarlinkError) {
        switch sound {
        case .themed(let name)?:
            guard sounds().contains(where: { $0.name == name }) else {
                throw .invalidParameter(field, "must be a sound this machine has, got \(ValidationError.quoted(name)); run 'alarmctl sounds' for the list, or give a file path or none")
            }
        case .file(let path)?:
            try checkFile(path, parameter: field)
        default:
            break
        }
    }

    /// A path the daemon will hand to a player or the notification server must
    /// be a regular file it can read, not a directory, device or FIFO.
    private func checkFile(_ path: String?, parameter: String) throws(VarlinkError) {
        guard let path else { return }
        guard path.hasPrefix("/"), DesktopRinger.isPlayableFile(path) else {
            throw .invalidParameter(parameter, "must be an absolute path to a readable regular file, got \(ValidationError.quoted(path))")
        }
    }
}

import AlarmCore
import AlarmProtocol
import AlarmStore
import Foundation

/// The `io.alarmd` methods: parameters checked and turned into scheduler
/// requests, results turned into the interface's types. Every failure is a
/// typed Varlink error naming what was wrong.
public final class ControlService: Sendable {
    public let scheduler: Scheduler
    private let defaults: @Sendable () -> DaemonConfig
    private let sounds: @Sendable () -> [SoundFile]

    /// A sound the daemon can play, as `ListSounds` reports it.
    public struct SoundFile: Sendable {
        public let name: String
        public let theme: String
        public let path: String

        public init(name: String, theme: String, path: String) {
            self.name = name
            self.theme = theme
            self.path = path
        }
    }

    public init(scheduler: Scheduler, defaults: @escaping @Sendable () -> DaemonConfig, sounds: @escaping @Sendable () -> [SoundFile]) {
        self.scheduler = scheduler
        self.defaults = defaults
        self.sounds = sounds
    }

    /// The zone instants are shown in: the system zone, read when needed.
    var zone: @Sendable () -> Zone { { [scheduler] in scheduler.systemZone } }

    /// The reply to one call. Reads answer at once; a change answers once it
    /// is durable (the scheduler's group commit), from the scheduler's queue.
    public typealias Reply = @Sendable (Result<JSONObject, VarlinkError>) -> Void

    func handle(_ method: String, _ parameters: Parameters, reply: @escaping Reply) {
        do throws(SchedulerError) {
            switch method {
            case "ListAlarms": reply(.success(try listAlarms(parameters)))
            case "GetAlarm": reply(.success(try getAlarm(parameters)))
            case "AddAlarm": try addAlarm(parameters, reply)
            case "UpdateAlarm": try updateAlarm(parameters, reply)
            case "RemoveAlarm": try remove(parameters, kind: .alarm, reply)
            case "SetAlarmEnabled": try setAlarmEnabled(parameters, reply)
            case "SkipNext": try skipNext(parameters, reply)
            case "Snooze": try snooze(parameters, reply)
            case "Dismiss": try dismiss(parameters, reply)
            case "AddReminder": try addReminder(parameters, reply)
            case "ListReminders": reply(.success(try listReminders(parameters)))
            case "UpdateReminder": try updateReminder(parameters, reply)
            case "CompleteReminder": try completeReminder(parameters, reply)
            case "MoveReminder": reply(.success(try moveReminder(parameters)))
            case "RemoveReminder": try remove(parameters, kind: .reminder, reply)
            case "Upcoming": reply(.success(try upcoming(parameters)))
            case "Status": reply(.success(try status(parameters)))
            case "ListSounds": reply(.success(try listSounds(parameters)))
            case "Export": reply(.success(try export(parameters)))
            case "Import": reply(.success(try importDocument(parameters)))
            default: throw SchedulerError.wire(.methodNotFound("\(InterfaceDefinition.name).\(method)"))
            }
        } catch {
            reply(.failure(Self.varlinkError(error)))
        }
    }

    /// The scheduler's completion for a change: its result through `body`,
    /// or its error as the interface names it (through `renaming` first).
    private func answer<T>(_ reply: @escaping Reply, renaming: @escaping @Sendable (SchedulerError) -> SchedulerError = { $0 },
                           _ body: @escaping @Sendable (T) -> JSONObject) -> Scheduler.Completion<T> {
        { result in
            switch result {
            case .success(let value): reply(.success(body(value)))
            case .failure(let error): reply(.failure(Self.varlinkError(renaming(error))))
            }
        }
    }

    static func varlinkError(_ error: SchedulerError) -> VarlinkError {
        switch error {
        case .noSuchItem(let id): return VarlinkError(name: "io.alarmd.NoSuchItem", parameters: ["id": .string(id), "message": .string(error.description)])
        case .badID: return .invalidParameter("id", "must be a UUID or a prefix of at least 4 hexadecimal digits")
        case .ambiguous(let id, let matches):
            return VarlinkError(name: "io.alarmd.AmbiguousId", parameters: ["id": .string(id), "matches": .array(matches.map { .string($0) }), "message": .string(error.description)])
        case .ringingCount(let ringing):
            return VarlinkError(name: "io.alarmd.NotRinging", parameters: ["message": .string(error.description), "ringing": .array(ringing.map { .string(String($0.prefix(36))) })])
        case .invalid(let validation): return .invalid(validation)
        case .ring(.notRinging):
            return VarlinkError(name: "io.alarmd.NotRinging", parameters: ["message": .string(error.description), "ringing": []])
        case .ring(.snoozeNotAllowed(let id, _, _)):
            return VarlinkError(name: "io.alarmd.SnoozeNotAllowed", parameters: ["id": .string(id.uuidString.lowercased()), "message": .string(error.description)])
        case .ring(.notAReminder):
            return .invalidParameter("id", "names an alarm; only reminders can be completed")
        case .store(.invalid(let validation)): return .invalid(validation)
        case .wire(let wire): return wire
        case .store(let storeError):
            return VarlinkError(name: "io.alarmd.StoreFailure", parameters: ["message": .string("could not save, nothing was changed: \(storeError)")])
        }
    }

    // MARK: - Alarms

    private func alarmJSON(_ entry: Scheduler.Entry) -> JSONValue {
        guard case .alarm(let alarm) = entry.item else { return .null }
        return ItemWire.json(alarm, state: entry.state, next: entry.next, zone: zone())
    }

    private func reminderJSON(_ entry: Scheduler.Entry) -> JSONValue {
        guard case .reminder(let reminder) = entry.item else { return .null }
        return ItemWire.json(reminder, state: entry.state, next: entry.next, zone: zone())
    }

    private func listAlarms(_ parameters: Parameters) throws(SchedulerError) -> JSONObject {
        try check { () throws(VarlinkError) in try parameters.allowOnly([]) }
        let alarms = scheduler.snapshot().compactMap { entry -> (Alarm, Scheduler.Entry)? in
            if case .alarm(let alarm) = entry.item { return (alarm, entry) }
            return nil
        }
        // Like a phone's alarm list: by time of day, then label.
        let sorted = alarms.sorted { ($0.0.time, $0.0.label, $0.0.id.uuidString) < ($1.0.time, $1.0.label, $1.0.id.uuidString) }
        return ["alarms": .array(sorted.map { alarmJSON($0.1) })]
    }

    private func id(_ parameters: Parameters) throws(SchedulerError) -> String {
        try check { () throws(VarlinkError) in try parameters.requiredString("id") }
    }

    private func getAlarm(_ parameters: Parameters) throws(SchedulerError) -> JSONObject {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["id"]) }
        return ["alarm": alarmJSON(try scheduler.lookup(try id(parameters), kind: .alarm))]
    }

    private func fields(_ parameters: Parameters) throws(SchedulerError) -> AlarmFields {
        try check { () throws(VarlinkError) in
            guard let fields = try parameters.object("fields") else { return AlarmFields() }
            return try AlarmFields.parse(fields)
        }
    }

    private func addAlarm(_ parameters: Parameters, _ reply: @escaping Reply) throws(SchedulerError) {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["fields"]) }
        let fields = try fields(parameters)
        try checkSound(fields.sound)
        guard let time = fields.time else {
            throw .invalid(ValidationError(field: "fields.time", requirement: "is required", value: "nothing"))
        }
        let config = defaults()
        var alarm = Alarm(time: time, sound: config.alarmSound, snooze: SnoozeSettings(enabled: true, minutes: config.snoozeMinutes, maxCount: 0),
                          ringSeconds: config.ringSeconds, created: scheduler.now())
        fields.apply(to: &alarm)
        scheduler.add(.alarm(alarm), completion: answer(reply, renaming: Self.namingFields) { ["alarm": self.alarmJSON($0)] })
    }

    private func updateAlarm(_ parameters: Parameters, _ reply: @escaping Reply) throws(SchedulerError) {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["id", "fields"]) }
        let fields = try fields(parameters)
        try checkSound(fields.sound)
        modifyAlarm(try id(parameters), reply) { fields.apply(to: &$0) }
    }

    /// Changes one alarm in a single step on the scheduler (see
    /// ``Scheduler/modify(_:kind:_:completion:)``), stamping `updated` with the scheduler's clock.
    private func modifyAlarm(_ id: String, _ reply: @escaping Reply, _ change: @escaping @Sendable (inout Alarm) -> Void) {
        scheduler.modify(id, kind: .alarm, { item, now in
            guard case .alarm(var alarm) = item else { return }
            change(&alarm)
            alarm.updated = now
            item = .alarm(alarm)
        }, completion: answer(reply, renaming: Self.namingFields) { ["alarm": self.alarmJSON($0)] })
    }

    /// Validation errors of a built alarm name the wire field (`fields.label`).
    private static func namingFields(_ error: SchedulerError) -> SchedulerError {
        guard case .invalid(let validation) = error else { return error }
        return .invalid(ValidationError(field: "fields." + validation.field, requirement: validation.requirement, value: validation.value))
    }

    private func setAlarmEnabled(_ parameters: Parameters, _ reply: @escaping Reply) throws(SchedulerError) {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["id", "enabled"]) }
        let enabled = try check { () throws(VarlinkError) in
            guard let value = try parameters.bool("enabled") else { throw .invalidParameter("enabled", "is required") }
            return value
        }
        modifyAlarm(try id(parameters), reply) { $0.enabled = enabled }
    }

    private func skipNext(_ parameters: Parameters, _ reply: @escaping Reply) throws(SchedulerError) {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["id", "skip"]) }
        let skip = try check { () throws(VarlinkError) in try parameters.bool("skip") ?? true }
        modifyAlarm(try id(parameters), reply) { $0.skipNext = skip }
    }

    private func remove(_ parameters: Parameters, kind: ItemKind, _ reply: @escaping Reply) throws(SchedulerError) {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["id"]) }
        scheduler.remove(try id(parameters), kind: kind, completion: answer(reply) { [:] })
    }

    // MARK: - Ringing

    private func snooze(_ parameters: Parameters, _ reply: @escaping Reply) throws(SchedulerError) {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["id", "minutes"]) }
        let (id, minutes) = try check { () throws(VarlinkError) in
            (try parameters.string("id"), try parameters.int("minutes", in: SnoozeSettings.minutesRange))
        }
        scheduler.command(.snooze(minutes: minutes), id: id, completion: answer(reply) { entry in
            var until = JSONValue.null
            if case .snoozed(let date) = entry.state.phase { until = .string(WireTime.string(date, in: self.zone())) }
            return ["id": .string(entry.item.id.uuidString.lowercased()), "phase": "snoozed", "until": until, "snoozeCount": JSONValue(entry.state.snoozeCount)]
        })
    }

    private func dismiss(_ parameters: Parameters, _ reply: @escaping Reply) throws(SchedulerError) {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["id"]) }
        let id = try check { () throws(VarlinkError) in try parameters.string("id") }
        scheduler.command(.dismiss, id: id, completion: answer(reply) { ["id": .string($0.item.id.uuidString.lowercased())] })
    }

    // MARK: - Reminders

    private func instant(_ parameters: Parameters, _ name: String) throws(SchedulerError) -> Date?? {
        try check { () throws(VarlinkError) -> Date?? in
            guard let text = try parameters.string(name) else { return .none }
            if text.isEmpty { return .some(nil) }
            return .some(try WireTime.parse(text, parameter: name, zone: zone()))
        }
    }

    private func addReminder(_ parameters: Parameters, _ reply: @escaping Reply) throws(SchedulerError) {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["title", "notes", "due", "imagePath", "command"]) }
        let (title, notes, image, command) = try check { () throws(VarlinkError) in
            (try parameters.requiredString("title"), try parameters.string("notes") ?? "", try parameters.string("imagePath"), try parameters.stringArray("command"))
        }
        let due = try instant(parameters, "due") ?? nil
        let imagePath = image?.isEmpty == true ? nil : image
        try checkFile(imagePath, parameter: "imagePath")
        let reminder = Reminder(title: title, notes: notes, due: due, imagePath: imagePath, command: command ?? [], created: scheduler.now())
        scheduler.add(.reminder(reminder), completion: answer(reply) { ["reminder": self.reminderJSON($0)] })
    }

    private func listReminders(_ parameters: Parameters) throws(SchedulerError) -> JSONObject {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["all"]) }
        let all = try check { () throws(VarlinkError) in try parameters.bool("all") ?? false }
        let entries = scheduler.reminders().filter { entry in
            if all { return true }
            if case .reminder(let reminder) = entry.item { return !reminder.done }
            return false
        }
        return ["reminders": .array(entries.map(reminderJSON))]
    }

    private func updateReminder(_ parameters: Parameters, _ reply: @escaping Reply) throws(SchedulerError) {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["id", "title", "notes", "due", "imagePath", "command"]) }
        let id = try id(parameters)
        let (title, notes, image, command) = try check { () throws(VarlinkError) in
            (try parameters.string("title"), try parameters.string("notes"), try parameters.string("imagePath"), try parameters.stringArray("command"))
        }
        let imagePath = image.map { $0.isEmpty ? nil : $0 }
        if let imagePath { try checkFile(imagePath, parameter: "imagePath") }
        let due = try instant(parameters, "due")
        scheduler.modify(id, kind: .reminder, { item, now in
            guard case .reminder(var reminder) = item else { return }
            if let title { reminder.title = title }
            if let notes { reminder.notes = notes }
            if let imagePath { reminder.imagePath = imagePath }
            if let command { reminder.command = command }
            if let due { reminder.due = due }
            reminder.updated = now
            item = .reminder(reminder)
        }, completion: answer(reply) { ["reminder": self.reminderJSON($0)] })
    }

    private func completeReminder(_ parameters: Parameters, _ reply: @escaping Reply) throws(SchedulerError) {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["id", "done"]) }
        let done = try check { () throws(VarlinkError) in try parameters.bool("done") ?? true }
        scheduler.setDone(try id(parameters), done: done, completion: answer(reply) { ["reminder": self.reminderJSON($0)] })
    }

    private func moveReminder(_ parameters: Parameters) throws(SchedulerError) -> JSONObject {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["id", "position"]) }
        let position = try check { () throws(VarlinkError) in
            guard let value = try parameters.int("position", in: 0...Int(Int32.max)) else { throw .invalidParameter("position", "is required") }
            return value
        }
        let entries = try scheduler.moveReminder(try id(parameters), to: position)
        return ["reminders": .array(entries.map(reminderJSON))]
    }

    // MARK: - Daemon

    static func firingJSON(_ firing: Scheduler.Firing, zone: Zone) -> JSONValue {
        .object([
            "id": .string(firing.item.id.uuidString.lowercased()),
            "kind": .string(firing.item.kind.rawValue),
            "title": .string(firing.item.title),
            "at": .string(WireTime.string(firing.at, in: zone)),
        ])
    }

    static func eventJSON(_ event: DaemonEvent, zone: Zone) -> JSONValue {
        var object: JSONObject = [
            "kind": .string(event.kind.rawValue),
            "id": .string(event.item.id.uuidString.lowercased()),
            "itemKind": .string(event.item.kind.rawValue),
            "title": .string(event.item.title),
            "scheduled": WireTime.json(event.scheduled, in: zone),
            "actual": .string(WireTime.string(event.actual, in: zone)),
            "snoozeCount": JSONValue(event.snoozeCount),
            "detail": .string(event.detail),
        ]
        // The item as it is after the event (an edit's new fields, a one-shot alarm switched off).
        switch event.item {
        case .alarm(let alarm): object["alarm"] = ItemWire.json(alarm, state: nil, next: nil, zone: zone)
        case .reminder(let reminder): object["reminder"] = ItemWire.json(reminder, state: nil, next: nil, zone: zone)
        }
        return .object(object)
    }

    private func upcoming(_ parameters: Parameters) throws(SchedulerError) -> JSONObject {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["count"]) }
        let count = try check { () throws(VarlinkError) in try parameters.int("count", in: 1...1000) ?? 10 }
        let zone = zone()
        return ["firings": .array(scheduler.upcoming(count).map { Self.firingJSON($0, zone: zone) })]
    }

    private func status(_ parameters: Parameters) throws(SchedulerError) -> JSONObject {
        try check { () throws(VarlinkError) in try parameters.allowOnly([]) }
        let summary = scheduler.summary()
        return [
            "version": .string(AlarmdVersion.string),
            "alarms": JSONValue(summary.alarms),
            "reminders": JSONValue(summary.reminders),
            "ringing": .array(summary.ringing.map { .string($0.uuidString.lowercased()) }),
            "next": summary.next.map { Self.firingJSON($0, zone: summary.zone) } ?? .null,
            "timeZone": .string(summary.zone.identifier),
        ]
    }

    private func listSounds(_ parameters: Parameters) throws(SchedulerError) -> JSONObject {
        try check { () throws(VarlinkError) in try parameters.allowOnly([]) }
        return ["sounds": .array(sounds().map { .object(["name": .string($0.name), "theme": .string($0.theme), "path": .string($0.path)]) })]
    }

    private func export(_ parameters: Parameters) throws(SchedulerError) -> JSONObject {
        try check { () throws(VarlinkError) in try parameters.allowOnly([]) }
        let (alarms, reminders) = scheduler.allItems()
        return ["document": ExportDocument.json(alarms: alarms, reminders: reminders, zone: zone())]
    }

    private func importDocument(_ parameters: Parameters) throws(SchedulerError) -> JSONObject {
        try check { () throws(VarlinkError) in try parameters.allowOnly(["document"]) }
        let zone = zone()
        let (alarms, reminders) = try check { () throws(VarlinkError) in
            guard let document = try parameters.object("document") else { throw .invalidParameter("document", "is required") }
            return try ExportDocument.parse(document, zone: zone)
        }
        try scheduler.replaceAll(alarms: alarms, reminders: reminders)
        return ["alarms": JSONValue(alarms.count), "reminders": JSONValue(reminders.count)]
    }

    /// A sound given by a client must be playable here: a theme name that some
    /// installed theme has, or a regular readable file.
    private func checkSound(_ sound: Sound?) throws(SchedulerError) {
        switch sound {
        case .themed(let name)?:
            guard sounds().contains(where: { $0.name == name }) else {
                throw .wire(.invalidParameter("fields.sound", "must be a sound this machine has, got \(ValidationError.quoted(name)); run 'alarmctl sounds' for the list, or give a file path or none"))
            }
        case .file(let path)?:
            try checkFile(path, parameter: "fields.sound")
        default:
            break
        }
    }

    /// A path the daemon will hand to a player or the notification server must
    /// be a regular file it can read, not a directory, device or FIFO.
    private func checkFile(_ path: String?, parameter: String) throws(SchedulerError) {
        guard let path else { return }
        guard path.hasPrefix("/"), DesktopRinger.isPlayableFile(path) else {
            throw .wire(.invalidParameter(parameter, "must be an absolute path to a readable regular file, got \(ValidationError.quoted(path))"))
        }
    }

    /// Runs parameter checks inside a scheduler-error context: their Varlink
    /// error passes through unchanged.
    private func check<T>(_ body: () throws(VarlinkError) -> T) throws(SchedulerError) -> T {
        do throws(VarlinkError) { return try body() } catch { throw .wire(error) }
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// The `io.alarmd` methods: each one's parameters (`Request`, read with the
/// checks and messages the daemon gives, written by alarmctl) and its reply
/// (`Reply`, the members the daemon writes and alarmctl reads).

// MARK: - Shared shapes

/// `(id: string)`.
public struct IDRequest: WireRequest {
    public static let id = WireField("id", .string)
    public static let fields = [id]
    public var id: String
    public init(id: String) { self.id = id }
    public init(_ parameters: Parameters) throws(VarlinkError) {
        try parameters.allowOnly(Self.fields)
        id = try parameters.requiredString(Self.id)
    }
    public var json: JSONObject { Self.json([Self.id: .string(id)]) }
}

/// `(alarm: Alarm)`.
public enum AlarmReply: WireStruct {
    public static let alarm = WireField("alarm", .named("Alarm"))
    public static let fields = [alarm]
}

/// `(reminder: Reminder)`.
public enum ReminderReply: WireStruct {
    public static let reminder = WireField("reminder", .named("Reminder"))
    public static let fields = [reminder]
}

/// `(reminders: []Reminder)`.
public enum RemindersReply: WireStruct {
    public static let reminders = WireField("reminders", .array(.named("Reminder")))
    public static let fields = [reminders]
}

// MARK: - Alarms

public enum ListAlarms: VarlinkMethod {
    public static let name = "ListAlarms"
    public typealias Request = NoMembers
    public enum Reply: WireStruct {
        public static let alarms = WireField("alarms", .array(.named("Alarm")))
        public static let fields = [alarms]
    }
}

public enum GetAlarm: VarlinkMethod {
    public static let name = "GetAlarm"
    public typealias Request = IDRequest
    public enum Reply: WireStruct {
        public static let alarm = AlarmReply.alarm, warnings = WireField("warnings", .array(.string))
        public static let fields = [alarm, warnings]
    }
}

public enum AddAlarm: VarlinkMethod {
    public static let name = "AddAlarm"
    public struct Request: WireRequest {
        public static let alarmFields = WireField("fields", .named("AlarmFields"))
        public static let fields = [alarmFields]
        public var fields: AlarmFields
        public init(fields: AlarmFields) { self.fields = fields }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            fields = try parameters.object(Self.alarmFields).map { (fields: Parameters) throws(VarlinkError) in try AlarmFields.parse(fields) } ?? AlarmFields()
        }
        public var json: JSONObject { Self.json([Self.alarmFields: .object(fields.json)]) }
    }
    public typealias Reply = AlarmReply
}

public enum UpdateAlarm: VarlinkMethod {
    public static let name = "UpdateAlarm"
    public struct Request: WireRequest {
        public static let id = WireField("id", .string), alarmFields = AddAlarm.Request.alarmFields
        public static let fields = [id, alarmFields]
        public var id: String
        public var fields: AlarmFields
        public init(id: String, fields: AlarmFields) {
            self.id = id
            self.fields = fields
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            fields = try parameters.object(Self.alarmFields).map { (fields: Parameters) throws(VarlinkError) in try AlarmFields.parse(fields) } ?? AlarmFields()
            id = try parameters.requiredString(Self.id)
        }
        public var json: JSONObject { Self.json([Self.id: .string(id), Self.alarmFields: .object(fields.json)]) }
    }
    public typealias Reply = AlarmReply
}

public enum RemoveAlarm: VarlinkMethod {
    public static let name = "RemoveAlarm"
    public typealias Request = IDRequest
    public typealias Reply = ItemNamed
}

public enum SetAlarmEnabled: VarlinkMethod {
    public static let name = "SetAlarmEnabled"
    public struct Request: WireRequest {
        public static let id = WireField("id", .string), enabled = WireField("enabled", .bool)
        public static let fields = [id, enabled]
        public var id: String
        public var enabled: Bool
        public init(id: String, enabled: Bool) {
            self.id = id
            self.enabled = enabled
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            enabled = try parameters.requiredBool(Self.enabled)
            id = try parameters.requiredString(Self.id)
        }
        public var json: JSONObject { Self.json([Self.id: .string(id), Self.enabled: .bool(enabled)]) }
    }
    public typealias Reply = AlarmReply
}

public enum SkipNext: VarlinkMethod {
    public static let name = "SkipNext"
    public struct Request: WireRequest {
        public static let id = WireField("id", .string), skip = WireField.optional("skip", .bool)
        public static let fields = [id, skip]
        public var id: String
        /// Absent means true.
        public var skip: Bool
        public init(id: String, skip: Bool) {
            self.id = id
            self.skip = skip
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            skip = try parameters.bool(Self.skip) ?? true
            id = try parameters.requiredString(Self.id)
        }
        public var json: JSONObject { Self.json([Self.id: .string(id), Self.skip: .bool(skip)]) }
    }
    public typealias Reply = AlarmReply
}

// MARK: - Ringing

public enum Snooze: VarlinkMethod {
    public static let name = "Snooze"
    public struct Request: WireRequest {
        public static let id = WireField.optional("id", .string), minutes = WireField.optional("minutes", .int)
        public static let fields = [id, minutes]
        public var id: String?
        public var minutes: Int?
        public init(id: String?, minutes: Int?) {
            self.id = id
            self.minutes = minutes
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            id = try parameters.string(Self.id)
            minutes = try parameters.int(Self.minutes, in: AlarmCore.SnoozeSettings.minutesRange)
        }
        public var json: JSONObject {
            var object = JSONObject()
            object[Self.id] = id.map { .string($0) }
            object[Self.minutes] = minutes.map { JSONValue($0) }
            return object
        }
    }
    public enum Reply: WireStruct {
        public static let id = WireField("id", .string), phase = WireField("phase", .named("Phase"))
        public static let until = WireField("until", .string), snoozeCount = WireField("snoozeCount", .int)
        public static let title = WireField("title", .string)
        public static let fields = [id, title, phase, until, snoozeCount]
    }
}

public enum Dismiss: VarlinkMethod {
    public static let name = "Dismiss"
    public struct Request: WireRequest {
        public static let id = WireField.optional("id", .string)
        public static let fields = [id]
        public var id: String?
        public init(id: String?) { self.id = id }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            id = try parameters.string(Self.id)
        }
        public var json: JSONObject {
            var object = JSONObject()
            object[Self.id] = id.map { .string($0) }
            return object
        }
    }
    public typealias Reply = ItemNamed
}

/// `(id: string, title: string)`: the item a change acted on, named, so a
/// client can say which (`Removed alarm "Work" (80a7c2d1)`).
public enum ItemNamed: WireStruct {
    public static let id = WireField("id", .string), title = WireField("title", .string)
    public static let fields = [id, title]
}

// MARK: - Reminders

/// The members `AddReminder` and `UpdateReminder` share; `nil` leaves one out.
/// On update, `due: ""` and `imagePath: ""` clear them, `command: []`,
/// `rule: {}` and `before: []` remove them.
public struct ReminderChanges: Sendable {
    public static let title = WireField.optional("title", .string), notes = WireField.optional("notes", .string), due = WireField.optional("due", .string)
    public static let imagePath = WireField.optional("imagePath", .string), command = WireField.optional("command", .array(.string))
    public static let on = WireField.optional("on", .string), rule = WireField.optional("rule", .named("Rule"))
    public static let before = WireField.optional("before", .array(.int))
    public static let sound = WireField.optional("sound", .string), timer = WireField.optional("timer", .bool)
    /// The members after the title, as every reminder method lists them.
    static let optionalFields = [notes, due, on, rule, before, sound, timer, imagePath, command]

    public var title: String?
    public var notes: String?
    /// An instant as the interface writes it, or a local `YYYY-MM-DD HH:MM`.
    public var due: String?
    public var imagePath: String?
    public var command: [String]?
    /// An all-day due date, `YYYY-MM-DD`: due that day at `[Reminders] AllDayAt=`.
    public var on: String?
    /// `.some(nil)` removes the rule.
    public var rule: RecurrenceRule??
    /// Seconds before the due time of each advance notice; `[]` removes them.
    public var before: [Int]?
    /// A sound as written (the daemon judges it); `.some(nil)` (`""`) returns
    /// to the configuration's.
    public var sound: Sound??
    public var timer: Bool?

    public init(title: String? = nil, notes: String? = nil, due: String? = nil, imagePath: String? = nil, command: [String]? = nil,
                on: String? = nil, rule: RecurrenceRule?? = nil, before: [Int]? = nil) {
        self.title = title
        self.notes = notes
        self.due = due
        self.imagePath = imagePath
        self.command = command
        self.on = on
        self.rule = rule
        self.before = before
    }

    /// Reads the members in the order the daemon always checked them.
    init(_ parameters: Parameters, titleRequired: Bool) throws(VarlinkError) {
        title = titleRequired ? try parameters.requiredString(Self.title) : try parameters.string(Self.title)
        notes = try parameters.string(Self.notes)
        imagePath = try parameters.string(Self.imagePath)
        command = try parameters.stringArray(Self.command)
        due = try parameters.string(Self.due)
        on = try parameters.string(Self.on)
        if due != nil, on != nil { throw .invalidParameter(parameters.path + Self.on.name, "cannot be given with due (a reminder is due at a time or on a day), got both") }
        if let nested = try parameters.object(Self.rule) {
            rule = .some(nested.object.isEmpty ? nil : try Wire.Rule.parse(nested))
        }
        if let seconds = try parameters.intArray(Self.before.name) {
            guard seconds.count <= Reminder.maxBefore else {
                throw .invalidParameter(parameters.path + Self.before.name, "must be at most \(Reminder.maxBefore) notices, got \(seconds.count)")
            }
            for value in seconds where !Reminder.beforeRange.contains(value) {
                throw .invalidParameter(parameters.path + Self.before.name, "must be seconds before the due time, 1 to \(Reminder.beforeRange.upperBound) (28 days), got \(value)")
            }
            before = Array(Set(seconds)).sorted()
        }
        if let text = try parameters.string(Self.sound) { sound = .some(text.isEmpty ? nil : Sound(wire: text)) }
        timer = try parameters.bool(Self.timer)
    }

    func write(to object: inout JSONObject) {
        object[Self.title] = title.map { .string($0) }
        object[Self.notes] = notes.map { .string($0) }
        object[Self.due] = due.map { .string($0) }
        object[Self.imagePath] = imagePath.map { .string($0) }
        object[Self.command] = command.map { .array($0.map { .string($0) }) }
        object[Self.on] = on.map { .string($0) }
        object[Self.rule] = rule.map { $0.map(Wire.Rule.json) ?? .object(JSONObject()) }
        object[Self.before] = before.map { .array($0.map { JSONValue($0) }) }
        object[Self.sound] = sound.map { .string($0?.description ?? "") }
        object[Self.timer] = timer.map { .bool($0) }
    }
}

public enum AddReminder: VarlinkMethod {
    public static let name = "AddReminder"
    public struct Request: WireRequest {
        public static let fields = [ReminderChanges.title.required] + ReminderChanges.optionalFields
        public var changes: ReminderChanges
        public init(_ changes: ReminderChanges) { self.changes = changes }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            changes = try ReminderChanges(parameters, titleRequired: true)
        }
        public var json: JSONObject {
            var object = JSONObject()
            changes.write(to: &object)
            return object
        }
    }
    public typealias Reply = ReminderReply
}

public enum ListReminders: VarlinkMethod {
    public static let name = "ListReminders"
    public struct Request: WireRequest {
        public static let all = WireField.optional("all", .bool)
        public static let fields = [all]
        public var all: Bool
        public init(all: Bool) { self.all = all }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            all = try parameters.bool(Self.all) ?? false
        }
        public var json: JSONObject { all ? Self.json([Self.all: true]) : [:] }
    }
    public typealias Reply = RemindersReply
}

public enum UpdateReminder: VarlinkMethod {
    public static let name = "UpdateReminder"
    public struct Request: WireRequest {
        public static let id = WireField("id", .string)
        public static let fields = [id, ReminderChanges.title] + ReminderChanges.optionalFields
        public var id: String
        public var changes: ReminderChanges
        public init(id: String, _ changes: ReminderChanges) {
            self.id = id
            self.changes = changes
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            id = try parameters.requiredString(Self.id)
            changes = try ReminderChanges(parameters, titleRequired: false)
        }
        public var json: JSONObject {
            var object = JSONObject([Self.id: .string(id)])
            changes.write(to: &object)
            return object
        }
    }
    public typealias Reply = ReminderReply
}

public enum CompleteReminder: VarlinkMethod {
    public static let name = "CompleteReminder"
    public struct Request: WireRequest {
        public static let id = WireField("id", .string), done = WireField.optional("done", .bool)
        public static let fields = [id, done]
        public var id: String
        public var done: Bool
        public init(id: String, done: Bool) {
            self.id = id
            self.done = done
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            done = try parameters.bool(Self.done) ?? true
            id = try parameters.requiredString(Self.id)
        }
        public var json: JSONObject { Self.json([Self.id: .string(id), Self.done: .bool(done)]) }
    }
    public typealias Reply = ReminderReply
}

public enum MoveReminder: VarlinkMethod {
    public static let name = "MoveReminder"
    public struct Request: WireRequest {
        public static let id = WireField("id", .string), position = WireField("position", .int)
        public static let fields = [id, position]
        public var id: String
        public var position: Int
        public init(id: String, position: Int) {
            self.id = id
            self.position = position
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            position = try parameters.requiredInt(Self.position, in: 0...Int(Int32.max))
            id = try parameters.requiredString(Self.id)
        }
        public var json: JSONObject { Self.json([Self.id: .string(id), Self.position: JSONValue(position)]) }
    }
    public typealias Reply = RemindersReply
}

public enum RemoveReminder: VarlinkMethod {
    public static let name = "RemoveReminder"
    public typealias Request = IDRequest
    public typealias Reply = ItemNamed
}

// MARK: - Daemon

public enum Upcoming: VarlinkMethod {
    public static let name = "Upcoming"
    public struct Request: WireRequest {
        public static let count = WireField.optional("count", .int)
        public static let fields = [count]
        public static let range = 1...1000, defaultCount = 10
        public var count: Int?
        public init(count: Int?) { self.count = count }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            count = try parameters.int(Self.count, in: Self.range)
        }
        public var json: JSONObject {
            var object = JSONObject()
            object[Self.count] = count.map { JSONValue($0) }
            return object
        }
    }
    public enum Reply: WireStruct {
        public static let firings = WireField("firings", .array(.named("Firing")))
        public static let fields = [firings]
    }
}

public enum Status: VarlinkMethod {
    public static let name = "Status"
    public typealias Request = NoMembers
    public enum Reply: WireStruct {
        public static let version = WireField("version", .string), alarms = WireField("alarms", .int), reminders = WireField("reminders", .int)
        public static let ringing = WireField("ringing", .array(.string)), next = WireField.optional("next", .named("Firing"))
        public static let timeZone = WireField("timeZone", .string), wake = WireField("wake", .named("Wake"))
        public static let linger = WireField.optional("linger", .bool)
        public static let warnings = WireField("warnings", .array(.string))
        public static let sync = WireField.optional("sync", .named("SyncState"))
        public static let fields = [version, alarms, reminders, ringing, next, timeZone, wake, linger, warnings, sync]
    }
}

public enum History: VarlinkMethod {
    public static let name = "History"
    /// The kinds' wire names, for the command line.
    public static var kindNames: [String] { Request.historyKinds.map(\.rawValue) }
    public struct Request: WireRequest {
        public static let id = WireField.optional("id", .string), since = WireField.optional("since", .string)
        public static let kinds = WireField.optional("kinds", .array(.string)), limit = WireField.optional("limit", .int)
        public static let fields = [id, since, kinds, limit]
        public static let limitRange = 1...1000, defaultLimit = 50
        /// The kinds the history holds (a notice or an edit is not history).
        public static let historyKinds = EventKind.allCases.filter { $0 != .notice && $0 != .changed }
        public var id: String?
        /// An instant as the interface writes it.
        public var since: String?
        public var kinds: [EventKind]
        public var limit: Int?

        public init(id: String? = nil, since: String? = nil, kinds: [EventKind] = [], limit: Int? = nil) {
            self.id = id
            self.since = since
            self.kinds = kinds
            self.limit = limit
        }

        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            id = try parameters.string(Self.id)
            since = try parameters.string(Self.since)
            kinds = try (parameters.stringArray(Self.kinds) ?? []).map { name throws(VarlinkError) in
                guard let kind = EventKind(rawValue: name), Self.historyKinds.contains(kind) else {
                    let known = Self.historyKinds.map(\.rawValue).joined(separator: ", ")
                    throw .invalidParameter(parameters.path + Self.kinds.name, "must list event kinds (\(known)), got \(ValidationError.quoted(name))")
                }
                return kind
            }
            limit = try parameters.int(Self.limit, in: Self.limitRange)
        }

        public var json: JSONObject {
            var object = JSONObject()
            object[Self.id] = id.map { .string($0) }
            object[Self.since] = since.map { .string($0) }
            if !kinds.isEmpty { object[Self.kinds] = .array(kinds.map { .string($0.rawValue) }) }
            object[Self.limit] = limit.map { JSONValue($0) }
            return object
        }
    }
    public enum Reply: WireStruct {
        public static let events = WireField("events", .array(.named("HistoryEntry")))
        public static let fields = [events]
    }
}

public enum Watch: VarlinkMethod {
    public static let name = "Watch"
    public typealias Request = NoMembers
    public enum Reply: WireStruct {
        public static let event = WireField("event", .named("Event"))
        public static let fields = [event]
    }
}

public enum ListSounds: VarlinkMethod {
    public static let name = "ListSounds"
    public typealias Request = NoMembers
    public enum Reply: WireStruct {
        public static let sounds = WireField("sounds", .array(.named("SoundFile")))
        public static let fields = [sounds]
    }
}

public enum PlaySound: VarlinkMethod {
    public static let name = "PlaySound"
    public struct Request: WireRequest {
        public static let sound = WireField("sound", .string), volume = WireField.optional("volume", .int)
        public static let fields = [sound, volume]
        /// As a client named it; the daemon finds it.
        public var sound: Sound
        /// Percent; `nil` is `[Sound] Volume=`.
        public var volume: Int?
        public init(sound: Sound, volume: Int?) {
            self.sound = sound
            self.volume = volume
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            let text = try parameters.requiredString(Self.sound)
            sound = try parameters.validated(Self.sound) { () throws(ValidationError) in try Sound.parse(text) }
            volume = try parameters.int(Self.volume, in: SoundLevel.volumeRange)
        }
        public var json: JSONObject {
            var object = Self.json([Self.sound: .string(sound.description)])
            object[Self.volume] = volume.map { JSONValue($0) }
            return object
        }
    }
    public enum Reply: WireStruct {
        public static let path = WireField("path", .string), volume = WireField("volume", .int)
        public static let fields = [path, volume]
    }
}

public enum Export: VarlinkMethod {
    public static let name = "Export"
    public typealias Request = NoMembers
    public enum Reply: WireStruct {
        public static let document = WireField("document", .object)
        public static let fields = [document]
    }
}

public enum Import: VarlinkMethod {
    public static let name = "Import"
    public struct Request: WireRequest {
        public static let document = WireField("document", .object), mode = WireField.optional("mode", .string)
        public static let dryRun = WireField.optional("dryRun", .bool)
        public static let fields = [document, mode, dryRun]
        /// The document, its members named `document.…` in errors.
        public var document: Parameters
        /// Merge by id, or replace everything (the default, as before merging existed).
        public var merge: Bool
        public var dryRun: Bool
        public init(document: JSONObject, merge: Bool = false, dryRun: Bool = false) {
            self.document = Parameters(document, path: Self.document.name + ".")
            self.merge = merge
            self.dryRun = dryRun
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            guard let document = try parameters.object(Self.document) else { throw .invalidParameter(Self.document.name, "is required") }
            self.document = document
            switch try parameters.string(Self.mode) {
            case nil, "replace": merge = false
            case "merge": merge = true
            case let other?: throw .invalidParameter(Self.mode.name, "must be merge or replace, got \(ValidationError.quoted(other))")
            }
            dryRun = try parameters.bool(Self.dryRun) ?? false
        }
        public var json: JSONObject {
            var object = Self.json([Self.document: .object(document.object)])
            if merge { object[Self.mode] = "merge" }
            if dryRun { object[Self.dryRun] = true }
            return object
        }
    }
    public enum Reply: WireStruct {
        public static let alarms = WireField("alarms", .int), reminders = WireField("reminders", .int)
        public static let added = WireField("added", .int), updated = WireField("updated", .int), removed = WireField("removed", .int)
        public static let changes = WireField("changes", .array(.named("ImportChange")))
        public static let fields = [alarms, reminders, added, updated, removed, changes]
    }
}

/// Every alarm and reminder as one iCalendar (RFC 5545) calendar: alarms as
/// recurring `VEVENT`s, reminders as `VTODO`s (see `ICalendarItems`).
public enum ExportCalendar: VarlinkMethod {
    public static let name = "ExportCalendar"
    public typealias Request = NoMembers
    public enum Reply: WireStruct {
        public static let calendar = WireField("calendar", .string)
        public static let fields = [calendar]
    }
}

/// Takes in an iCalendar text, merged by `UID`: new items added, known ones
/// updated, nothing else touched. All or nothing; the reply is `Import`'s.
public enum ImportCalendar: VarlinkMethod {
    public static let name = "ImportCalendar"
    public struct Request: WireRequest {
        public static let calendar = WireField("calendar", .string), dryRun = WireField.optional("dryRun", .bool)
        public static let fields = [calendar, dryRun]
        public var calendar: String
        public var dryRun: Bool
        public init(calendar: String, dryRun: Bool = false) {
            self.calendar = calendar
            self.dryRun = dryRun
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            calendar = try parameters.requiredString(Self.calendar)
            dryRun = try parameters.bool(Self.dryRun) ?? false
        }
        public var json: JSONObject {
            var object = Self.json([Self.calendar: .string(calendar)])
            if dryRun { object[Self.dryRun] = true }
            return object
        }
    }
    public typealias Reply = Import.Reply
}

/// A CalDAV sync round now (`[Sync]` in alarmd.conf), and what it moved.
/// A round that failed says why in `error`; nothing is lost, and the changes
/// wait here for the next.
public enum Sync: VarlinkMethod {
    public static let name = "Sync"
    public typealias Request = NoMembers
    public enum Reply: WireStruct {
        public static let state = WireField("state", .named("SyncState"))
        public static let received = WireField("received", .int), sent = WireField("sent", .int)
        public static let removedHere = WireField("removedHere", .int), removedThere = WireField("removedThere", .int)
        public static let conflicts = WireField("conflicts", .int)
        public static let fields = [state, received, sent, removedHere, removedThere, conflicts]
    }
}

/// `ImportChange`: what an import does to one item.
public enum ImportChange: WireStruct {
    public static let change = WireField("change", .string), id = WireField("id", .string), itemKind = WireField("itemKind", .string)
    public static let title = WireField("title", .string)
    public static let fields = [change, id, itemKind, title]
}

extension InterfaceDefinition {
    /// Every method, for the check against the interface definition.
    public static var methodTypes: [any VarlinkMethod.Type] { [
    ListAlarms.self, GetAlarm.self, AddAlarm.self, UpdateAlarm.self, RemoveAlarm.self, SetAlarmEnabled.self, SkipNext.self, Snooze.self, Dismiss.self,
    AddReminder.self, ListReminders.self, UpdateReminder.self, CompleteReminder.self, MoveReminder.self, RemoveReminder.self,
    Upcoming.self, Status.self, History.self, Watch.self, ListSounds.self, PlaySound.self, Export.self, Import.self,
    ExportCalendar.self, ImportCalendar.self, Sync.self,
    ] }
}

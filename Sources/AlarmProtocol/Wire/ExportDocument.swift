// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// The `Export` / `Import` document: every alarm and reminder, ids and
/// timestamps included, so an import restores exactly what was exported.
///
///     {"format": "alarmd", "version": 1, "alarms": [Alarm…], "reminders": [Reminder…]}
///
/// Items use the interface's `Alarm` and `Reminder` shapes without the live
/// fields (`phase`, `next`, `snoozeCount`); `repeat` is ignored on import.
public enum ExportDocument: WireStruct {
    public static let version = 1
    public static let format = WireField("format", .string), versionField = WireField("version", .int)
    public static let alarms = WireField("alarms", .array(.named("Alarm"))), reminders = WireField("reminders", .array(.named("Reminder")))
    public static let fields = [format, versionField, alarms, reminders]

    public static func json(alarms: [Alarm], reminders: [Reminder], zone: Zone) -> JSONValue {
        .object(object(alarms: alarms, reminders: reminders, zone: zone))
    }

    /// The same, as the object `Export`'s reply holds.
    public static func object(alarms: [Alarm], reminders: [Reminder], zone: Zone) -> JSONObject {
        document(alarms: alarms.map { Wire.Alarm.json($0, state: nil, next: nil, zone: zone) },
                 reminders: reminders.map { Wire.Reminder.json($0, state: nil, next: nil, zone: zone) })
    }

    /// A document of items already in the wire's shape.
    private static func document(alarms: [JSONValue], reminders: [JSONValue]) -> JSONObject {
        Self.json([format: "alarmd", versionField: JSONValue(version), Self.alarms: .array(alarms), Self.reminders: .array(reminders)])
    }

    /// Reads a whole document or throws on the first problem, naming its path
    /// (`document.alarms[3].time`): an import is all or nothing.
    public static func parse(_ document: Parameters, zone: Zone) throws(VarlinkError) -> (alarms: [Alarm], reminders: [Reminder]) {
        try document.allowOnly(fields)
        guard try document.string(format) == "alarmd" else {
            throw .invalidParameter(document.path + format.name, "must be \"alarmd\"")
        }
        guard let version = try document.int(versionField, in: 1...Int.max), version == Self.version else {
            throw .invalidParameter(document.path + versionField.name, "must be \(Self.version)")
        }
        let alarms = try list(document, Self.alarms.name) { (item: Parameters) throws(VarlinkError) in try alarm(item, zone: zone) }
        let reminders = try list(document, Self.reminders.name) { (item: Parameters) throws(VarlinkError) in try reminder(item, zone: zone) }
        return (alarms, reminders)
    }

    private static func list<T>(_ document: Parameters, _ name: String, _ body: (Parameters) throws(VarlinkError) -> T) throws(VarlinkError) -> [T] {
        guard let value = document.object[name], !value.isNull else { return [] }
        guard case .array(let elements) = value else { throw .invalidParameter(document.path + name, "must be an array") }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let path = "\(document.path)\(name)[\(index)]"
            guard case .object(let object) = element else { throw .invalidParameter(path, "must be an object") }
            result.append(try body(Parameters(object, path: path + ".")))
        }
        return result
    }

    private static func id(_ item: Parameters) throws(VarlinkError) -> UUID {
        let text = try item.requiredString(Wire.Alarm.id)
        guard let id = UUID(canonical: text) else { throw .invalidParameter(item.path + Wire.Alarm.id.name, "must be a UUID, got \(ValidationError.quoted(text))") }
        return id
    }

    private static func instant(_ item: Parameters, _ field: WireField, zone: Zone) throws(VarlinkError) -> Date? {
        guard let text = try item.string(field) else { return nil }
        return try WireTime.parse(text, parameter: item.path + field.name, zone: zone)
    }

    /// A document of items as a reply showed them (`GetAlarm`,
    /// `GetReminder`), their live fields left out: imported with merge, it
    /// puts them back as they were, ids, settings and timestamps alike
    /// (undoing a delete).
    public static func restoring(alarms: [JSONObject] = [], reminders: [JSONObject] = []) -> JSONObject {
        func kept(_ object: JSONObject, _ fields: [WireField]) -> JSONObject {
            var kept = JSONObject()
            for field in fields { kept[field.name] = object[field.name] }
            return kept
        }
        return document(alarms: alarms.map { .object(kept($0, alarmFields)) }, reminders: reminders.map { .object(kept($0, reminderFields)) })
    }

    // Built once: an import checks every item's members against them.
    // An exported item has no live state.
    static let alarmFields = Wire.Alarm.fields.filter { ![Wire.Alarm.phase, Wire.Alarm.next, Wire.Alarm.snoozeCount].contains($0) }
    static let reminderFields = Wire.Reminder.fields.filter { ![Wire.Reminder.phase, Wire.Reminder.next, Wire.Reminder.snoozeCount].contains($0) }

    static func alarm(_ item: Parameters, zone: Zone) throws(VarlinkError) -> Alarm {
        typealias W = Wire.Alarm
        try item.allowOnly(Self.alarmFields)
        let timeText = try item.requiredString(W.time)
        let time = try item.validated(W.time) { () throws(ValidationError) in try TimeOfDay.parse(timeText) }
        let codes = try item.stringArray(W.days) ?? []
        let days = try item.validated(W.days) { () throws(ValidationError) in try RepeatDays.fromCodes(codes) }
        let soundText = try item.string(W.sound) ?? Sound.defaultAlarm.description
        let sound = try item.validated(W.sound) { () throws(ValidationError) in try Sound.parse(soundText) }
        var snooze = SnoozeSettings.default
        if let settings = try item.object(W.snooze) {
            try settings.allowOnly(Wire.SnoozeSettings.fields)
            snooze = SnoozeSettings(
                enabled: try settings.bool(Wire.SnoozeSettings.enabled) ?? true,
                minutes: try settings.int(Wire.SnoozeSettings.minutes, in: SnoozeSettings.minutesRange) ?? 9,
                maxCount: try settings.int(Wire.SnoozeSettings.maxCount, in: SnoozeSettings.maxCountRange) ?? 0
            )
        }
        var timeZone: Zone?
        if let name = try item.string(W.timeZone) {
            guard let zone = ZoneName.zone(name) else { throw .invalidParameter(item.path + W.timeZone.name, "must be an IANA time zone, got \(ValidationError.quoted(name))") }
            timeZone = zone
        }
        let created = try instant(item, W.created, zone: zone) ?? Date(timeIntervalSince1970: 0)
        let alarm = Alarm(
            id: try id(item), time: time, days: days,
            label: try item.string(W.label) ?? Alarm.defaultLabel,
            sound: sound,
            snooze: snooze,
            ringSeconds: try item.int(W.ringSeconds, in: Alarm.ringSecondsRange) ?? Alarm.defaultRingSeconds,
            volume: try item.int(W.volume, in: SoundLevel.volumeRange),
            fadeSeconds: try item.int(W.fadeSeconds, in: SoundLevel.fadeSecondsRange),
            enabled: try item.bool(W.enabled) ?? true,
            skipNext: try item.bool(W.skipNext) ?? false,
            timeZone: timeZone,
            command: try item.stringArray(W.command) ?? [],
            escalateCommand: try item.stringArray(W.escalateCommand) ?? [],
            recurrence: try item.object(W.rule).map { (rule: Parameters) throws(VarlinkError) in try Wire.Rule.parse(rule) },
            pausedUntil: try item.string(W.pausedUntil).map { (text: String) throws(VarlinkError) in try Wire.Rule.date(item, W.pausedUntil, text) },
            skipHolidays: try item.bool(W.skipHolidays) ?? false,
            created: created,
            updated: try instant(item, W.updated, zone: zone) ?? created
        )
        do throws(ValidationError) { try alarm.validate() } catch { throw .invalid(error, path: item.path) }
        return alarm
    }

    static func reminder(_ item: Parameters, zone: Zone) throws(VarlinkError) -> Reminder {
        typealias W = Wire.Reminder
        try item.allowOnly(Self.reminderFields)
        let created = try instant(item, W.created, zone: zone) ?? Date(timeIntervalSince1970: 0)
        let reminder = Reminder(
            id: try id(item),
            title: try item.requiredString(W.title),
            notes: try item.string(W.notes) ?? "",
            due: try instant(item, W.due, zone: zone),
            done: try item.bool(W.done) ?? false,
            position: try item.int(W.position, in: 0...Int.max) ?? 0,
            imagePath: try item.string(W.imagePath),
            command: try item.stringArray(W.command) ?? [],
            allDay: try item.bool(W.allDay) ?? false,
            recurrence: try item.object(W.rule).map { (rule: Parameters) throws(VarlinkError) in try Wire.Rule.parse(rule) },
            before: try item.intArray(W.before.name) ?? [],
            sound: try item.string(W.sound).map { (text: String) throws(VarlinkError) in try item.validated(W.sound) { () throws(ValidationError) in try Sound.parse(text) } },
            isTimer: try item.bool(W.timer) ?? false,
            created: created,
            updated: try instant(item, W.updated, zone: zone) ?? created
        )
        var paused = reminder
        paused.timerLeft = try item.int(W.timerLeft, in: Reminder.timerLeftRange)
        do throws(ValidationError) { try paused.validate() } catch { throw .invalid(error, path: item.path) }
        return paused
    }
}

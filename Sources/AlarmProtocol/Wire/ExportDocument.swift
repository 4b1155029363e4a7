import AlarmCore
import FoundationEssentials

/// The `Export` / `Import` document: every alarm and reminder, ids and
/// timestamps included, so an import restores exactly what was exported.
///
///     {"format": "alarmd", "version": 1, "alarms": [Alarm…], "reminders": [Reminder…]}
///
/// Items use the interface's `Alarm` and `Reminder` shapes without the live
/// fields (`phase`, `next`, `snoozeCount`); `repeat` is ignored on import.
public enum ExportDocument {
    public static let version = 1

    public static func json(alarms: [Alarm], reminders: [Reminder], zone: Zone) -> JSONValue {
        .object([
            "format": "alarmd",
            "version": JSONValue(version),
            "alarms": .array(alarms.map { ItemWire.json($0, state: nil, next: nil, zone: zone) }),
            "reminders": .array(reminders.map { ItemWire.json($0, state: nil, next: nil, zone: zone) }),
        ])
    }

    /// Reads a whole document or throws on the first problem, naming its path
    /// (`document.alarms[3].time`): an import is all or nothing.
    public static func parse(_ document: Parameters, zone: Zone) throws(VarlinkError) -> (alarms: [Alarm], reminders: [Reminder]) {
        try document.allowOnly(["format", "version", "alarms", "reminders"])
        guard try document.string("format") == "alarmd" else {
            throw .invalidParameter(document.path + "format", "must be \"alarmd\"")
        }
        guard let version = try document.int("version", in: 1...Int.max), version == Self.version else {
            throw .invalidParameter(document.path + "version", "must be \(Self.version)")
        }
        let alarms = try list(document, "alarms") { (item: Parameters) throws(VarlinkError) in try alarm(item, zone: zone) }
        let reminders = try list(document, "reminders") { (item: Parameters) throws(VarlinkError) in try reminder(item, zone: zone) }
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
        let text = try item.requiredString("id")
        guard let id = UUID(canonical: text) else { throw .invalidParameter(item.path + "id", "must be a UUID, got \(ValidationError.quoted(text))") }
        return id
    }

    private static func instant(_ item: Parameters, _ name: String, zone: Zone) throws(VarlinkError) -> Date? {
        guard let text = try item.string(name) else { return nil }
        return try WireTime.parse(text, parameter: item.path + name, zone: zone)
    }

    // Built once: an import checks every item's members against them.
    static let alarmKeys: Set<String> = ["id", "time", "days", "repeat", "label", "sound", "snooze", "ringSeconds", "enabled", "skipNext", "timeZone", "command", "created", "updated"]
    static let snoozeKeys: Set<String> = ["enabled", "minutes", "maxCount"]
    static let reminderKeys: Set<String> = ["id", "title", "notes", "due", "done", "position", "imagePath", "command", "created", "updated"]

    static func alarm(_ item: Parameters, zone: Zone) throws(VarlinkError) -> Alarm {
        try item.allowOnly(Self.alarmKeys)
        let timeText = try item.requiredString("time")
        let time = try item.validated("time") { () throws(ValidationError) in try TimeOfDay.parse(timeText) }
        let codes = try item.stringArray("days") ?? []
        let days = try item.validated("days") { () throws(ValidationError) in try RepeatDays.fromCodes(codes) }
        let soundText = try item.string("sound") ?? Sound.defaultAlarm.description
        let sound = try item.validated("sound") { () throws(ValidationError) in try Sound.parse(soundText) }
        var snooze = SnoozeSettings.default
        if let settings = try item.object("snooze") {
            try settings.allowOnly(Self.snoozeKeys)
            snooze = SnoozeSettings(
                enabled: try settings.bool("enabled") ?? true,
                minutes: try settings.int("minutes", in: SnoozeSettings.minutesRange) ?? 9,
                maxCount: try settings.int("maxCount", in: SnoozeSettings.maxCountRange) ?? 0
            )
        }
        var timeZone: Zone?
        if let name = try item.string("timeZone") {
            guard let zone = ZoneName.zone(name) else { throw .invalidParameter(item.path + "timeZone", "must be an IANA time zone, got \(ValidationError.quoted(name))") }
            timeZone = zone
        }
        let created = try instant(item, "created", zone: zone) ?? Date(timeIntervalSince1970: 0)
        let alarm = Alarm(
            id: try id(item), time: time, days: days,
            label: try item.string("label") ?? Alarm.defaultLabel,
            sound: sound,
            snooze: snooze,
            ringSeconds: try item.int("ringSeconds", in: Alarm.ringSecondsRange) ?? Alarm.defaultRingSeconds,
            enabled: try item.bool("enabled") ?? true,
            skipNext: try item.bool("skipNext") ?? false,
            timeZone: timeZone,
            command: try item.stringArray("command") ?? [],
            created: created,
            updated: try instant(item, "updated", zone: zone) ?? created
        )
        do throws(ValidationError) { try alarm.validate() } catch { throw .invalid(error, path: item.path) }
        return alarm
    }

    static func reminder(_ item: Parameters, zone: Zone) throws(VarlinkError) -> Reminder {
        try item.allowOnly(Self.reminderKeys)
        let created = try instant(item, "created", zone: zone) ?? Date(timeIntervalSince1970: 0)
        let reminder = Reminder(
            id: try id(item),
            title: try item.requiredString("title"),
            notes: try item.string("notes") ?? "",
            due: try instant(item, "due", zone: zone),
            done: try item.bool("done") ?? false,
            position: try item.int("position", in: 0...Int.max) ?? 0,
            imagePath: try item.string("imagePath"),
            command: try item.stringArray("command") ?? [],
            created: created,
            updated: try instant(item, "updated", zone: zone) ?? created
        )
        do throws(ValidationError) { try reminder.validate() } catch { throw .invalid(error, path: item.path) }
        return reminder
    }
}

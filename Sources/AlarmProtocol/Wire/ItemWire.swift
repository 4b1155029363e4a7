import AlarmCore
import FoundationEssentials

/// Items as the interface's `Alarm` and `Reminder` types.
public enum ItemWire {
    static func phase(_ state: RingState?) -> JSONValue {
        switch state?.phase {
        case .ringing?: return "ringing"
        case .snoozed?: return "snoozed"
        default: return "waiting"
        }
    }

    /// An `Alarm`, with its live state when the daemon has one (`nil` in exports).
    public static func json(_ alarm: Alarm, state: RingState?, next: Date?, zone: Zone) -> JSONValue {
        var object: JSONObject = [
            "id": .string(alarm.id.uuidString.lowercased()),
            "time": .string(alarm.time.description),
            "days": .array(alarm.days.codes.map { .string($0) }),
            "repeat": .string(alarm.days.displayText),
            "label": .string(alarm.label),
            "sound": .string(alarm.sound.description),
            "snooze": .object(["enabled": .bool(alarm.snooze.enabled), "minutes": JSONValue(alarm.snooze.minutes), "maxCount": JSONValue(alarm.snooze.maxCount)]),
            "ringSeconds": JSONValue(alarm.ringSeconds),
            "enabled": .bool(alarm.enabled),
            "skipNext": .bool(alarm.skipNext),
            "timeZone": alarm.timeZone.map { .string($0.identifier) } ?? .null,
            "command": .array(alarm.command.map { .string($0) }),
        ]
        if let state {
            object["phase"] = phase(state)
            object["next"] = WireTime.json(next, in: zone)
            object["snoozeCount"] = JSONValue(state.snoozeCount)
        }
        object["created"] = .string(WireTime.string(alarm.created, in: zone))
        object["updated"] = .string(WireTime.string(alarm.updated, in: zone))
        return .object(object)
    }

    /// A `Reminder`, with its live state when the daemon has one.
    public static func json(_ reminder: Reminder, state: RingState?, next: Date?, zone: Zone) -> JSONValue {
        var object: JSONObject = [
            "id": .string(reminder.id.uuidString.lowercased()),
            "title": .string(reminder.title),
            "notes": .string(reminder.notes),
            "due": WireTime.json(reminder.due, in: zone),
            "done": .bool(reminder.done),
            "position": JSONValue(reminder.position),
            "imagePath": reminder.imagePath.map { .string($0) } ?? .null,
            "command": .array(reminder.command.map { .string($0) }),
        ]
        if let state {
            object["phase"] = phase(state)
            object["next"] = WireTime.json(next, in: zone)
            object["snoozeCount"] = JSONValue(state.snoozeCount)
        }
        object["created"] = .string(WireTime.string(reminder.created, in: zone))
        object["updated"] = .string(WireTime.string(reminder.updated, in: zone))
        return .object(object)
    }
}

/// The optional fields of `AlarmFields`, read and checked; `nil` means "leave as is".
public struct AlarmFields: Sendable {
    public var time: TimeOfDay?
    public var days: RepeatDays?
    public var label: String?
    public var sound: Sound?
    public var snoozeEnabled: Bool?
    public var snoozeMinutes: Int?
    public var maxSnoozes: Int?
    public var ringSeconds: Int?
    public var enabled: Bool?
    /// `.some(nil)` un-pins the alarm.
    public var timeZone: Zone??
    /// `[]` removes the command.
    public var command: [String]?

    public init() {}

    public static let names: Set<String> = ["time", "days", "label", "sound", "snooze", "snoozeMinutes", "maxSnoozes", "ringSeconds", "enabled", "timeZone", "command"]

    public static func parse(_ parameters: Parameters) throws(VarlinkError) -> AlarmFields {
        try parameters.allowOnly(names)
        var fields = AlarmFields()
        if let text = try parameters.string("time") {
            fields.time = try parameters.validated("time") { () throws(ValidationError) in try TimeOfDay.parse(text) }
        }
        if let codes = try parameters.stringArray("days") {
            fields.days = try parameters.validated("days") { () throws(ValidationError) in try RepeatDays.fromCodes(codes) }
        }
        fields.label = try parameters.string("label")
        if let text = try parameters.string("sound") {
            fields.sound = try parameters.validated("sound") { () throws(ValidationError) in try Sound.parse(text) }
        }
        fields.snoozeEnabled = try parameters.bool("snooze")
        fields.snoozeMinutes = try parameters.int("snoozeMinutes", in: SnoozeSettings.minutesRange)
        fields.maxSnoozes = try parameters.int("maxSnoozes", in: SnoozeSettings.maxCountRange)
        fields.ringSeconds = try parameters.int("ringSeconds", in: Alarm.ringSecondsRange)
        fields.enabled = try parameters.bool("enabled")
        if let name = try parameters.string("timeZone") {
            if name.isEmpty {
                fields.timeZone = .some(nil)
            } else {
                guard let zone = ZoneName.zone(name) else {
                    throw .invalidParameter(parameters.path + "timeZone", "must be an IANA time zone such as Europe/Berlin, got \(ValidationError.quoted(name))")
                }
                fields.timeZone = .some(zone)
            }
        }
        if let argv = try parameters.stringArray("command") {
            try parameters.validated("command") { () throws(ValidationError) in try CommandRules.check(argv) }
            fields.command = argv
        }
        return fields
    }

    /// Writes the given fields into `alarm`.
    public func apply(to alarm: inout Alarm) {
        if let time { alarm.time = time }
        if let days { alarm.days = days }
        if let label { alarm.label = label }
        if let sound { alarm.sound = sound }
        if let snoozeEnabled { alarm.snooze.enabled = snoozeEnabled }
        if let snoozeMinutes { alarm.snooze.minutes = snoozeMinutes }
        if let maxSnoozes { alarm.snooze.maxCount = maxSnoozes }
        if let ringSeconds { alarm.ringSeconds = ringSeconds }
        if let enabled { alarm.enabled = enabled }
        if let timeZone { alarm.timeZone = timeZone }
        if let command { alarm.command = command }
    }
}

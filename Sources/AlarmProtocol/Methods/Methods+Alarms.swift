// SPDX-License-Identifier: Apache-2.0
import AlarmCore

// MARK: - Alarms

public enum ListAlarms: VarlinkMethod {
    public static let name = "ListAlarms"
    public typealias Request = NoMembers
    public struct Reply: WireReply {
        public static let alarms = WireField("alarms", .array(.named("Alarm")))
        public static let fields = [alarms]
        /// Wire `Alarm`s, by time of day.
        public var alarms: [JSONObject]
        public init(alarms: [JSONObject]) { self.alarms = alarms }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            alarms = try parameters.requiredObjectArray(Self.alarms) { $0.object }
        }
        public var json: JSONObject { Self.json([Self.alarms: .array(alarms.map { .object($0) })]) }
    }
}

public enum GetAlarm: VarlinkMethod {
    public static let name = "GetAlarm"
    public typealias Request = IDRequest
    public struct Reply: WireReply {
        public static let alarm = AlarmReply.alarm, warnings = WireField("warnings", .array(.string))
        public static let fields = [alarm, warnings]
        /// A wire `Alarm`.
        public var alarm: JSONObject
        /// Why it may not be heard when it rings; `nil` from a daemon that
        /// does not say (read as none).
        public var warnings: [String]?
        public init(alarm: JSONObject, warnings: [String]?) {
            self.alarm = alarm
            self.warnings = warnings
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            alarm = try parameters.requiredObject(Self.alarm).object
            warnings = try parameters.stringArray(Self.warnings)
        }
        public var json: JSONObject {
            var object = Self.json([Self.alarm: .object(alarm)])
            object[Self.warnings] = warnings.map { .array($0.map(JSONValue.string)) }
            return object
        }
    }
}

public enum AddAlarm: VarlinkMethod {
    public static let name = "AddAlarm"
    public struct Request: WireRequest {
        public static let alarmFields = WireField("fields", .named("AlarmFields")), force = WireField.optional("force", .bool)
        public static let fields = [alarmFields, force]
        public var fields: AlarmFields
        /// Add it even when an alarm just like it exists (``Alarm/isTwin(of:)``).
        public var force: Bool
        public init(fields: AlarmFields, force: Bool = false) {
            self.fields = fields
            self.force = force
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            fields = try parameters.object(Self.alarmFields).map { (fields: Parameters) throws(VarlinkError) in try AlarmFields.parse(fields) } ?? AlarmFields()
            force = try parameters.bool(Self.force) ?? false
        }
        public var json: JSONObject {
            var object = Self.json([Self.alarmFields: .object(fields.json)])
            if force { object[Self.force] = true }
            return object
        }
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
    public struct Reply: WireReply {
        public static let id = WireField("id", .string), phase = WireField("phase", .named("Phase"))
        public static let until = WireField("until", .string), snoozeCount = WireField("snoozeCount", .int)
        public static let title = WireField("title", .string)
        public static let fields = [id, title, phase, until, snoozeCount]
        /// The item's full id, lowercase.
        public var id: String
        public var title: String
        public var phase: Wire.Phase.Name
        /// Wire time it rings again; `nil` (sent as null) when it is not
        /// snoozed after all.
        public var until: String?
        /// Snoozes taken for this occurrence, this one included.
        public var snoozeCount: Int
        public init(id: String, title: String, phase: Wire.Phase.Name = .snoozed, until: String?, snoozeCount: Int) {
            self.id = id
            self.title = title
            self.phase = phase
            self.until = until
            self.snoozeCount = snoozeCount
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            id = try parameters.requiredString(Self.id)
            title = try parameters.requiredString(Self.title)
            phase = try parameters.required(Self.phase, as: Wire.Phase.Name.self)
            until = try parameters.string(Self.until)
            snoozeCount = try parameters.requiredInt(Self.snoozeCount, in: Self.counts)
        }
        public var json: JSONObject {
            Self.json([Self.id: .string(id), Self.title: .string(title), Self.phase: .string(phase.rawValue), Self.until: until.map(JSONValue.string) ?? .null,
                       Self.snoozeCount: JSONValue(snoozeCount)])
        }
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

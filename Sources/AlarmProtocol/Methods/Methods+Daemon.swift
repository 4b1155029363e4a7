// SPDX-License-Identifier: Apache-2.0
import AlarmCore

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
    public struct Reply: WireReply {
        public static let firings = WireField("firings", .array(.named("Firing")))
        public static let fields = [firings]
        /// Earliest first.
        public var firings: [Wire.Firing]
        public init(firings: [Wire.Firing]) { self.firings = firings }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            firings = try parameters.requiredObjectArray(Self.firings, as: Wire.Firing.init(_:))
        }
        public var json: JSONObject { Self.json([Self.firings: .array(firings.map(\.json))]) }
    }
}

public enum Status: VarlinkMethod {
    public static let name = "Status"
    public typealias Request = NoMembers
    public struct Reply: WireReply {
        public static let version = WireField("version", .string), alarms = WireField("alarms", .int), reminders = WireField("reminders", .int)
        public static let timers = WireField.optional("timers", .int)
        public static let ringing = WireField("ringing", .array(.string)), next = WireField.optional("next", .named("Firing"))
        public static let timeZone = WireField("timeZone", .string), wake = WireField("wake", .named("Wake"))
        public static let linger = WireField.optional("linger", .bool)
        public static let warnings = WireField("warnings", .array(.string))
        public static let sync = WireField.optional("sync", .named("SyncState"))
        public static let fields = [version, alarms, reminders, timers, ringing, next, timeZone, wake, linger, warnings, sync]

        public var version: String
        public var alarms: Int
        /// To-dos: reminders that are not timers.
        public var reminders: Int
        /// Timers running; `nil` from a daemon that does not say.
        public var timers: Int?
        /// Ids of the items ringing now.
        public var ringing: [String]
        public var next: Wire.Firing?
        /// The system zone floating alarms follow.
        public var timeZone: String
        /// `nil` from a daemon that does not say (alarmctl then leaves the line out).
        public var wake: Wire.Wake?
        /// Whether the user lingers; `nil` (null) when logind could not be asked.
        public var linger: Bool?
        /// Why alarms may not be heard; `nil` from a daemon that does not say (read as none).
        public var warnings: [String]?
        /// `nil` (null) when sync is not configured.
        public var sync: Wire.SyncState?

        public init(version: String, alarms: Int, reminders: Int, timers: Int? = nil, ringing: [String], next: Wire.Firing?, timeZone: String,
                    wake: Wire.Wake?, linger: Bool?, warnings: [String]?, sync: Wire.SyncState?) {
            self.version = version
            self.alarms = alarms
            self.reminders = reminders
            self.timers = timers
            self.ringing = ringing
            self.next = next
            self.timeZone = timeZone
            self.wake = wake
            self.linger = linger
            self.warnings = warnings
            self.sync = sync
        }

        public init(_ parameters: Parameters) throws(VarlinkError) {
            version = try parameters.requiredString(Self.version)
            alarms = try parameters.requiredInt(Self.alarms, in: Self.counts)
            reminders = try parameters.requiredInt(Self.reminders, in: Self.counts)
            timers = try parameters.int(Self.timers, in: Self.counts)
            ringing = try parameters.requiredStringArray(Self.ringing)
            next = try parameters.object(Self.next, as: Wire.Firing.init(_:))
            timeZone = try parameters.requiredString(Self.timeZone)
            wake = try parameters.object(Self.wake, as: Wire.Wake.init(_:))
            linger = try parameters.bool(Self.linger)
            warnings = try parameters.stringArray(Self.warnings)
            sync = try parameters.object(Self.sync, as: Wire.SyncState.init(_:))
        }

        /// The optional members as null when unset, as the daemon has always
        /// sent them; `wake` and `warnings` it always has.
        public var json: JSONObject {
            var object = Self.json([
                Self.version: .string(version), Self.alarms: JSONValue(alarms), Self.reminders: JSONValue(reminders),
                Self.ringing: .array(ringing.map(JSONValue.string)), Self.next: next?.json ?? .null, Self.timeZone: .string(timeZone),
            ])
            object[Self.timers] = timers.map { JSONValue($0) }
            object[Self.wake] = wake?.json
            object[Self.linger] = linger.map(JSONValue.bool) ?? .null
            object[Self.warnings] = warnings.map { .array($0.map(JSONValue.string)) }
            object[Self.sync] = sync?.json ?? .null
            return object
        }
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
    public struct Reply: WireReply {
        public static let events = WireField("events", .array(.named("HistoryEntry")))
        public static let fields = [events]
        /// Wire `HistoryEntry`s, newest first.
        public var events: [JSONObject]
        public init(events: [JSONObject]) { self.events = events }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            events = try parameters.requiredObjectArray(Self.events) { $0.object }
        }
        public var json: JSONObject { Self.json([Self.events: .array(events.map { .object($0) })]) }
    }
}

public enum Watch: VarlinkMethod {
    public static let name = "Watch"
    public typealias Request = NoMembers
    public struct Reply: WireReply {
        public static let event = WireField("event", .named("Event"))
        public static let fields = [event]
        /// A wire `Event`.
        public var event: JSONObject
        public init(event: JSONObject) { self.event = event }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            event = try parameters.requiredObject(Self.event).object
        }
        public var json: JSONObject { Self.json([Self.event: .object(event)]) }
    }
}

public enum ListSounds: VarlinkMethod {
    public static let name = "ListSounds"
    public typealias Request = NoMembers
    public struct Reply: WireReply {
        public static let sounds = WireField("sounds", .array(.named("SoundFile")))
        public static let fields = [sounds]
        public var sounds: [Wire.SoundFile]
        public init(sounds: [Wire.SoundFile]) { self.sounds = sounds }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            sounds = try parameters.requiredObjectArray(Self.sounds, as: Wire.SoundFile.init(_:))
        }
        public var json: JSONObject { Self.json([Self.sounds: .array(sounds.map(\.json))]) }
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
    public struct Reply: WireReply {
        public static let path = WireField("path", .string), volume = WireField("volume", .int)
        public static let notHeard = WireField.optional("notHeard", .string)
        public static let fields = [path, volume, notHeard]
        /// The file played.
        public var path: String
        /// Percent, 1–100.
        public var volume: Int
        /// Why it is not being heard; `nil` when it plays.
        public var notHeard: String?
        public init(path: String, volume: Int, notHeard: String? = nil) {
            self.path = path
            self.volume = volume
            self.notHeard = notHeard
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            path = try parameters.requiredString(Self.path)
            volume = try parameters.requiredInt(Self.volume, in: SoundLevel.volumeRange)
            notHeard = try parameters.string(Self.notHeard)
        }
        public var json: JSONObject {
            var object = Self.json([Self.path: .string(path), Self.volume: JSONValue(volume)])
            if let notHeard { object[Self.notHeard] = .string(notHeard) }
            return object
        }
    }
}

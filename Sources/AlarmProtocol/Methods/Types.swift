// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// The types the `io.alarmd` interface defines, each member's wire name
/// written once, here. Item encoders build their objects straight from the
/// core values: the daemon encodes lists of 100,000 alarms.
public enum Wire {
    /// `Phase`: what an item is doing now.
    public enum Phase {
        /// A phase, typed, as a reply that names one holds it.
        public enum Name: String, CaseIterable, Sendable {
            case waiting, ringing, snoozed
        }

        public static let values = Name.allCases.map(\.rawValue)
        public static let waiting: JSONValue = "waiting", ringing: JSONValue = "ringing", snoozed: JSONValue = "snoozed"

        static func json(_ state: RingState?) -> JSONValue {
            switch state?.phase {
            case .ringing?: return ringing
            case .snoozed?: return snoozed
            default: return waiting
            }
        }
    }

    public enum SnoozeSettings: WireStruct {
        public static let enabled = WireField("enabled", .bool), minutes = WireField("minutes", .int), maxCount = WireField("maxCount", .int)
        public static let fields = [enabled, minutes, maxCount]
    }

    public enum Alarm: WireStruct {
        public static let id = WireField("id", .string), time = WireField("time", .string), days = WireField("days", .array(.string))
        public static let `repeat` = WireField("repeat", .string), label = WireField("label", .string), sound = WireField("sound", .string)
        public static let snooze = WireField("snooze", .named("SnoozeSettings")), ringSeconds = WireField("ringSeconds", .int)
        public static let enabled = WireField("enabled", .bool), skipNext = WireField("skipNext", .bool)
        public static let timeZone = WireField.optional("timeZone", .string), command = WireField("command", .array(.string))
        public static let volume = WireField.optional("volume", .int), fadeSeconds = WireField.optional("fadeSeconds", .int)
        public static let escalateCommand = WireField.optional("escalateCommand", .array(.string))
        public static let rule = WireField.optional("rule", .named("Rule")), pausedUntil = WireField.optional("pausedUntil", .string)
        public static let skipHolidays = WireField.optional("skipHolidays", .bool)
        public static let phase = WireField("phase", .named("Phase")), next = WireField.optional("next", .string)
        public static let skipping = WireField.optional("skipping", .string)
        public static let snoozeCount = WireField("snoozeCount", .int), created = WireField("created", .string), updated = WireField("updated", .string)
        public static let fields = [id, time, days, `repeat`, rule, pausedUntil, skipHolidays, label, sound, snooze, ringSeconds, volume, fadeSeconds, enabled,
                                    skipNext, timeZone, command, escalateCommand, phase, next, skipping, snoozeCount, created, updated]

        /// An `Alarm`, with its live state when the daemon has one (`nil` in
        /// exports); `skipping` is the occurrence `skipNext` passes over.
        public static func json(_ alarm: AlarmCore.Alarm, state: RingState?, next: Date?, skipping: Date? = nil, zone: Zone) -> JSONValue {
            .object(object(alarm, state: state, next: next, skipping: skipping, zone: zone))
        }

        /// The same, as the object a reply holds.
        public static func object(_ alarm: AlarmCore.Alarm, state: RingState?, next: Date?, skipping: Date? = nil, zone: Zone) -> JSONObject {
            var object = JSONObject([
                id: .string(alarm.id.lowercasedText),
                time: .string(alarm.time.description),
                days: .array(alarm.days.codes.map { .string($0) }),
                `repeat`: .string(alarm.repeatText),
                label: .string(alarm.label),
                sound: .string(alarm.sound.description),
                snooze: .object(JSONObject([SnoozeSettings.enabled: .bool(alarm.snooze.enabled), SnoozeSettings.minutes: JSONValue(alarm.snooze.minutes),
                                            SnoozeSettings.maxCount: JSONValue(alarm.snooze.maxCount)])),
                ringSeconds: JSONValue(alarm.ringSeconds),
                enabled: .bool(alarm.enabled),
                skipNext: .bool(alarm.skipNext),
                timeZone: alarm.timeZone.map { .string($0.identifier) } ?? .null,
                command: .array(alarm.command.map { .string($0) }),
            ])
            // Absent rather than null or empty when not set: most alarms have
            // none, and an export of 100,000 alarms is 5 MB smaller for it.
            if let value = alarm.volume { object[volume] = JSONValue(value) }
            if let value = alarm.fadeSeconds { object[fadeSeconds] = JSONValue(value) }
            if !alarm.escalateCommand.isEmpty { object[escalateCommand] = .array(alarm.escalateCommand.map { .string($0) }) }
            if let value = alarm.recurrence { object[rule] = Rule.json(value) }
            if let day = alarm.pausedUntil { object[pausedUntil] = .string(RecurrenceRule.dateText(day)) }
            if alarm.skipHolidays { object[skipHolidays] = .bool(true) }
            if let state {
                object[phase] = Phase.json(state)
                object[Self.next] = WireTime.json(next, in: zone)
                if let skipping { object[Self.skipping] = .string(WireTime.string(skipping, in: zone)) }
                object[snoozeCount] = JSONValue(state.snoozeCount)
            }
            object[created] = .string(WireTime.string(alarm.created, in: zone))
            object[updated] = .string(WireTime.string(alarm.updated, in: zone))
            return object
        }
    }

    public enum Reminder: WireStruct {
        public static let id = WireField("id", .string), title = WireField("title", .string), notes = WireField("notes", .string)
        public static let due = WireField.optional("due", .string), done = WireField("done", .bool), position = WireField("position", .int)
        public static let imagePath = WireField.optional("imagePath", .string), command = WireField("command", .array(.string))
        public static let allDay = WireField.optional("allDay", .bool), rule = WireField.optional("rule", .named("Rule"))
        public static let `repeat` = WireField.optional("repeat", .string), before = WireField.optional("before", .array(.int))
        public static let sound = WireField.optional("sound", .string), timer = WireField.optional("timer", .bool)
        public static let timerLeft = WireField.optional("timerLeft", .int)
        public static let phase = WireField("phase", .named("Phase")), next = WireField.optional("next", .string)
        public static let snoozeCount = WireField("snoozeCount", .int), created = WireField("created", .string), updated = WireField("updated", .string)
        public static let fields = [id, title, notes, due, allDay, rule, `repeat`, before, sound, timer, timerLeft, done, position, imagePath, command, phase, next,
                                    snoozeCount, created, updated]

        /// A `Reminder`, with its live state when the daemon has one.
        public static func json(_ reminder: AlarmCore.Reminder, state: RingState?, next: Date?, zone: Zone) -> JSONValue {
            .object(object(reminder, state: state, next: next, zone: zone))
        }

        /// The same, as the object a reply holds.
        public static func object(_ reminder: AlarmCore.Reminder, state: RingState?, next: Date?, zone: Zone) -> JSONObject {
            var object = JSONObject([
                id: .string(reminder.id.lowercasedText),
                title: .string(reminder.title),
                notes: .string(reminder.notes),
                due: WireTime.json(reminder.due, in: zone),
                done: .bool(reminder.done),
                position: JSONValue(reminder.position),
                imagePath: reminder.imagePath.map { .string($0) } ?? .null,
                command: .array(reminder.command.map { .string($0) }),
            ])
            if reminder.allDay { object[allDay] = .bool(true) }
            if let value = reminder.recurrence {
                object[rule] = Rule.json(value)
                object[`repeat`] = .string(value.displayText)
            }
            if !reminder.before.isEmpty { object[before] = .array(reminder.before.map { JSONValue($0) }) }
            if let value = reminder.sound { object[sound] = .string(value.description) }
            if reminder.isTimer { object[timer] = .bool(true) }
            if let left = reminder.timerLeft { object[timerLeft] = JSONValue(left) }
            if let state {
                object[phase] = Phase.json(state)
                object[Self.next] = WireTime.json(next, in: zone)
                object[snoozeCount] = JSONValue(state.snoozeCount)
            }
            object[created] = .string(WireTime.string(reminder.created, in: zone))
            object[updated] = .string(WireTime.string(reminder.updated, in: zone))
            return object
        }
    }

    /// `Firing`: one upcoming firing.
    public struct Firing: WireStruct, Sendable, Equatable {
        public static let id = WireField("id", .string), kind = WireField("kind", .string), title = WireField("title", .string), at = WireField("at", .string)
        public static let fields = [id, kind, title, at]

        /// The item's id, lowercase.
        public var id: String
        /// `alarm`, `reminder` or `timer`; kept as written, so a kind a
        /// newer daemon adds still shows.
        public var kind: String
        /// The alarm's label or the reminder's title.
        public var title: String
        /// Wire time of the firing.
        public var at: String

        public init(id: String, kind: String, title: String, at: String) {
            self.id = id
            self.kind = kind
            self.title = title
            self.at = at
        }

        /// `item`'s firing at `instant`, as the daemon sends it.
        public init(_ item: Item, at instant: Date, zone: Zone) {
            self.init(id: item.id.lowercasedText, kind: item.isTimer ? "timer" : item.kind.rawValue, title: item.title, at: WireTime.string(instant, in: zone))
        }

        public init(_ parameters: Parameters) throws(VarlinkError) {
            id = try parameters.requiredString(Self.id)
            kind = try parameters.requiredString(Self.kind)
            title = try parameters.requiredString(Self.title)
            at = try parameters.requiredString(Self.at)
        }

        public var json: JSONValue {
            .object(JSONObject([Self.id: .string(id), Self.kind: .string(kind), Self.title: .string(title), Self.at: .string(at)]))
        }
    }

    /// `Event`: something that happened to an item.
    public enum Event: WireStruct {
        public static let kind = WireField("kind", .string), id = WireField("id", .string), itemKind = WireField("itemKind", .string)
        public static let title = WireField("title", .string), scheduled = WireField.optional("scheduled", .string), actual = WireField("actual", .string)
        public static let snoozeCount = WireField("snoozeCount", .int), detail = WireField("detail", .string)
        public static let alarm = WireField.optional("alarm", .named("Alarm")), reminder = WireField.optional("reminder", .named("Reminder"))
        public static let fields = [kind, id, itemKind, title, scheduled, actual, snoozeCount, detail, alarm, reminder]

        public static func json(kind eventKind: String, item: Item, scheduled instant: Date?, actual happened: Date, snoozeCount count: Int, detail text: String, zone: Zone) -> JSONValue {
            var object = JSONObject([
                kind: .string(eventKind), id: .string(item.id.lowercasedText), itemKind: .string(item.kind.rawValue), title: .string(item.title),
                scheduled: WireTime.json(instant, in: zone), actual: .string(WireTime.string(happened, in: zone)),
                snoozeCount: JSONValue(count), detail: .string(text),
            ])
            // The item as it is after the event (an edit's new fields, a one-shot alarm switched off).
            switch item {
            case .alarm(let value): object[alarm] = Alarm.json(value, state: nil, next: nil, zone: zone)
            case .reminder(let value): object[reminder] = Reminder.json(value, state: nil, next: nil, zone: zone)
            }
            return .object(object)
        }
    }

    /// `HistoryEntry`: one line of the history (fired, snoozed, dismissed,
    /// timed out, skipped, missed, completed, escalated).
    public enum HistoryEntry: WireStruct {
        public static let kind = WireField("kind", .string), id = WireField("id", .string), itemKind = WireField("itemKind", .string)
        public static let title = WireField.optional("title", .string), scheduled = WireField.optional("scheduled", .string)
        public static let actual = WireField("actual", .string), detail = WireField("detail", .string)
        public static let fields = [kind, id, itemKind, title, scheduled, actual, detail]

        /// `item` is the item as it is now, `nil` once removed.
        public static func json(_ event: AlarmCore.HistoryEvent, item: Item?, zone: Zone) -> JSONValue {
            .object(object(event, item: item, zone: zone))
        }

        /// The same, as the object a reply holds.
        public static func object(_ event: AlarmCore.HistoryEvent, item: Item?, zone: Zone) -> JSONObject {
            var object = JSONObject([
                kind: .string(event.event.rawValue), id: .string(event.itemID.lowercasedText), itemKind: .string(event.itemKind.rawValue),
                scheduled: WireTime.json(event.scheduled, in: zone), actual: .string(WireTime.string(event.actual, in: zone)), detail: .string(event.detail),
            ])
            object[title] = item.map { .string($0.title) } ?? .null
            return object
        }
    }

    /// `SyncState`: CalDAV sync as the last round left it.
    public struct SyncState: WireStruct, Sendable, Equatable {
        public static let server = WireField("server", .string), lastSync = WireField.optional("lastSync", .string)
        public static let error = WireField.optional("error", .string), pending = WireField("pending", .int)
        public static let fields = [server, lastSync, error, pending]

        /// The task collection's address (never with a password).
        public var server: String
        /// Wire time of the last round, if one ran.
        public var lastSync: String?
        /// Why the last round failed; `nil` when it went through.
        public var error: String?
        /// Changes made here that the server does not have yet.
        public var pending: Int

        public init(server: String, lastSync: String?, error: String?, pending: Int) {
            self.server = server
            self.lastSync = lastSync
            self.error = error
            self.pending = pending
        }

        public init(_ parameters: Parameters) throws(VarlinkError) {
            server = try parameters.requiredString(Self.server)
            lastSync = try parameters.string(Self.lastSync)
            error = try parameters.string(Self.error)
            pending = try parameters.requiredInt(Self.pending, in: Self.counts)
        }

        public var json: JSONValue {
            .object(JSONObject([Self.server: .string(server), Self.lastSync: lastSync.map(JSONValue.string) ?? .null,
                                Self.error: error.map(JSONValue.string) ?? .null, Self.pending: JSONValue(pending)]))
        }
    }

    /// `Wake`: how the machine is set to wake from suspend for the next alarm.
    public struct Wake: WireStruct, Sendable, Equatable {
        public static let method = WireField("method", .string), next = WireField.optional("next", .string)
        public static let reason = WireField.optional("reason", .string)
        public static let fields = [method, next, reason]

        /// `timerfd`, `user-timer`, `helper` or `none`.
        public var method: String
        /// Wire time of the wake-up, if one is set.
        public var next: String?
        public var reason: String?

        public init(method: String, next: String?, reason: String?) {
            self.method = method
            self.next = next
            self.reason = reason
        }

        public init(_ parameters: Parameters) throws(VarlinkError) {
            method = try parameters.requiredString(Self.method)
            next = try parameters.string(Self.next)
            reason = try parameters.string(Self.reason)
        }

        public var json: JSONValue {
            .object(JSONObject([Self.method: .string(method), Self.next: next.map(JSONValue.string) ?? .null, Self.reason: reason.map(JSONValue.string) ?? .null]))
        }
    }

    /// `SoundFile`: a sound the daemon can play.
    public struct SoundFile: WireStruct, Sendable, Equatable {
        public static let name = WireField("name", .string), theme = WireField("theme", .string), path = WireField("path", .string)
        public static let fields = [name, theme, path]

        public let name: String
        public let theme: String
        public let path: String

        public init(name: String, theme: String, path: String) {
            self.name = name
            self.theme = theme
            self.path = path
        }

        public init(_ parameters: Parameters) throws(VarlinkError) {
            name = try parameters.requiredString(Self.name)
            theme = try parameters.requiredString(Self.theme)
            path = try parameters.requiredString(Self.path)
        }

        public var json: JSONValue { .object(JSONObject([Self.name: .string(name), Self.theme: .string(theme), Self.path: .string(path)])) }
    }
}

/// `AlarmFields`: the optional fields of an alarm to set, read and checked;
/// `nil` means "leave as is".
public struct AlarmFields: WireStruct, Sendable {
    public static let time = WireField.optional("time", .string), days = WireField.optional("days", .array(.string))
    public static let label = WireField.optional("label", .string), sound = WireField.optional("sound", .string)
    public static let snooze = WireField.optional("snooze", .bool), snoozeMinutes = WireField.optional("snoozeMinutes", .int)
    public static let maxSnoozes = WireField.optional("maxSnoozes", .int), ringSeconds = WireField.optional("ringSeconds", .int)
    public static let enabled = WireField.optional("enabled", .bool), timeZone = WireField.optional("timeZone", .string)
    public static let command = WireField.optional("command", .array(.string))
    public static let volume = WireField.optional("volume", .int), fadeSeconds = WireField.optional("fadeSeconds", .int)
    public static let escalateCommand = WireField.optional("escalateCommand", .array(.string))
    public static let rule = WireField.optional("rule", .named("Rule")), pausedUntil = WireField.optional("pausedUntil", .string)
    public static let skipHolidays = WireField.optional("skipHolidays", .bool)
    public static let fields = [time, days, rule, label, sound, snooze, snoozeMinutes, maxSnoozes, ringSeconds, volume, fadeSeconds, enabled, timeZone, command,
                                escalateCommand, pausedUntil, skipHolidays]
    /// The values that return an alarm to the configuration's volume and fade.
    public static let defaultVolume = 0, defaultFade = -1

    public var time: TimeOfDay?
    public var days: RepeatDays?
    public var label: String?
    public var sound: Sound?
    public var snoozeEnabled: Bool?
    public var snoozeMinutes: Int?
    public var maxSnoozes: Int?
    public var ringSeconds: Int?
    /// `.some(nil)` returns to `[Sound] Volume=`.
    public var volume: Int??
    /// `.some(nil)` returns to `[Sound] Fade=`.
    public var fadeSeconds: Int??
    public var enabled: Bool?
    /// `.some(nil)` un-pins the alarm.
    public var timeZone: Zone??
    /// `[]` removes the command.
    public var command: [String]?
    /// `[]` removes the escalation command.
    public var escalateCommand: [String]?
    /// `.some(nil)` removes the rule (`rule: {}` on the wire). A rule and
    /// repeat days are two ways to say how an alarm repeats: setting one
    /// clears the other.
    public var rule: RecurrenceRule??
    /// `.some(nil)` ends the pause (`pausedUntil: ""`).
    public var pausedUntil: Int64??
    public var skipHolidays: Bool?

    public init() {}

    public static func parse(_ parameters: Parameters) throws(VarlinkError) -> AlarmFields {
        try parameters.allowOnly(fields)
        var result = AlarmFields()
        if let text = try parameters.string(time) {
            result.time = try parameters.validated(time) { () throws(ValidationError) in try TimeOfDay.parse(text) }
        }
        if let codes = try parameters.stringArray(days) {
            result.days = try parameters.validated(days) { () throws(ValidationError) in try RepeatDays.fromCodes(codes) }
        }
        if let nested = try parameters.object(rule) {
            if nested.object.isEmpty {
                result.rule = .some(nil)
            } else {
                guard result.days == nil else {
                    throw .invalidParameter(parameters.path + rule.name, "cannot be given with days (a rule names its weekdays in byDay), got both")
                }
                result.rule = .some(try Wire.Rule.parse(nested))
            }
        }
        if let text = try parameters.string(pausedUntil) {
            result.pausedUntil = .some(text.isEmpty ? nil : try Wire.Rule.date(parameters, pausedUntil, text))
        }
        result.skipHolidays = try parameters.bool(skipHolidays)
        result.label = try parameters.string(label)
        if let text = try parameters.string(sound) {
            result.sound = try parameters.validated(sound) { () throws(ValidationError) in try Sound.parse(text) }
        }
        result.snoozeEnabled = try parameters.bool(snooze)
        result.snoozeMinutes = try parameters.int(snoozeMinutes, in: SnoozeSettings.minutesRange)
        result.maxSnoozes = try parameters.int(maxSnoozes, in: SnoozeSettings.maxCountRange)
        result.ringSeconds = try parameters.int(ringSeconds, in: Alarm.ringSecondsRange)
        if let percent = try parameters.int(volume, in: defaultVolume...SoundLevel.volumeRange.upperBound) {
            result.volume = .some(percent == defaultVolume ? nil : percent)
        }
        if let seconds = try parameters.int(fadeSeconds, in: defaultFade...SoundLevel.fadeSecondsRange.upperBound) {
            result.fadeSeconds = .some(seconds == defaultFade ? nil : seconds)
        }
        result.enabled = try parameters.bool(enabled)
        if let name = try parameters.string(timeZone) {
            if name.isEmpty {
                result.timeZone = .some(nil)
            } else {
                guard let zone = ZoneName.zone(name) else {
                    throw .invalidParameter(parameters.path + timeZone.name, "must be an IANA time zone such as Europe/Berlin, got \(ValidationError.quoted(name))")
                }
                result.timeZone = .some(zone)
            }
        }
        if let argv = try parameters.stringArray(command) {
            try parameters.validated(command) { () throws(ValidationError) in try CommandRules.check(argv) }
            result.command = argv
        }
        if let argv = try parameters.stringArray(escalateCommand) {
            try parameters.validated(escalateCommand) { () throws(ValidationError) in try CommandRules.check(argv, field: escalateCommand.name) }
            result.escalateCommand = argv
        }
        return result
    }

    /// The fields given, as the interface writes them. A sound is sent as
    /// written, for the daemon to judge.
    public var json: JSONObject {
        var object = JSONObject()
        object[Self.time] = time.map { .string($0.description) }
        object[Self.days] = days.map { .array($0.codes.map { .string($0) }) }
        object[Self.label] = label.map { .string($0) }
        object[Self.sound] = sound.map { .string($0.description) }
        object[Self.snooze] = snoozeEnabled.map { .bool($0) }
        object[Self.snoozeMinutes] = snoozeMinutes.map { JSONValue($0) }
        object[Self.maxSnoozes] = maxSnoozes.map { JSONValue($0) }
        object[Self.ringSeconds] = ringSeconds.map { JSONValue($0) }
        object[Self.volume] = volume.map { JSONValue($0 ?? Self.defaultVolume) }
        object[Self.fadeSeconds] = fadeSeconds.map { JSONValue($0 ?? Self.defaultFade) }
        object[Self.enabled] = enabled.map { .bool($0) }
        object[Self.timeZone] = timeZone.map { .string($0?.identifier ?? "") }
        object[Self.command] = command.map { .array($0.map { .string($0) }) }
        object[Self.escalateCommand] = escalateCommand.map { .array($0.map { .string($0) }) }
        object[Self.rule] = rule.map { $0.map(Wire.Rule.json) ?? .object(JSONObject()) }
        object[Self.pausedUntil] = pausedUntil.map { .string($0.map(RecurrenceRule.dateText) ?? "") }
        object[Self.skipHolidays] = skipHolidays.map { .bool($0) }
        return object
    }

    /// Writes the given fields into `alarm`.
    public func apply(to alarm: inout Alarm) {
        if let time { alarm.time = time }
        if let days {
            alarm.days = days
            alarm.recurrence = nil
        }
        if let rule {
            alarm.recurrence = rule
            if rule != nil { alarm.days = .never }
        }
        if let pausedUntil { alarm.pausedUntil = pausedUntil }
        if let skipHolidays { alarm.skipHolidays = skipHolidays }
        if let label { alarm.label = label }
        if let sound { alarm.sound = sound }
        if let snoozeEnabled { alarm.snooze.enabled = snoozeEnabled }
        if let snoozeMinutes { alarm.snooze.minutes = snoozeMinutes }
        if let maxSnoozes { alarm.snooze.maxCount = maxSnoozes }
        if let ringSeconds { alarm.ringSeconds = ringSeconds }
        if let volume { alarm.volume = volume }
        if let fadeSeconds { alarm.fadeSeconds = fadeSeconds }
        if let enabled { alarm.enabled = enabled }
        if let timeZone { alarm.timeZone = timeZone }
        if let command { alarm.command = command }
        if let escalateCommand { alarm.escalateCommand = escalateCommand }
    }
}

extension Sound {
    /// A sound as a client names it, unchecked: the daemon judges it.
    public init(wire text: String) { self = text == "none" ? .none : text.hasPrefix("/") ? .file(text) : .themed(text) }
}

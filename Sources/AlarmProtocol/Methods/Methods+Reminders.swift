// SPDX-License-Identifier: Apache-2.0
import AlarmCore

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
    public static let timerLeft = WireField.optional("timerLeft", .int)
    /// The members after the title, as every reminder method lists them.
    static let optionalFields = [notes, due, on, rule, before, sound, timer, timerLeft, imagePath, command]

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
    /// Seconds left on a paused timer; `.some(nil)` (`0`) clears it, as a
    /// resumed timer does.
    public var timerLeft: Int??

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
        if let left = try parameters.int(Self.timerLeft, in: 0...Reminder.timerLeftRange.upperBound) { timerLeft = .some(left == 0 ? nil : left) }
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
        object[Self.timerLeft] = timerLeft.map { JSONValue($0 ?? 0) }
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

public enum GetReminder: VarlinkMethod {
    public static let name = "GetReminder"
    public typealias Request = IDRequest
    public typealias Reply = ReminderReply
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

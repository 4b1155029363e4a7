// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// The `io.alarmd` methods: each one's parameters (`Request`, read with the
/// checks and messages the daemon gives, written by alarmctl and the app) and
/// its reply (`Reply`, written by the daemon, read by alarmctl and the app),
/// both typed. By area: Methods+Alarms (alarms, ringing), Methods+Reminders,
/// Methods+Daemon (state, history, events, sounds), Methods+Documents
/// (export, import, sync).
///
/// Replies carry an `Alarm`, `Reminder`, `HistoryEntry` or `Event` as its
/// object (`JSONObject`): each client has its own reader for those (the app's
/// `AlarmItem`, alarmctl's `AlarmView`), lenient or strict as it needs, and
/// the daemon writes them straight from the core values (`Wire.Alarm.object`),
/// which lists of 100,000 items need.

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

/// `(alarm: Alarm)`: the alarm as a change left it.
public struct AlarmReply: WireReply {
    public static let alarm = WireField("alarm", .named("Alarm"))
    public static let fields = [alarm]
    /// A wire `Alarm`.
    public var alarm: JSONObject
    public init(alarm: JSONObject) { self.alarm = alarm }
    public init(_ parameters: Parameters) throws(VarlinkError) {
        alarm = try parameters.requiredObject(Self.alarm).object
    }
    public var json: JSONObject { Self.json([Self.alarm: .object(alarm)]) }
}

/// `(reminder: Reminder)`: the reminder as a change left it.
public struct ReminderReply: WireReply {
    public static let reminder = WireField("reminder", .named("Reminder"))
    public static let fields = [reminder]
    /// A wire `Reminder`.
    public var reminder: JSONObject
    public init(reminder: JSONObject) { self.reminder = reminder }
    public init(_ parameters: Parameters) throws(VarlinkError) {
        reminder = try parameters.requiredObject(Self.reminder).object
    }
    public var json: JSONObject { Self.json([Self.reminder: .object(reminder)]) }
}

/// `(reminders: []Reminder)`: reminders in their manual order.
public struct RemindersReply: WireReply {
    public static let reminders = WireField("reminders", .array(.named("Reminder")))
    public static let fields = [reminders]
    /// Wire `Reminder`s.
    public var reminders: [JSONObject]
    public init(reminders: [JSONObject]) { self.reminders = reminders }
    public init(_ parameters: Parameters) throws(VarlinkError) {
        reminders = try parameters.requiredObjectArray(Self.reminders) { $0.object }
    }
    public var json: JSONObject { Self.json([Self.reminders: .array(reminders.map { .object($0) })]) }
}

/// `(id: string, title: string)`: the item a change acted on, named, so a
/// client can say which (`Removed alarm "Work" (80a7c2d1)`).
public struct ItemNamed: WireReply {
    public static let id = WireField("id", .string), title = WireField("title", .string)
    public static let fields = [id, title]
    /// The full id, lowercase.
    public var id: String
    /// The alarm's label or the reminder's title.
    public var title: String
    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
    public init(_ item: Item) { self.init(id: item.id.lowercasedText, title: item.title) }
    public init(_ parameters: Parameters) throws(VarlinkError) {
        id = try parameters.requiredString(Self.id)
        title = try parameters.requiredString(Self.title)
    }
    public var json: JSONObject { Self.json([Self.id: .string(id), Self.title: .string(title)]) }
}

extension InterfaceDefinition {
    /// Every method, for the check against the interface definition.
    public static var methodTypes: [any VarlinkMethod.Type] { [
    ListAlarms.self, GetAlarm.self, AddAlarm.self, UpdateAlarm.self, RemoveAlarm.self, SetAlarmEnabled.self, SkipNext.self, Snooze.self, Dismiss.self,
    AddReminder.self, ListReminders.self, GetReminder.self, UpdateReminder.self, CompleteReminder.self, MoveReminder.self, RemoveReminder.self,
    Upcoming.self, Status.self, History.self, Watch.self, ListSounds.self, PlaySound.self, Export.self, Import.self,
    ExportCalendar.self, ImportCalendar.self, Sync.self,
    ] }
}

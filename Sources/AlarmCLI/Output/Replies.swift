// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmLocale
import AlarmProtocol

/// Read access to the objects a typed reply carries as they are (`Alarm`,
/// `Reminder`, `HistoryEntry`, `Event`, the export document). Lenient on
/// purpose: a missing or mistyped member of one shows as empty rather than
/// failing the command.
struct ReplyObject {
    let object: JSONObject

    init(_ object: JSONObject) { self.object = object }
    init(_ value: JSONValue?) { object = value?.objectValue ?? [:] }

    func string(_ field: WireField) -> String { object[field]?.stringValue ?? "" }
    func optionalString(_ field: WireField) -> String? { object[field]?.stringValue }
    func bool(_ field: WireField) -> Bool { object[field]?.boolValue ?? false }
    func int(_ field: WireField) -> Int { object[field]?.intValue ?? 0 }
    func optionalInt(_ field: WireField) -> Int? { object[field]?.intValue }
    func nested(_ field: WireField) -> ReplyObject { ReplyObject(object[field]) }
    func list(_ field: WireField) -> [ReplyObject] { (object[field]?.arrayValue ?? []).map { ReplyObject($0) } }
    func strings(_ field: WireField) -> [String] { (object[field]?.arrayValue ?? []).compactMap(\.stringValue) }
}

/// The first 8 characters of an id, as tables show it; enough to be unique
/// among a person's items and accepted back as a prefix.
func shortID(_ id: String) -> String { String(id.prefix(8)) }

/// A wire `Rule` in words in the reader's language; `nil` when it does not
/// read as one (the caller shows the daemon's English instead).
private func ruleText(_ rule: JSONObject) -> String? {
    (try? Wire.Rule.parse(Parameters(rule)))?.text(in: userLanguage)
}

/// An `Alarm` from a reply.
struct AlarmView {
    let reply: ReplyObject
    init(_ reply: ReplyObject) { self.reply = reply }
    init(_ object: JSONObject) { reply = ReplyObject(object) }

    var id: String { reply.string(Wire.Alarm.id) }
    var time: String { reply.string(Wire.Alarm.time) }
    var label: String { reply.string(Wire.Alarm.label) }
    /// The repeat in the reader's language, from the rule or the days (the
    /// wire's `repeat` text is English, for scripts). The days it skips are
    /// not counted here ("except 7 dates"): they are said as dates
    /// (``ItemFormat/skippedDays(_:)``).
    var repeatText: String {
        if let rule = reply.object[Wire.Alarm.rule]?.objectValue, var parsed = try? Wire.Rule.parse(Parameters(rule)) {
            parsed.exceptions = []
            return parsed.text(in: userLanguage)
        }
        if userLanguage.isSource { return reply.string(Wire.Alarm.repeat) }
        guard let days = try? RepeatDays.fromCodes(reply.strings(Wire.Alarm.days)) else { return reply.string(Wire.Alarm.repeat) }
        return days.text(in: userLanguage)
    }
    var isOneShot: Bool { reply.strings(Wire.Alarm.days).isEmpty && reply.object[Wire.Alarm.rule] == nil }
    /// The days from `today` on that its repeat passes over (what `skip DAYS`
    /// and a pause that starts later leave); none for a one-off.
    func skippedDays(from today: Int64) -> Set<Int64> {
        guard let object = reply.object[Wire.Alarm.rule]?.objectValue, let rule = try? Wire.Rule.parse(Parameters(object)) else { return [] }
        return rule.exceptions.filter { $0 >= today }
    }
    /// Where it rings: its own zone, or the system's.
    func zone(system: Zone) -> Zone { timeZone.flatMap { Zone(identifier: $0) } ?? system }
    /// Rings once: at its time's next occurrence, or on its one date (`--date`).
    var ringsOnce: Bool {
        if isOneShot { return true }
        guard let object = reply.object[Wire.Alarm.rule]?.objectValue, let rule = try? Wire.Rule.parse(Parameters(object)) else { return false }
        return rule.isSingleDay
    }
    var pausedUntil: String? { reply.optionalString(Wire.Alarm.pausedUntil) }
    var skipHolidays: Bool { reply.bool(Wire.Alarm.skipHolidays) }
    var enabled: Bool { reply.bool(Wire.Alarm.enabled) }
    var skipNext: Bool { reply.bool(Wire.Alarm.skipNext) }
    var timeZone: String? { reply.optionalString(Wire.Alarm.timeZone) }
    var phase: String { reply.string(Wire.Alarm.phase) }
    var next: String? { reply.optionalString(Wire.Alarm.next) }
    /// With skipNext, the occurrence passed over (a daemon that does not say: `nil`).
    var skipping: String? { reply.optionalString(Wire.Alarm.skipping) }

    /// `Work, Weekdays`, or just the label for a one-shot alarm, as a phone lists it.
    var listLine: String { isOneShot ? label : Lf("%1$s, %2$s", label, repeatText) }
}

/// A `Reminder` from a reply.
struct ReminderView {
    let reply: ReplyObject
    init(_ reply: ReplyObject) { self.reply = reply }
    init(_ object: JSONObject) { reply = ReplyObject(object) }

    var id: String { reply.string(Wire.Reminder.id) }
    var title: String { reply.string(Wire.Reminder.title) }
    var notes: String { reply.string(Wire.Reminder.notes) }
    var due: String? { reply.optionalString(Wire.Reminder.due) }
    var done: Bool { reply.bool(Wire.Reminder.done) }
    var position: Int { reply.int(Wire.Reminder.position) }
    var imagePath: String? { reply.optionalString(Wire.Reminder.imagePath) }
    var allDay: Bool { reply.bool(Wire.Reminder.allDay) }
    var isTimer: Bool { reply.bool(Wire.Reminder.timer) }
    /// Seconds left on a paused timer; `nil` while it runs.
    var timerLeft: Int? { reply.object[Wire.Reminder.timerLeft]?.intValue }
    /// The repeat in the reader's language; `nil` when it does not repeat.
    var repeatText: String? {
        guard let rule = reply.object[Wire.Reminder.rule]?.objectValue else { return nil }
        if userLanguage.isSource { return reply.optionalString(Wire.Reminder.repeat) }
        return ruleText(rule) ?? reply.optionalString(Wire.Reminder.repeat)
    }
    var before: [Int] { (reply.object[Wire.Reminder.before]?.arrayValue ?? []).compactMap(\.intValue) }
    var phase: String { reply.string(Wire.Reminder.phase) }
    var next: String? { reply.optionalString(Wire.Reminder.next) }
}

import AlarmProtocol

/// Read access to the interface's types in a reply. Lenient on purpose: a
/// missing or mistyped member shows as empty rather than failing the command,
/// and `--json` always shows exactly what the daemon sent.
struct ReplyObject {
    let object: JSONObject

    init(_ object: JSONObject) { self.object = object }
    init(_ value: JSONValue?) { object = value?.objectValue ?? [:] }

    func string(_ key: String) -> String { object[key]?.stringValue ?? "" }
    func optionalString(_ key: String) -> String? { object[key]?.stringValue }
    func bool(_ key: String) -> Bool { object[key]?.boolValue ?? false }
    func int(_ key: String) -> Int { object[key]?.intValue ?? 0 }
    func nested(_ key: String) -> ReplyObject { ReplyObject(object[key]) }
    func list(_ key: String) -> [ReplyObject] { (object[key]?.arrayValue ?? []).map { ReplyObject($0) } }
    func strings(_ key: String) -> [String] { (object[key]?.arrayValue ?? []).compactMap(\.stringValue) }
}

/// The first 8 characters of an id, as tables show it; enough to be unique
/// among a person's items and accepted back as a prefix.
func shortID(_ id: String) -> String { String(id.prefix(8)) }

/// An `Alarm` from a reply.
struct AlarmView {
    let reply: ReplyObject
    init(_ reply: ReplyObject) { self.reply = reply }

    var id: String { reply.string("id") }
    var time: String { reply.string("time") }
    var label: String { reply.string("label") }
    var repeatText: String { reply.string("repeat") }
    var isOneShot: Bool { reply.strings("days").isEmpty }
    var enabled: Bool { reply.bool("enabled") }
    var skipNext: Bool { reply.bool("skipNext") }
    var timeZone: String? { reply.optionalString("timeZone") }
    var phase: String { reply.string("phase") }
    var next: String? { reply.optionalString("next") }

    /// `Work, Weekdays`, or just the label for a one-shot alarm, as a phone lists it.
    var listLine: String { isOneShot ? label : "\(label), \(repeatText)" }
}

/// A `Reminder` from a reply.
struct ReminderView {
    let reply: ReplyObject
    init(_ reply: ReplyObject) { self.reply = reply }

    var id: String { reply.string("id") }
    var title: String { reply.string("title") }
    var notes: String { reply.string("notes") }
    var due: String? { reply.optionalString("due") }
    var done: Bool { reply.bool("done") }
    var position: Int { reply.int("position") }
    var imagePath: String? { reply.optionalString("imagePath") }
    var phase: String { reply.string("phase") }
    var next: String? { reply.optionalString("next") }
}

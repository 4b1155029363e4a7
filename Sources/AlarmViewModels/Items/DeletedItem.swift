// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol

/// An alarm or to-do as the daemon held it just before it was deleted, so
/// that undo puts it back whole: its id, every setting (a pinned zone, a
/// calendar repeat and its skipped days, commands, notices, sound) and, for
/// a to-do, its place in the list. Not a new item made from what a row
/// shows: a row leaves most of that out.
public struct DeletedItem: Sendable {
    public enum Kind: Sendable { case alarm, reminder }

    public let kind: Kind
    /// The full id, which the item has again once restored.
    public let id: String
    /// The label or title, for the toast.
    public let title: String
    /// A to-do's place in the list (0-based); `nil` for an alarm.
    public let position: Int?
    /// The daemon's own description of it (`GetAlarm`, `GetReminder`).
    private let object: JSONObject

    /// From `GetAlarm`'s reply; `nil` for one without an id.
    public init?(alarm object: JSONObject) {
        guard let id = object[Wire.Alarm.id.name]?.stringValue else { return nil }
        kind = .alarm
        self.id = id
        title = object[Wire.Alarm.label.name]?.stringValue ?? ""
        position = nil
        self.object = object
    }

    /// From `GetReminder`'s reply; `nil` for one without an id.
    public init?(reminder object: JSONObject) {
        guard let id = object[Wire.Reminder.id.name]?.stringValue else { return nil }
        kind = .reminder
        self.id = id
        title = object[Wire.Reminder.title.name]?.stringValue ?? ""
        position = object[Wire.Reminder.position.name]?.intValue
        self.object = object
    }

    /// Where undo moves a to-do back: its place, or the last one when the
    /// list has grown shorter since. `count` is how many reminders there
    /// are, timers and the restored one included; `nil` for an alarm.
    public func place(among count: Int) -> Int? {
        position.map { min($0, max(0, count - 1)) }
    }

    /// The same, counted from the daemon's `Status` (its to-dos and timers).
    public func place(in status: Status.Reply) -> Int? {
        place(among: status.reminders + (status.timers ?? 0))
    }

    /// `Import` of the item alone, merged by id: it comes back as it was.
    /// A to-do comes back last; ``place(among:)`` is where to move it.
    public var restoreRequest: Import.Request {
        let document = kind == .alarm ? ExportDocument.restoring(alarms: [object]) : ExportDocument.restoring(reminders: [object])
        return Import.Request(document: document, merge: true)
    }
}

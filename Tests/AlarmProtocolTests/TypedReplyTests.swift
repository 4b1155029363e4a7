// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import Foundation
import Testing

/// The typed replies of `io.alarmd`: what the daemon writes reads back as it
/// was written, byte for byte; a member missing or of another type is refused
/// naming it, as a request's would be; and what older daemons left out, and
/// clients did without, still reads.
@Suite struct TypedReplyTests {
    /// One method's reply: written, and read back and written again.
    struct Sample: Sendable, CustomStringConvertible {
        let method: String
        let json: JSONObject
        let fields: [WireField]
        let readBack: @Sendable (JSONObject) throws(VarlinkError) -> JSONObject
        /// Members the interface requires that an older daemon left out.
        let tolerated: Set<String>

        var description: String { method }
    }

    static func sample<M: VarlinkMethod>(_ method: M.Type, _ reply: M.Reply, tolerating: Set<String> = []) -> Sample {
        Sample(method: M.name, json: reply.json, fields: M.Reply.fields,
               readBack: { (object) throws(VarlinkError) in try M.Reply(Parameters(object)).json }, tolerated: tolerating)
    }

    static let created = Date(timeIntervalSince1970: 1_772_000_000)
    static let alarmID = UUID(uuidString: "1a2b3c4d-0000-4000-8000-000000000001")!
    static let alarm = Alarm(id: alarmID, time: try! TimeOfDay(hour: 7, minute: 30), days: .weekdays, label: "Work", created: created)
    static let reminder = Reminder(id: UUID(uuidString: "abcd0001-0000-4000-8000-000000000011")!, title: "Buy milk", position: 0, created: created)
    static let alarmObject = Wire.Alarm.object(alarm, state: RingState(anchor: created), next: created.addingTimeInterval(3600), zone: .utc)
    static let reminderObject = Wire.Reminder.object(reminder, state: RingState(anchor: created), next: nil, zone: .utc)
    static let firing = Wire.Firing(.alarm(alarm), at: created.addingTimeInterval(3600), zone: .utc)
    static let history = Wire.HistoryEntry.object(HistoryEvent(itemID: alarmID, itemKind: .alarm, event: .fired, scheduled: created, actual: created),
                                                  item: .alarm(alarm), zone: .utc)
    static let event = Wire.Event.json(kind: "fired", item: .alarm(alarm), scheduled: created, actual: created, snoozeCount: 0, detail: "", zone: .utc).objectValue!
    static let sync = Wire.SyncState(server: "https://dav.example/tasks/", lastSync: "2026-02-25T06:13:20+00:00", error: nil, pending: 2)
    static let importReply = Import.Reply(alarms: 1, reminders: 0, added: 1, updated: 0, removed: 0,
                                          changes: [ImportChange(change: .added, id: alarmID.uuidString.lowercased(), itemKind: .alarm, title: "Work")])

    /// One sample per method, each member given (optional ones too).
    static let samples: [Sample] = [
        sample(ListAlarms.self, ListAlarms.Reply(alarms: [alarmObject])),
        sample(GetAlarm.self, GetAlarm.Reply(alarm: alarmObject, warnings: ["the output \"Speakers\" is muted"]), tolerating: ["warnings"]),
        sample(AddAlarm.self, AlarmReply(alarm: alarmObject)),
        sample(UpdateAlarm.self, AlarmReply(alarm: alarmObject)),
        sample(RemoveAlarm.self, ItemNamed(.alarm(alarm))),
        sample(SetAlarmEnabled.self, AlarmReply(alarm: alarmObject)),
        sample(SkipNext.self, AlarmReply(alarm: alarmObject)),
        sample(Snooze.self, Snooze.Reply(id: alarmID.uuidString.lowercased(), title: "Work", until: "2026-02-25T06:22:20+00:00", snoozeCount: 1),
               tolerating: ["until"]),
        sample(Dismiss.self, ItemNamed(id: alarmID.uuidString.lowercased(), title: "Work")),
        sample(AddReminder.self, ReminderReply(reminder: reminderObject)),
        sample(ListReminders.self, RemindersReply(reminders: [reminderObject])),
        sample(GetReminder.self, ReminderReply(reminder: reminderObject)),
        sample(UpdateReminder.self, ReminderReply(reminder: reminderObject)),
        sample(CompleteReminder.self, ReminderReply(reminder: reminderObject)),
        sample(MoveReminder.self, RemindersReply(reminders: [reminderObject])),
        sample(RemoveReminder.self, ItemNamed(.reminder(reminder))),
        sample(Upcoming.self, Upcoming.Reply(firings: [firing])),
        sample(Status.self, Status.Reply(version: "0.9.0", alarms: 1, reminders: 1, timers: 1, ringing: [alarmID.uuidString.lowercased()], next: firing, timeZone: "UTC",
                                         wake: Wire.Wake(method: "timerfd", next: "2026-02-25T07:29:00+00:00", reason: nil), linger: true,
                                         warnings: ["no notification will show (no server)"], sync: sync),
               tolerating: ["wake", "warnings"]),
        sample(History.self, History.Reply(events: [history])),
        sample(Watch.self, Watch.Reply(event: event)),
        sample(ListSounds.self, ListSounds.Reply(sounds: [Wire.SoundFile(name: "bell", theme: "freedesktop", path: "/usr/share/sounds/freedesktop/stereo/bell.oga")])),
        sample(PlaySound.self, PlaySound.Reply(path: "/usr/share/sounds/freedesktop/stereo/bell.oga", volume: 60, notHeard: "the sound player aplay exited with status 1")),
        sample(Export.self, Export.Reply(document: ExportDocument.object(alarms: [alarm], reminders: [reminder], zone: .utc))),
        sample(Import.self, importReply),
        sample(ExportCalendar.self, ExportCalendar.Reply(calendar: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n")),
        sample(ImportCalendar.self, importReply),
        sample(Sync.self, Sync.Reply(state: sync, received: 3, sent: 1, removedHere: 0, removedThere: 2, conflicts: 1)),
    ]

    @Test func everyMethodHasASample() {
        let methods = InterfaceDefinition.methodTypes.map { $0.name }
        #expect(Self.samples.map(\.method) == methods)
    }

    @Test(arguments: samples)
    func aReplyReadsBackAsWritten(sample: Sample) throws {
        #expect(Set(sample.json.keys) == Set(sample.fields.map(\.name)), "the sample gives every member")
        let again = try sample.readBack(sample.json)
        #expect(JSONValue.object(again).jsonText == JSONValue.object(sample.json).jsonText)
    }

    @Test(arguments: samples)
    func aMissingRequiredMemberIsRefusedByName(sample: Sample) throws {
        for field in sample.fields {
            var object = sample.json
            object[field.name] = nil
            let error = varlinkError { () throws(VarlinkError) in try sample.readBack(object) }
            if field.optional || sample.tolerated.contains(field.name) {
                #expect(error == nil, "\(sample.method) without \(field.name): \(String(describing: error))")
            } else {
                #expect(invalidParameter(error) == field.name, "\(sample.method) without \(field.name)")
                #expect(error?.description == "\(field.name) is required")
            }
        }
    }

    @Test(arguments: samples)
    func aMemberOfAnotherTypeIsRefusedByName(sample: Sample) throws {
        for field in sample.fields {
            var object = sample.json
            object[field.name] = field.type == .bool ? "yes" : true
            let error = varlinkError { () throws(VarlinkError) in try sample.readBack(object) }
            #expect(invalidParameter(error) == field.name, "\(sample.method) with \(field.name) of another type")
            #expect(error?.description.hasPrefix(field.name + " must be ") == true, "\(String(describing: error))")
        }
    }

    /// What the daemon has always sent: members in the interface's order,
    /// unset optional ones as null.
    @Test func theWireFormIsUnchanged() throws {
        let status = Status.Reply(version: "0.9.0", alarms: 0, reminders: 0, ringing: [], next: nil, timeZone: "Europe/Berlin",
                                  wake: Wire.Wake(method: "none", next: nil, reason: "not set up"), linger: nil, warnings: [], sync: nil)
        #expect(JSONValue.object(status.json).jsonText == #"{"version":"0.9.0","alarms":0,"reminders":0,"ringing":[],"next":null,"timeZone":"Europe/Berlin","wake":{"method":"none","next":null,"reason":"not set up"},"linger":null,"warnings":[],"sync":null}"#)
        let snooze = Snooze.Reply(id: "beef0003-0000-4000-8000-000000000013", title: "Tea", until: nil, snoozeCount: 2)
        #expect(JSONValue.object(snooze.json).jsonText == #"{"id":"beef0003-0000-4000-8000-000000000013","title":"Tea","phase":"snoozed","until":null,"snoozeCount":2}"#)
        let notConfigured = Sync.Reply(state: Wire.SyncState(server: "", lastSync: nil, error: "sync is not configured", pending: 0))
        #expect(JSONValue.object(notConfigured.json).jsonText == #"{"state":{"server":"","lastSync":null,"error":"sync is not configured","pending":0},"received":0,"sent":0,"removedHere":0,"removedThere":0,"conflicts":0}"#)
        #expect(JSONValue.object(Self.importReply.json).jsonText == #"{"alarms":1,"reminders":0,"added":1,"updated":0,"removed":0,"changes":[{"change":"added","id":"1a2b3c4d-0000-4000-8000-000000000001","itemKind":"alarm","title":"Work"}]}"#)
        #expect(JSONValue.object(GetAlarm.Reply(alarm: ["id": "x"], warnings: []).json).jsonText == #"{"alarm":{"id":"x"},"warnings":[]}"#)
        #expect(JSONValue.object(ItemNamed(.reminder(Self.reminder)).json).jsonText == #"{"id":"abcd0001-0000-4000-8000-000000000011","title":"Buy milk"}"#)
        // Items are carried as the daemon wrote them.
        #expect(ListAlarms.Reply(alarms: [Self.alarmObject]).json["alarms"] == .array([Wire.Alarm.json(Self.alarm, state: RingState(anchor: Self.created), next: Self.created.addingTimeInterval(3600), zone: .utc)]))
    }

    /// A nested value's member is named by its path, and numbers are read
    /// within their bounds.
    @Test func nestedMembersAndBoundsAreNamed() throws {
        func refusal<R: WireReply>(_ type: R.Type, _ object: JSONObject) -> VarlinkError? {
            varlinkError { () throws(VarlinkError) in try R(Parameters(object)) }
        }
        var status = Self.samples.first { $0.method == "Status" }!.json
        status["wake"] = .object(["method": 3])
        #expect(invalidParameter(refusal(Status.Reply.self, status)) == "wake.method")
        status = Self.samples.first { $0.method == "Status" }!.json
        status["next"] = .object(["id": "x", "kind": "alarm", "at": "2026-02-25T07:30:00+00:00"])
        #expect(refusal(Status.Reply.self, status)?.description == "next.title is required")
        status["next"] = nil
        status["alarms"] = -1
        #expect(refusal(Status.Reply.self, status)?.description == "alarms must be 0–2147483647, got -1")
        status["alarms"] = .number(1.5)
        #expect(invalidParameter(refusal(Status.Reply.self, status)) == "alarms")
        status["alarms"] = 1
        status["sync"] = .object(["server": "https://dav.example/", "pending": "2"])
        #expect(invalidParameter(refusal(Status.Reply.self, status)) == "sync.pending")

        #expect(refusal(ListAlarms.Reply.self, ["alarms": [.object(["id": "x"]), 2]])?.description == "alarms[1] must be an object, got a number")
        #expect(refusal(Upcoming.Reply.self, ["firings": [.object(["id": "x", "kind": "alarm", "title": "Work"])]])?.description == "firings[0].at is required")
        #expect(refusal(PlaySound.Reply.self, ["path": "/x.oga", "volume": 101])?.description == "volume must be 1–100, got 101")

        var snooze = Self.samples.first { $0.method == "Snooze" }!.json
        snooze["phase"] = "dozing"
        #expect(refusal(Snooze.Reply.self, snooze)?.description == #"phase must be waiting, ringing or snoozed, got "dozing""#)

        var change = Self.importReply.changes[0].json.objectValue!
        change["change"] = "moved"
        var imported = Self.importReply.json
        imported["changes"] = [Self.importReply.changes[0].json, .object(change)]
        #expect(refusal(Import.Reply.self, imported)?.description == #"changes[1].change must be added, updated or removed, got "moved""#)
        change["change"] = "removed"
        change["itemKind"] = "task"
        imported["changes"] = [.object(change)]
        #expect(refusal(Import.Reply.self, imported)?.description == #"changes[0].itemKind must be alarm or reminder, got "task""#)

        var sync = Self.samples.first { $0.method == "Sync" }!.json
        sync["state"] = .object(["lastSync": nil, "pending": 0])
        #expect(refusal(Sync.Reply.self, sync)?.description == "state.server is required")
    }

    /// A member the client does not know (a newer daemon's) is left unread;
    /// what older daemons left out reads as absent.
    @Test func newerAndOlderDaemonsRepliesRead() throws {
        var status = Self.samples.first { $0.method == "Status" }!.json
        status["uptime"] = 5
        #expect(try Status.Reply(Parameters(status)).version == "0.9.0")
        status["wake"] = nil
        status["warnings"] = nil
        status["linger"] = nil
        status["next"] = .null
        let older = try Status.Reply(Parameters(status))
        #expect(older.wake == nil && older.warnings == nil && older.linger == nil && older.next == nil)
        #expect(older.sync == Self.sync)
        #expect(older.json["wake"] == nil && older.json["warnings"] == nil, "left out as the daemon left them out")

        let shown = try GetAlarm.Reply(Parameters(["alarm": .object(Self.alarmObject)]))
        #expect(shown.warnings == nil && shown.alarm == Self.alarmObject)
        let snoozed = try Snooze.Reply(Parameters(["id": "x", "title": "Tea", "phase": "snoozed", "until": nil, "snoozeCount": 1]))
        #expect(snoozed.until == nil && snoozed.phase == .snoozed)
    }
}

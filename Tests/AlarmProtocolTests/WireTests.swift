// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import Foundation
import Testing

/// The `VarlinkError` a typed-throwing body fails with, or `nil` when it succeeds.
func varlinkError<T>(_ body: () throws(VarlinkError) -> T) -> VarlinkError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// The `parameter` of an `io.alarmd.InvalidParameter`, checking the name too.
func invalidParameter(_ error: VarlinkError?, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    guard let error else {
        Issue.record("no error was thrown", sourceLocation: sourceLocation)
        return nil
    }
    #expect(error.name == "io.alarmd.InvalidParameter", "\(error)", sourceLocation: sourceLocation)
    return error.parameters["parameter"]?.stringValue
}

@Suite struct ParametersTests {
    let call = Parameters([
        "id": "abcd",
        "count": 7,
        "flag": true,
        "nothing": nil,
        "fields": .object(["time": 730, "days": ["mon", 3], "snoozeMinutes": 61, "label": "Work", "ring": .number(1.5), "deep": .object(["x": "y"])]),
    ])

    @Test func typedGetters() throws {
        #expect(try call.string("id") == "abcd")
        #expect(try call.requiredString("id") == "abcd")
        #expect(try call.int("count", in: 1...10) == 7)
        #expect(try call.bool("flag") == true)
        #expect(try call.string("absent") == nil)
        #expect(try call.int("absent", in: 0...1) == nil)
        #expect(try call.bool("absent") == nil)
        #expect(try call.stringArray("absent") == nil)
        #expect(try call.object("absent") == nil)
        // null is the same as absent.
        #expect(try call.string("nothing") == nil)
        #expect(try call.bool("nothing") == nil)
        let fieldsValue = try call.object("fields")
        let fields = try #require(fieldsValue)
        #expect(fields.path == "fields.")
        #expect(try fields.string("label") == "Work")
        let deepValue = try fields.object("deep")
        let deep = try #require(deepValue)
        #expect(deep.path == "fields.deep.")
        #expect(try deep.string("x") == "y")
    }

    @Test func wrongTypesNameThePathAndTheType() throws {
        let fieldsValue = try call.object("fields")
        let fields = try #require(fieldsValue)
        let time = try #require(varlinkError { () throws(VarlinkError) in try fields.string("time") })
        #expect(time.name == "io.alarmd.InvalidParameter")
        #expect(time.parameters["parameter"] == "fields.time")
        #expect(time.parameters["message"] == "fields.time must be a string, got a number")

        let days = varlinkError { () throws(VarlinkError) in try fields.stringArray("days") }
        #expect(invalidParameter(days) == "fields.days")
        #expect(days?.parameters["message"]?.stringValue?.contains("a number") == true)

        let label = varlinkError { () throws(VarlinkError) in try fields.bool("label") }
        #expect(invalidParameter(label) == "fields.label")
        #expect(label?.parameters["message"] == "fields.label must be true or false, got a string")

        #expect(invalidParameter(varlinkError { () throws(VarlinkError) in try fields.object("label") }) == "fields.label")
        #expect(invalidParameter(varlinkError { () throws(VarlinkError) in try call.string("count") }) == "count")
        #expect(invalidParameter(varlinkError { () throws(VarlinkError) in try call.stringArray("id") }) == "id")
    }

    @Test func requiredMembers() {
        let missing = varlinkError { () throws(VarlinkError) in try Parameters([:], path: "fields.").requiredString("time") }
        #expect(invalidParameter(missing) == "fields.time")
        #expect(missing?.parameters["message"] == "fields.time is required")
        let null = varlinkError { () throws(VarlinkError) in try Parameters(["id": nil]).requiredString("id") }
        #expect(invalidParameter(null) == "id")
    }

    @Test func intRangeMessages() throws {
        let fieldsValue = try call.object("fields")
        let fields = try #require(fieldsValue)
        let high = varlinkError { () throws(VarlinkError) in try fields.int("snoozeMinutes", in: 1...60) }
        #expect(invalidParameter(high) == "fields.snoozeMinutes")
        #expect(high?.parameters["message"] == "fields.snoozeMinutes must be 1–60, got 61")
        let fraction = varlinkError { () throws(VarlinkError) in try fields.int("ring", in: 1...3600) }
        #expect(invalidParameter(fraction) == "fields.ring")
        #expect(fraction?.parameters["message"] == "fields.ring must be a whole number, got 1.5")
        let text = varlinkError { () throws(VarlinkError) in try fields.int("label", in: 1...3600) }
        #expect(text?.parameters["message"] == #"fields.label must be a whole number, got "Work""#)
        let low = varlinkError { () throws(VarlinkError) in try Parameters(["count": -1]).int("count", in: 1...1000) }
        #expect(low?.parameters["message"] == "count must be 1–1000, got -1")
        #expect(try Parameters(["n": 1000]).int("n", in: 1...1000) == 1000)
        #expect(try Parameters(["n": 1]).int("n", in: 1...1000) == 1)
    }

    @Test func allowOnlyRejectsUnknownMembers() throws {
        #expect(varlinkError { () throws(VarlinkError) in try call.allowOnly(["id", "count", "flag", "nothing", "fields"]) } == nil)
        let unknown = varlinkError { () throws(VarlinkError) in try call.allowOnly(["id", "count", "flag", "nothing"]) }
        #expect(invalidParameter(unknown) == "fields")
        let fieldsValue = try call.object("fields")
        let fields = try #require(fieldsValue)
        let nested = varlinkError { () throws(VarlinkError) in try fields.allowOnly(["time", "days", "snoozeMinutes", "label", "ring"]) }
        #expect(invalidParameter(nested) == "fields.deep")
        #expect(nested?.parameters["message"]?.stringValue?.contains("is not a parameter") == true)
    }

    @Test func validatedReportsUnderThePath() throws {
        let fields = Parameters(["time": "25:00"], path: "fields.")
        let error = varlinkError { () throws(VarlinkError) in
            try fields.validated("time") { () throws(ValidationError) in try TimeOfDay.parse("25:00") }
        }
        #expect(invalidParameter(error) == "fields.time")
        #expect(error?.parameters["message"]?.stringValue?.hasPrefix("fields.time must") == true)
        #expect(error?.parameters["message"]?.stringValue?.hasSuffix(#"got "25:00""#) == true)
        let invalid = VarlinkError.invalid(ValidationError(field: "label", requirement: "must not be empty", value: #""""#), path: "document.alarms[0].")
        #expect(invalid.parameters["parameter"] == "document.alarms[0].label")
        #expect(invalid.parameters["message"] == #"document.alarms[0].label must not be empty, got """#)
    }
}

extension JSONObject {
    /// An object from JSON text, for members that Swift literals cannot nest.
    static func literal(_ text: String) -> JSONObject { (try? JSONParser.parse(text))?.objectValue ?? [:] }
}

@Suite struct AlarmFieldsTests {
    private func parse(_ object: JSONObject) throws(VarlinkError) -> AlarmFields {
        try AlarmFields.parse(Parameters(object, path: "fields."))
    }

    @Test func readsEveryField() throws {
        let fields = try parse([
            "time": "7:30", "days": ["mon", "wed", "fri"], "label": "Gym", "sound": "/usr/share/sounds/a.oga",
            "snooze": false, "snoozeMinutes": 5, "maxSnoozes": 3, "ringSeconds": 120, "enabled": false, "timeZone": "Asia/Kolkata",
            "volume": 40, "fadeSeconds": 0, "escalateCommand": ["ntfy", "publish", "me"],
        ])
        #expect(fields.time == (try TimeOfDay(hour: 7, minute: 30)))
        #expect(fields.days == RepeatDays([.monday, .wednesday, .friday]))
        #expect(fields.label == "Gym")
        #expect(fields.sound == .file("/usr/share/sounds/a.oga"))
        #expect(fields.snoozeEnabled == false)
        #expect(fields.snoozeMinutes == 5)
        #expect(fields.maxSnoozes == 3)
        #expect(fields.ringSeconds == 120)
        #expect(fields.volume == .some(40) && fields.fadeSeconds == .some(0))
        #expect(fields.escalateCommand == ["ntfy", "publish", "me"])
        #expect(fields.enabled == false)
        #expect(fields.timeZone == .some(Zone(identifier: "Asia/Kolkata")))
    }

    @Test func aRuleAPauseAndHolidaysAreReadAndApplied() throws {
        let fields = try parse(JSONObject.literal(#"""
            {"rule": {"frequency": "monthly", "interval": 2, "byDay": [{"weekday": "tue", "ordinal": 2}], "starting": "2026-12-01",
                      "until": "2027-12-31", "exceptions": ["2027-02-09"]},
             "pausedUntil": "2027-01-05", "skipHolidays": true}
            """#))
        let rule = RecurrenceRule(.monthly, interval: 2, byDay: [.init(.tuesday, ordinal: 2)], start: CivilTime.dayNumber(year: 2026, month: 12, day: 1),
                                  end: .until(CivilTime.dayNumber(year: 2027, month: 12, day: 31)), exceptions: [CivilTime.dayNumber(year: 2027, month: 2, day: 9)])
        #expect(fields.rule == .some(rule))
        var alarm = Alarm(time: try TimeOfDay(hour: 6, minute: 0), days: .weekdays, created: Date(timeIntervalSince1970: 0))
        fields.apply(to: &alarm)
        #expect(alarm.recurrence == rule && alarm.days == .never && alarm.skipHolidays)
        #expect(alarm.pausedUntil == CivilTime.dayNumber(year: 2027, month: 1, day: 5))
        // What the client sends reads back the same.
        #expect(try parse(fields.json) .rule == fields.rule)
        // days clears the rule; {} removes it; "" ends the pause.
        try parse(["days": ["sat"]]).apply(to: &alarm)
        #expect(alarm.recurrence == nil && alarm.days == RepeatDays(.saturday))
        alarm.recurrence = rule
        alarm.days = .never
        try parse(JSONObject.literal(#"{"rule": {}, "pausedUntil": ""}"#)).apply(to: &alarm)
        #expect(alarm.recurrence == nil && alarm.pausedUntil == nil && alarm.isOneShot)
        // The alarm's own JSON carries the rule and its words.
        alarm.recurrence = rule
        let json = Wire.Alarm.json(alarm, state: nil, next: nil, zone: .utc).objectValue ?? [:]
        #expect(json[Wire.Alarm.repeat] == .string("Every 2 months on the 2nd Tue, until Dec 31, 2027, except Feb 9, 2027"))
        #expect(try Wire.Rule.parse(Parameters(json[Wire.Alarm.rule]?.objectValue ?? [:])) == rule)
        #expect(json[Wire.Alarm.skipHolidays] == .bool(true) && json[Wire.Alarm.pausedUntil] == nil)
        alarm.skipHolidays = false
        #expect(Wire.Alarm.json(alarm, state: nil, next: nil, zone: .utc).objectValue?[Wire.Alarm.skipHolidays] == nil, "absent when false")
    }

    @Test func absentFieldsStayNil() throws {
        let fields = try parse([:])
        #expect(fields.time == nil && fields.days == nil && fields.label == nil && fields.sound == nil)
        #expect(fields.snoozeEnabled == nil && fields.snoozeMinutes == nil && fields.maxSnoozes == nil)
        #expect(fields.ringSeconds == nil && fields.enabled == nil)
        #expect(fields.timeZone == nil)
        #expect(fields.volume == nil && fields.fadeSeconds == nil)
    }

    /// volume 0 and fadeSeconds -1 return an alarm to the configuration's.
    @Test func theDefaultsCanBeChosenAgain() throws {
        var alarm = Alarm(time: try TimeOfDay(hour: 6, minute: 0), volume: 30, fadeSeconds: 10, created: Date(timeIntervalSince1970: 0))
        let fields = try parse(["volume": 0, "fadeSeconds": -1])
        fields.apply(to: &alarm)
        #expect(alarm.volume == nil && alarm.fadeSeconds == nil)
        #expect(fields.json[AlarmFields.volume] == 0 && fields.json[AlarmFields.fadeSeconds] == -1)
        try parse(["volume": 100, "fadeSeconds": 300]).apply(to: &alarm)
        #expect(alarm.volume == 100 && alarm.fadeSeconds == 300)
    }

    @Test func emptyTimeZoneUnpins() throws {
        let fields = try parse(["timeZone": ""])
        guard case .some(.none) = fields.timeZone else {
            Issue.record("timeZone \"\" should un-pin, got \(String(describing: fields.timeZone))")
            return
        }
        var alarm = Alarm(time: try TimeOfDay(hour: 6, minute: 0), timeZone: Zone(identifier: "Europe/Berlin"), created: Date(timeIntervalSince1970: 0))
        fields.apply(to: &alarm)
        #expect(alarm.timeZone == nil)
    }

    @Test func applyChangesOnlyTheGivenFields() throws {
        var alarm = Alarm(time: try TimeOfDay(hour: 6, minute: 0), days: .weekdays, label: "Work", created: Date(timeIntervalSince1970: 0))
        let before = alarm
        try parse(["label": "Late", "snoozeMinutes": 10]).apply(to: &alarm)
        #expect(alarm.label == "Late")
        #expect(alarm.snooze.minutes == 10)
        #expect(alarm.time == before.time && alarm.days == before.days && alarm.sound == before.sound && alarm.enabled == before.enabled)
    }

    @Test(arguments: [
        (["time": 730] as JSONObject, "fields.time"),
        (["time": "25:00"], "fields.time"),
        (["time": "7:60"], "fields.time"),
        (["time": ""], "fields.time"),
        (["days": ["mon", "xyz"]], "fields.days"),
        (["days": ["mon", "tue", "wed", "thu", "fri", "sat", "sun", "mon"]], "fields.days"),
        (["days": ["Mon"]], "fields.days"),
        (["days": "mon"], "fields.days"),
        (["label": 5], "fields.label"),
        (["sound": "-rf"], "fields.sound"),
        (["sound": "../x"], "fields.sound"),
        (["snooze": "yes"], "fields.snooze"),
        (["snoozeMinutes": 0], "fields.snoozeMinutes"),
        (["snoozeMinutes": 61], "fields.snoozeMinutes"),
        (["maxSnoozes": 101], "fields.maxSnoozes"),
        (["ringSeconds": 0], "fields.ringSeconds"),
        (["ringSeconds": 3601], "fields.ringSeconds"),
        (["volume": 101], "fields.volume"),
        (["volume": -1], "fields.volume"),
        (["volume": "loud"], "fields.volume"),
        (["fadeSeconds": 301], "fields.fadeSeconds"),
        (["fadeSeconds": -2], "fields.fadeSeconds"),
        (["escalateCommand": ["bin/x"]], "fields.escalateCommand"),
        (["escalateCommand": "ntfy"], "fields.escalateCommand"),
        (["enabled": 1], "fields.enabled"),
        (["timeZone": "Mars/Olympus_Mons"], "fields.timeZone"),
        (["timeZone": 1], "fields.timeZone"),
        (["tyme": "07:00"], "fields.tyme"),
        (JSONObject.literal(#"{"rule": "monthly"}"#), "fields.rule"),
        (JSONObject.literal(#"{"rule": {"frequency": "hourly", "starting": "2026-12-01"}}"#), "fields.rule.frequency"),
        (JSONObject.literal(#"{"rule": {"frequency": "daily"}}"#), "fields.rule.starting"),
        (JSONObject.literal(#"{"rule": {"frequency": "daily", "starting": "2026-02-30"}}"#), "fields.rule.starting"),
        (JSONObject.literal(#"{"rule": {"frequency": "daily", "starting": "2026-12-01", "interval": 0}}"#), "fields.rule.interval"),
        (JSONObject.literal(#"{"rule": {"frequency": "weekly", "starting": "2026-12-01", "byDay": [{"weekday": "Mon"}]}}"#), "fields.rule.byDay[0].weekday"),
        (JSONObject.literal(#"{"rule": {"frequency": "weekly", "starting": "2026-12-01", "byDay": [{"weekday": "mon", "ordinal": 2}]}}"#), "fields.rule.byDay"),
        (JSONObject.literal(#"{"rule": {"frequency": "monthly", "starting": "2026-12-01", "byDay": ["mon"]}}"#), "fields.rule.byDay[0]"),
        (JSONObject.literal(#"{"rule": {"frequency": "monthly", "starting": "2026-12-01", "byMonthDay": [0]}}"#), "fields.rule.byMonthDay"),
        (JSONObject.literal(#"{"rule": {"frequency": "yearly", "starting": "2026-12-01", "byMonth": [13]}}"#), "fields.rule.byMonth"),
        (JSONObject.literal(#"{"rule": {"frequency": "daily", "starting": "2026-12-01", "until": "2026-11-30"}}"#), "fields.rule.until"),
        (JSONObject.literal(#"{"rule": {"frequency": "daily", "starting": "2026-12-01", "until": "2027-01-01", "times": 3}}"#), "fields.rule.times"),
        (JSONObject.literal(#"{"rule": {"frequency": "daily", "starting": "2026-12-01", "times": 0}}"#), "fields.rule.times"),
        (JSONObject.literal(#"{"rule": {"frequency": "daily", "starting": "2026-12-01", "exceptions": ["12/25"]}}"#), "fields.rule.exceptions"),
        (JSONObject.literal(#"{"rule": {"frequency": "daily", "starting": "2026-12-01", "bySetPos": [1]}}"#), "fields.rule.bySetPos"),
        (JSONObject.literal(#"{"days": ["mon"], "rule": {"frequency": "daily", "starting": "2026-12-01"}}"#), "fields.rule"),
        (["pausedUntil": "soon"], "fields.pausedUntil"),
        (["skipHolidays": "yes"], "fields.skipHolidays"),
    ] as [(JSONObject, String)])
    func rejections(object: JSONObject, parameter: String) {
        let error = varlinkError { () throws(VarlinkError) in try parse(object) }
        #expect(invalidParameter(error) == parameter, "\(object)")
        #expect(error?.parameters["message"]?.stringValue?.hasPrefix(parameter + " ") == true)
    }
}

@Suite struct ExportDocumentTests {
    static let berlin = Zone(identifier: "Europe/Berlin")!
    static let created = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    static func sample() throws -> (alarms: [Alarm], reminders: [Reminder]) {
        let alarms = [
            Alarm(id: UUID(uuidString: "11111111-2222-4333-8444-555555555555")!, time: try TimeOfDay(hour: 7, minute: 30), days: .weekdays,
                  label: "Work", created: created, updated: created.addingTimeInterval(3600)),
            Alarm(id: UUID(uuidString: "AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE")!, time: try TimeOfDay(hour: 23, minute: 5), days: .never,
                  label: "Quote \" and ünïcode", sound: .none, snooze: SnoozeSettings(enabled: false, minutes: 5, maxCount: 3),
                  ringSeconds: 60, volume: 1, fadeSeconds: 0, enabled: false, skipNext: true, timeZone: Zone(identifier: "America/New_York"),
                  escalateCommand: ["/usr/bin/ntfy", "publish", "it's late"], created: created.addingTimeInterval(86_400 * 180), updated: created.addingTimeInterval(86_400 * 181)),
            Alarm(id: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, time: try TimeOfDay(hour: 0, minute: 0), days: .weekends,
                  sound: .file("/home/me/ring.oga"), pausedUntil: CivilTime.dayNumber(year: 2026, month: 1, day: 5), skipHolidays: true, created: created),
            Alarm(id: UUID(uuidString: "00000000-0000-4000-8000-000000000002")!, time: try TimeOfDay(hour: 19, minute: 0), label: "Pay day",
                  recurrence: RecurrenceRule(.monthly, interval: 2, byDay: [.init(.friday, ordinal: -1)], start: CivilTime.dayNumber(year: 2026, month: 1, day: 1),
                                             end: .count(6), exceptions: [CivilTime.dayNumber(year: 2026, month: 3, day: 27)]),
                  created: created),
        ]
        let reminders = [
            Reminder(id: UUID(uuidString: "99999999-8888-4777-8666-555555555555")!, title: "Tax", notes: "line 1\nline 2",
                     due: created.addingTimeInterval(86_400 * 30), position: 0, created: created, updated: created.addingTimeInterval(5)),
            Reminder(id: UUID(uuidString: "12345678-1234-4234-8234-123456789abc")!, title: "Done thing", done: true, position: 1,
                     imagePath: "/tmp/x.png", created: created.addingTimeInterval(7)),
            Reminder(id: UUID(uuidString: "12345678-1234-4234-8234-123456789abd")!, title: "Birthday", due: created.addingTimeInterval(86_400 * 72 + 9 * 3600),
                     position: 2, allDay: true, recurrence: RecurrenceRule(.yearly, byMonthDay: [14], byMonth: [3], start: CivilTime.dayNumber(year: 2026, month: 1, day: 1),
                                                                            end: .until(CivilTime.dayNumber(year: 2030, month: 12, day: 31))),
                     before: [3600, 86_400], created: created),
        ]
        return (alarms, reminders)
    }

    static func document(_ json: JSONValue) -> Parameters { Parameters(json.objectValue ?? [:], path: "document.") }

    @Test func roundTripKeepsIdsAndTimestamps() throws {
        let (alarms, reminders) = try Self.sample()
        let json = ExportDocument.json(alarms: alarms, reminders: reminders, zone: Self.berlin)
        // Through the wire text, as an Import would receive it.
        let reparsed = try JSONParser.parse(json.jsonText)
        let parsed = try ExportDocument.parse(Self.document(reparsed), zone: Self.berlin)
        #expect(parsed.alarms == alarms)
        #expect(parsed.reminders == reminders)
        #expect(parsed.alarms.map(\.id) == alarms.map(\.id))
        #expect(parsed.reminders.map(\.created) == reminders.map(\.created))
        #expect(parsed.reminders.map(\.updated) == reminders.map(\.updated))
        // The same document again, byte for byte.
        #expect(ExportDocument.json(alarms: parsed.alarms, reminders: parsed.reminders, zone: Self.berlin).jsonText == json.jsonText)
    }

    @Test func documentShape() throws {
        let (alarms, reminders) = try Self.sample()
        let json = ExportDocument.json(alarms: alarms, reminders: reminders, zone: Self.berlin)
        let object = try #require(json.objectValue)
        #expect(object.keys == ["format", "version", "alarms", "reminders"])
        #expect(object["format"] == "alarmd")
        #expect(object["version"] == 1)
        let first = try #require(object["alarms"]?.arrayValue?.first?.objectValue)
        #expect(first["id"] == "11111111-2222-4333-8444-555555555555")
        #expect(first["time"] == "07:30")
        #expect(first["days"] == ["mon", "tue", "wed", "thu", "fri"])
        #expect(first["repeat"] == "Weekdays")
        #expect(first["created"] == "2026-01-01T01:00:00+01:00")
        #expect(first["updated"] == "2026-01-01T02:00:00+01:00")
        // No live fields in an export.
        #expect(first["phase"] == nil && first["next"] == nil && first["snoozeCount"] == nil)
        let second = try #require(object["alarms"]?.arrayValue?[1].objectValue)
        #expect(second["created"] == "2026-06-30T02:00:00+02:00")
        #expect(second["timeZone"] == "America/New_York")
        #expect(second["snooze"] == .object(["enabled": false, "minutes": 5, "maxCount": 3]))
        let reminder = try #require(object["reminders"]?.arrayValue?.first?.objectValue)
        #expect(reminder["due"] == "2026-01-31T01:00:00+01:00")
        #expect(reminder["imagePath"] == .null)
    }

    @Test func fractionalTimestampsSurvive() throws {
        let created = Date(timeIntervalSince1970: 1_767_225_600.123456)
        let reminder = Reminder(id: UUID(), title: "µs", due: Date(timeIntervalSince1970: 1_767_225_601.5), created: created)
        let json = ExportDocument.json(alarms: [], reminders: [reminder], zone: Self.berlin)
        #expect(json.jsonText.contains(#""created":"2026-01-01T01:00:00.123456+01:00""#))
        #expect(json.jsonText.contains(#""due":"2026-01-01T01:00:01.500000+01:00""#))
        let parsed = try ExportDocument.parse(Self.document(json), zone: Self.berlin)
        #expect(ExportDocument.json(alarms: parsed.alarms, reminders: parsed.reminders, zone: Self.berlin) == json)
    }

    @Test func emptyAndMinimalDocuments() throws {
        let empty = try ExportDocument.parse(Self.document(.object(["format": "alarmd", "version": 1])), zone: Self.berlin)
        #expect(empty.alarms.isEmpty && empty.reminders.isEmpty)
        let minimal = try ExportDocument.parse(Self.document(.object([
            "format": "alarmd", "version": 1,
            "alarms": [.object(["id": "11111111-2222-4333-8444-555555555555", "time": "06:15"])],
            "reminders": [.object(["id": "99999999-8888-4777-8666-555555555555", "title": "T"])],
        ])), zone: Self.berlin)
        #expect(minimal.alarms.first?.label == Alarm.defaultLabel)
        #expect(minimal.alarms.first?.days == .never)
        #expect(minimal.alarms.first?.enabled == true)
        #expect(minimal.reminders.first?.title == "T")
    }

    /// A valid document with one member of one element replaced.
    static func broken(_ list: String, _ index: Int, _ key: String, _ value: JSONValue?) throws -> JSONValue {
        let (alarms, reminders) = try sample()
        var object = ExportDocument.json(alarms: alarms, reminders: reminders, zone: berlin).objectValue!
        var elements = object[list]!.arrayValue!
        var element = elements[index].objectValue!
        element[key] = value
        elements[index] = .object(element)
        object[list] = .array(elements)
        return .object(object)
    }

    @Test(arguments: [
        ("alarms", 1, "time", "25:00", "document.alarms[1].time"),
        ("alarms", 2, "time", nil, "document.alarms[2].time"),
        ("alarms", 0, "id", "not-a-uuid", "document.alarms[0].id"),
        ("alarms", 1, "days", ["mon", "xyz"], "document.alarms[1].days"),
        ("alarms", 1, "label", "a\u{7}b", "document.alarms[1].label"),
        ("alarms", 0, "created", "yesterday", "document.alarms[0].created"),
        ("alarms", 0, "bogus", 1, "document.alarms[0].bogus"),
        ("alarms", 2, "timeZone", "Nowhere/Land", "document.alarms[2].timeZone"),
        ("alarms", 0, "ringSeconds", 0, "document.alarms[0].ringSeconds"),
        ("alarms", 0, "volume", 0, "document.alarms[0].volume"),
        ("alarms", 0, "fadeSeconds", 301, "document.alarms[0].fadeSeconds"),
        ("reminders", 1, "title", nil, "document.reminders[1].title"),
        ("reminders", 0, "due", "2026-02-30T00:00:00Z", "document.reminders[0].due"),
        ("reminders", 1, "position", -1, "document.reminders[1].position"),
        ("reminders", 1, "imagePath", "relative.png", "document.reminders[1].imagePath"),
    ] as [(String, Int, String, JSONValue?, String)])
    func invalidElementNamesItsPath(list: String, index: Int, key: String, value: JSONValue?, parameter: String) throws {
        let document = try Self.broken(list, index, key, value)
        let error = varlinkError { () throws(VarlinkError) in try ExportDocument.parse(Self.document(document), zone: Self.berlin) }
        #expect(invalidParameter(error) == parameter, "\(String(describing: error))")
    }

    @Test func wrongEnvelopeIsRefused() throws {
        func parameter(_ object: JSONObject) -> String? {
            invalidParameter(varlinkError { () throws(VarlinkError) in try ExportDocument.parse(Parameters(object, path: "document."), zone: Self.berlin) })
        }
        #expect(parameter(["version": 1]) == "document.format")
        #expect(parameter(["format": "other", "version": 1]) == "document.format")
        #expect(parameter(["format": "alarmd", "version": 2]) == "document.version")
        #expect(parameter(["format": "alarmd"]) == "document.version")
        #expect(parameter(["format": "alarmd", "version": 1, "alarms": "x"]) == "document.alarms")
        #expect(parameter(["format": "alarmd", "version": 1, "alarms": [1]]) == "document.alarms[0]")
        #expect(parameter(["format": "alarmd", "version": 1, "extra": true]) == "document.extra")
    }
}

@Suite struct WireTimeTests {
    @Test func positiveHalfHourOffset() {
        let zone = Zone(identifier: "Asia/Kolkata")!
        #expect(WireTime.string(Date(timeIntervalSince1970: 1_773_021_600), in: zone) == "2026-03-09T07:30:00+05:30")
    }

    @Test func negativeOffset() {
        let zone = Zone(identifier: "America/New_York")!
        #expect(WireTime.string(Date(timeIntervalSince1970: 1_782_907_200), in: zone) == "2026-07-01T08:00:00-04:00")
        // The same zone in winter.
        #expect(WireTime.string(Date(timeIntervalSince1970: 1_768_521_599), in: zone) == "2026-01-15T18:59:59-05:00")
    }

    @Test func utc() {
        let zone = Zone.utc
        #expect(WireTime.string(Date(timeIntervalSince1970: 1_768_521_599), in: zone) == "2026-01-15T23:59:59+00:00")
        #expect(WireTime.string(Date(timeIntervalSince1970: 0), in: zone) == "1970-01-01T00:00:00+00:00")
    }

    @Test func fractionOnlyWhenNonZero() {
        let zone = Zone.utc
        let base = 1_768_521_599.0
        #expect(WireTime.string(Date(timeIntervalSince1970: base), in: zone) == "2026-01-15T23:59:59+00:00")
        #expect(WireTime.string(Date(timeIntervalSince1970: base + 0.25), in: zone) == "2026-01-15T23:59:59.250000+00:00")
        #expect(WireTime.string(Date(timeIntervalSince1970: base + 0.000001), in: zone) == "2026-01-15T23:59:59.000001+00:00")
        #expect(WireTime.string(Date(timeIntervalSince1970: base + 0.123456), in: zone) == "2026-01-15T23:59:59.123456+00:00")
        // Below a microsecond rounds away.
        #expect(WireTime.string(Date(timeIntervalSince1970: base + 0.0000001), in: zone) == "2026-01-15T23:59:59+00:00")
        // Before 1970 the fraction still counts forward from the whole second.
        #expect(WireTime.string(Date(timeIntervalSince1970: -0.5), in: zone) == "1969-12-31T23:59:59.500000+00:00")
    }

    /// Instants beyond the years 0001–9999 (which nothing accepts) are shown at
    /// the nearer end, in a form that reads back, instead of trapping: 2.6e13 s
    /// (300,000,000 days) overflowed the conversion to microseconds.
    @Test(arguments: [(2.6e13, "9999-12-31T23:59:59+00:00"), (1e300, "9999-12-31T23:59:59+00:00"), (.infinity, "9999-12-31T23:59:59+00:00"),
                      (253_402_300_800, "9999-12-31T23:59:59+00:00"), (-1e300, "0001-01-01T00:00:00+00:00"), (.nan, "1970-01-01T00:00:00+00:00")])
    func instantsBeyondTheWireFormAreBounded(seconds: Double, text: String) throws {
        #expect(WireTime.string(Date(timeIntervalSince1970: seconds), in: Zone.utc) == text)
        // A zone 14 hours ahead cannot push the year past 9999 either.
        #expect(!WireTime.string(Date(timeIntervalSince1970: seconds), in: Zone(identifier: "Pacific/Kiritimati")!).hasPrefix("10000"))
        _ = try WireTime.parse(WireTime.string(Date(timeIntervalSince1970: seconds), in: Zone.utc), parameter: "due", zone: Zone.utc)
    }

    @Test func jsonNullForNoDate() {
        #expect(WireTime.json(nil, in: Zone.utc) == .null)
        #expect(WireTime.json(Date(timeIntervalSince1970: 0), in: Zone.utc) == "1970-01-01T00:00:00+00:00")
    }

    @Test func parsesWhatItPrints() throws {
        let zone = Zone(identifier: "Asia/Kolkata")!
        let date = Date(timeIntervalSince1970: 1_773_021_600.25)
        let text = WireTime.string(date, in: zone)
        #expect(try WireTime.parse(text, parameter: "due", zone: Zone.utc) == date)
        let error = varlinkError { () throws(VarlinkError) in try WireTime.parse("soon", parameter: "due", zone: zone) }
        #expect(invalidParameter(error) == "due")
    }
}

@Suite struct InterfaceDefinitionTests {
    static let sourceFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/AlarmProtocol/io.alarmd.varlink")

    @Test func textIsTheFileByteForByte() throws {
        let data = try Data(contentsOf: Self.sourceFile)
        #expect(Array(InterfaceDefinition.text.utf8) == Array(data))
        #expect(InterfaceDefinition.name == "io.alarmd")
        #expect(InterfaceDefinition.text.contains("\ninterface io.alarmd\n"))
    }

    @Test func listsTheMethods() {
        let methods = InterfaceDefinition.methods
        #expect(methods.first == "ListAlarms")
        #expect(methods.last == "Sync")
        for name in ["ListAlarms", "GetAlarm", "AddAlarm", "UpdateAlarm", "RemoveAlarm", "SetAlarmEnabled", "SkipNext", "Snooze", "Dismiss",
                     "AddReminder", "ListReminders", "GetReminder", "UpdateReminder", "CompleteReminder", "MoveReminder", "RemoveReminder",
                     "Upcoming", "Status", "History", "Watch", "ListSounds", "PlaySound", "Export", "Import", "ExportCalendar", "ImportCalendar", "Sync"] {
            #expect(methods.contains(name), "\(name)")
        }
        #expect(methods.count == 27)
        #expect(Set(methods).count == methods.count)
    }

    /// The Varlink spec: "Types, methods, error names need to be unique
    /// identifiers in an interface definition; they share the same namespace."
    /// Clients that key members by name (the Python `varlink` package does) lose
    /// one of two members that share a name.
    @Test func typeMethodAndErrorNamesShareOneNamespace() {
        var kinds: [String: [String]] = [:]
        for line in InterfaceDefinition.text.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "(" })
            guard words.count >= 2, ["type", "method", "error"].contains(words[0]) else { continue }
            kinds[String(words[1]), default: []].append(String(words[0]))
        }
        #expect(kinds.count > 30)
        let clashes = kinds.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }
        #expect(clashes.isEmpty, "members declared more than once: \(clashes.map { "\($0.key) (\($0.value.joined(separator: ", ")))" })")
    }
}

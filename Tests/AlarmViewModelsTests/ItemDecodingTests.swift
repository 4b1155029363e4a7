// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import Testing

@Suite struct ItemDecodingTests {
    func wireAlarm(_ alarm: Alarm) -> JSONObject {
        let state = RingState(anchor: Fixture.at("2026-03-01T00:00:00Z"))
        return Wire.Alarm.json(alarm, state: state, next: Fixture.at("2026-03-09T07:30:00+01:00"), zone: Fixture.berlin).objectValue!
    }

    @Test func anAlarmFromTheDaemonReadsWhole() throws {
        var alarm = Fixture.coreAlarm(0, 7, 30)
        alarm.volume = 60
        alarm.pausedUntil = Fixture.day(2026, 12, 14)
        alarm.recurrence = nil
        let item = try AlarmItem(wire: wireAlarm(alarm))
        #expect(item.id == Fixture.ids[0])
        #expect(item.time == Fixture.time(7, 30) && item.days == .weekdays && item.label == "Work")
        #expect(item.volume == 60 && item.fadeSeconds == nil)
        #expect(item.pausedUntil == Fixture.day(2026, 12, 14))
        #expect(item.snooze == .default && item.enabled && !item.skipNext)
        #expect(item.phase == .waiting && item.hasLiveState)
        #expect(item.next == Fixture.at("2026-03-09T06:30:00Z"))
    }

    @Test func aRuleReadsBackAsTheSameRule() throws {
        var alarm = Fixture.coreAlarm(0, 7, 30)
        alarm.days = .never
        alarm.recurrence = RecurrenceRule(.monthly, byDay: [.init(.friday, ordinal: -1)], start: Fixture.day(2026, 3, 1), end: .count(5))
        #expect(try AlarmItem(wire: wireAlarm(alarm)).rule == alarm.recurrence)
    }

    @Test func aMalformedAlarmNamesTheField() {
        var object = wireAlarm(Fixture.coreAlarm(0, 7, 30))
        object["enabled"] = "yes"
        #expect(throws: ItemDecodingError(field: "enabled", problem: .wrongType(expected: "bool", found: "a string"))) { try AlarmItem(wire: object) }

        var noID = wireAlarm(Fixture.coreAlarm(0, 7, 30))
        noID["id"] = nil
        #expect(throws: ItemDecodingError(field: "id", problem: .missing)) { try AlarmItem(wire: noID) }

        var badID = wireAlarm(Fixture.coreAlarm(0, 7, 30))
        badID["id"] = "not-a-uuid"
        #expect((try? AlarmItem(wire: badID)) == nil)

        var time = wireAlarm(Fixture.coreAlarm(0, 7, 30))
        time["time"] = "25:00"
        #expect(throwsField("time") { try AlarmItem(wire: time) })

        var snooze = wireAlarm(Fixture.coreAlarm(0, 7, 30))
        snooze["snooze"] = .object(["enabled": true, "minutes": "nine", "maxCount": 0])
        #expect(throwsField("snooze.minutes") { try AlarmItem(wire: snooze) })

        var days = wireAlarm(Fixture.coreAlarm(0, 7, 30))
        days["days"] = .array(["mon", 3])
        #expect(throwsField("days") { try AlarmItem(wire: days) })

        var rule = wireAlarm(Fixture.coreAlarm(0, 7, 30))
        rule["rule"] = .object(["frequency": "hourly", "starting": "2026-03-01"])
        #expect(throwsField("rule") { try AlarmItem(wire: rule) })

        #expect(throwsField("id") { try AlarmItem(wire: [:]) })
    }

    @Test func aReminderReadsAndAMalformedOneNamesTheField() throws {
        var reminder = Fixture.coreReminder(1, title: "Buy milk", position: 2)
        reminder.due = Fixture.at("2026-03-09T17:00:00Z")
        reminder.isTimer = true
        let object = Wire.Reminder.json(reminder, state: nil, next: nil, zone: .utc).objectValue!
        let item = try ReminderItem(wire: object)
        #expect(item.title == "Buy milk" && item.position == 2 && item.isTimer && !item.done)
        #expect(item.due == Fixture.at("2026-03-09T17:00:00Z"))
        #expect(!item.hasLiveState)

        var wrong = object
        wrong["position"] = "first"
        #expect(throwsField("position") { try ReminderItem(wire: wrong) })
        var due = object
        due["due"] = "tomorrow"
        #expect(throwsField("due") { try ReminderItem(wire: due) })
        var title = object
        title["title"] = nil
        #expect(throws: ItemDecodingError(field: "title", problem: .missing)) { try ReminderItem(wire: title) }
    }

    func throwsField(_ field: String, _ body: () throws -> some Any) -> Bool {
        do {
            _ = try body()
            return false
        } catch {
            return (error as? ItemDecodingError)?.field == field
        }
    }
}

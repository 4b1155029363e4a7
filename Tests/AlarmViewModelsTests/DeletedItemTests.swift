// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import FoundationEssentials
import Testing

/// Undo of a delete: the item the daemon described, live state and all,
/// goes back as the import it reads, every setting and its id unchanged.
@Suite struct DeletedItemTests {
    static let created = Date(timeIntervalSince1970: 1_796_000_000)

    @Test func aDeletedAlarmComesBackWithEverySetting() throws {
        let berlin = try #require(Zone(identifier: "Europe/Berlin"))
        let start = try #require(CivilTime.dayNumber(isoDate: "2026-12-01"))
        var rule = RecurrenceRule(.monthly, byDay: [.init(.friday, ordinal: -1)], start: start, end: .until(start + 200))
        rule.exceptions = [start + 24]
        var alarm = Alarm(time: try TimeOfDay(hour: 19, minute: 0), label: "Pay day", sound: .themed("bell"),
                          snooze: SnoozeSettings(enabled: true, minutes: 5, maxCount: 3), ringSeconds: 120, volume: 40, fadeSeconds: 10,
                          enabled: false, skipNext: true, timeZone: berlin, command: ["/bin/true", "x"], escalateCommand: ["/bin/echo", "esc"],
                          recurrence: rule, pausedUntil: start + 3, skipHolidays: true, created: Self.created, updated: Self.created.addingTimeInterval(60))
        alarm.days = .never
        // As GetAlarm describes it: with its live state and words.
        let object = try #require(Wire.Alarm.json(alarm, state: RingState(anchor: Self.created), next: Self.created.addingTimeInterval(3600), zone: .utc).objectValue)
        let deleted = try #require(DeletedItem(alarm: object))
        #expect(deleted.kind == .alarm && deleted.id == alarm.id.lowercasedText && deleted.title == "Pay day" && deleted.position == nil)
        let request = deleted.restoreRequest
        #expect(request.merge && !request.dryRun)
        let parsed = try ExportDocument.parse(Parameters(request.json[Import.Request.document.name]?.objectValue ?? [:]), zone: .utc)
        #expect(parsed.alarms == [alarm] && parsed.reminders.isEmpty)
    }

    @Test func aDeletedToDoComesBackWithItsNoticesSoundCommandAndPlace() throws {
        let reminder = Reminder(title: "Gym", notes: "two\nlines", due: Self.created.addingTimeInterval(86_400), done: true, position: 3,
                                command: ["/bin/true", "y"], recurrence: .weekly(on: RepeatDays([.monday, .wednesday]), start: 20_430),
                                before: [900, 3600], sound: .themed("bell"), created: Self.created)
        let object = try #require(Wire.Reminder.json(reminder, state: nil, next: nil, zone: .utc).objectValue)
        let deleted = try #require(DeletedItem(reminder: object))
        #expect(deleted.kind == .reminder && deleted.title == "Gym" && deleted.position == 3)
        let parsed = try ExportDocument.parse(Parameters(deleted.restoreRequest.json[Import.Request.document.name]?.objectValue ?? [:]), zone: .utc)
        #expect(parsed.reminders == [reminder] && parsed.alarms.isEmpty)
        // Its place, or the last one when fewer are left.
        #expect(deleted.place(among: 6) == 3 && deleted.place(among: 2) == 1 && deleted.place(among: 0) == 0)
    }

    @Test func anObjectWithoutAnIdIsNone() {
        #expect(DeletedItem(alarm: ["label": "x"]) == nil)
        #expect(DeletedItem(reminder: ["title": "x"]) == nil)
    }
}

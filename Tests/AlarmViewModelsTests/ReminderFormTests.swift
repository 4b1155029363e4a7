// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import Testing

@Suite struct ReminderFormTests {
    @Test func aTitleIsRequired() {
        var form = ReminderForm(zone: .utc, language: Languages.english)
        #expect(form.validate() == [FieldError(field: .title, message: "Title must not be empty")])
        form.title = "Buy milk"
        #expect(form.validate().isEmpty)
    }

    @Test func aDueTimeIsSentAsAnInstantInTheZoneAndAllDayAsADay() throws {
        var form = ReminderForm(zone: Fixture.berlin, language: Languages.english)
        form.title = "Dentist"
        form.dueDay = Fixture.day(2026, 7, 1)
        form.dueHour = 14
        form.dueMinute = 30
        #expect(try form.changes().due == "2026-07-01T14:30:00+02:00")
        form.allDay = true
        let allDay = try form.changes()
        #expect(allDay.on == "2026-07-01" && allDay.due == nil)
    }

    @Test func aRepeatNeedsADueDateAndBecomesARule() throws {
        var form = ReminderForm(zone: .utc, language: Languages.english)
        form.title = "Water the plants"
        form.preset = .weekends
        #expect(form.validate().map(\.field) == [.rule])
        form.dueDay = Fixture.day(2026, 3, 14)
        let rule = try #require(try form.changes().rule ?? nil)
        #expect(rule.text(in: Languages.english) == "Weekends")
        #expect(form.repeatText == "Weekends")
    }

    @Test func editingClearsWhatWasRemoved() throws {
        let item = ReminderItem(id: Fixture.ids[1], title: "Tax", due: Fixture.at("2026-04-30T09:00:00Z"),
                                rule: RecurrenceRule(.daily, start: Fixture.day(2026, 4, 30)), imagePath: "/tmp/x.png")
        var form = ReminderForm(editing: item, zone: .utc, language: Languages.english)
        #expect(form.preset == .everyDay)
        #expect(form.dueHour == 9)
        form.dueDay = nil
        form.preset = .never
        form.imagePath = nil
        let request = try #require(try form.updateRequest())
        #expect(request.json["due"] == "")
        #expect(request.json["imagePath"] == "")
        #expect(request.json["rule"] == .object([:]))
        #expect(ReminderForm.field(forParameter: "imagePath") == .image)
        #expect(form.fieldError(for: DaemonRefusal(.invalidParameter("title", "must not be empty, got \"\"")))?.field == .title)
    }
}

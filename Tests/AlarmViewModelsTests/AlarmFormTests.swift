// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import Testing

@Suite struct AlarmFormTests {
    let today = Fixture.day(2026, 3, 9)

    func form(_ change: (inout AlarmForm) -> Void = { _ in }) -> AlarmForm {
        var form = AlarmForm(today: today, language: Languages.english)
        change(&form)
        return form
    }

    func fields(_ form: AlarmForm) -> [FormField] { form.validate().map(\.field) }

    @Test func aNewFormSendsTheTimeDaysAndDefaultLabel() throws {
        let request = try form {
            $0.hour = 6
            $0.minute = 45
            $0.preset = .weekdays
        }.request()
        #expect(request.time?.description == "06:45")
        #expect(request.days == .weekdays)
        #expect(request.label == "Alarm")
        #expect(request.snoozeEnabled == true)
        #expect(request.snoozeMinutes == 9)
        #expect(request.volume == nil && request.fadeSeconds == nil && request.sound == nil)
        // The wire form AddAlarm sends.
        let json = try form { $0.preset = .weekdays }.addRequest().json
        #expect(json["fields"]?.objectValue?["days"] == .array(["mon", "tue", "wed", "thu", "fri"]))
    }

    @Test func outOfRangeValuesAreRefusedNamingTheValue() {
        let errors = form {
            $0.hour = 24
            $0.minute = 60
        }.validate()
        #expect(errors.map(\.field) == [.hour, .minute])
        #expect(errors.map(\.message) == ["Hour must be 0–23, got 24", "Minute must be 0–59, got 60"])
        #expect(fields(form { $0.snoozeMinutes = 0 }) == [.snoozeMinutes])
        #expect(fields(form { $0.snoozeMinutes = 61 }) == [.snoozeMinutes])
        #expect(form { $0.snoozeMinutes = 61 }.validate().first?.message == "Snooze length must be 1–60 minutes, got 61")
        // Snooze switched off: its length is not looked at.
        #expect(fields(form { $0.snoozeEnabled = false; $0.snoozeMinutes = 0 }) == [])
        #expect(fields(form { $0.volume = 0 }) == [.volume])
        #expect(fields(form { $0.volume = 101 }) == [.volume])
        #expect(fields(form { $0.volume = 100 }) == [])
        #expect(fields(form { $0.fadeSeconds = 301 }) == [.fade])
        #expect(fields(form { $0.fadeSeconds = 0 }) == [])
        #expect(fields(form { $0.sound = "-x" }) == [.sound])
        #expect(fields(form { $0.label = String(repeating: "a", count: 257) }) == [.label])
        #expect(throws: FormInvalid.self) { try form { $0.hour = 24 }.request() }
    }

    @Test func anEmptyLabelSendsTheDefaultInTheReadersLanguage() throws {
        #expect(try form { $0.label = "  " }.request().label == "Alarm")
        #expect(try form { $0.label = "Gym" }.request().label == "Gym")
        if Languages.chineseUnavailable == nil {
            let chinese = AlarmForm(today: today, language: Languages.zh)
            #expect(chinese.defaultLabel == "鬧鐘")
            #expect(try chinese.request().label == "鬧鐘")
            var wrong = chinese
            wrong.hour = 24
            #expect(wrong.validate().first?.message == "小時必須是 0–23，收到的是 24")
        }
    }

    @Test func thePresetFollowsTheDaysAndSetsThem() {
        var form = form()
        #expect(form.preset == .never)
        form.days = RepeatDays([.saturday, .sunday])
        #expect(form.preset == .weekends)
        form.days.insert(RepeatDays(.monday))
        #expect(form.preset == .custom)
        form.preset = .everyDay
        #expect(form.days == .everyDay)
        form.more = .everyDays(3)
        #expect(form.preset == .custom)
        #expect(form.repeatText == "Every 3 days")
        form.preset = .weekdays
        #expect(form.more == nil)
    }

    @Test func moreRepeatsSendARuleInsteadOfDays() throws {
        let monthly = try form { $0.more = .monthly(day: -1) }.request()
        #expect(monthly.days == nil)
        let rule = try #require(monthly.rule ?? nil)
        #expect(rule.text(in: Languages.english) == "Monthly on the last day")
        let once = try form { $0.more = .once(day: Fixture.day(2026, 12, 24)) }.request()
        #expect((once.rule ?? nil)?.text(in: Languages.english) == "Once on Thu, Dec 24")
        #expect(fields(form { $0.more = .everyDays(0) }) == [.rule])
        #expect(fields(form { $0.more = .yearly(month: 2, day: 30) }) == [.rule])
        #expect(fields(form { $0.more = .monthly(day: 32) }) == [.rule])
    }

    @Test func editingFillsTheFormAndSendsEveryField() throws {
        var item = Fixture.alarm(label: "Gym")
        item.volume = 40
        item.snooze = SnoozeSettings(enabled: true, minutes: 5, maxCount: 3)
        var form = AlarmForm(editing: item, today: today, language: Languages.english)
        #expect(form.isEditing)
        #expect(form.hour == 7 && form.minute == 30 && form.label == "Gym" && form.preset == .weekdays && form.snoozeMinutes == 5)
        form.volume = nil
        let request = try #require(try form.updateRequest())
        #expect(request.id == item.id)
        // Back to the configuration's volume: said explicitly.
        #expect(request.json["fields"]?.objectValue?["volume"] == 0)
        #expect(request.fields.days == .weekdays)
    }

    @Test func aRuleMadeElsewhereIsKeptAsItIs() throws {
        var rule = RecurrenceRule(.monthly, byDay: [.init(.friday, ordinal: -1)], start: today)
        rule.exceptions = [Fixture.day(2026, 4, 24)]
        var item = Fixture.alarm(days: .never)
        item.rule = rule
        let form = AlarmForm(editing: item, today: today, language: Languages.english)
        #expect(form.more == .kept(rule))
        #expect(try form.request().rule == .some(rule))
    }

    @Test func aDaemonRefusalGoesNextToItsField() {
        let form = form()
        let label = DaemonRefusal(.invalidParameter("fields.label", "must be at most 256 characters, got 300 characters"))
        #expect(label.parameter == "fields.label")
        #expect(form.fieldError(for: label) == FieldError(field: .label, message: "Label must be at most 256 characters, got 300 characters"))
        let day = DaemonRefusal(.invalidParameter("fields.rule.byMonthDay", "must be 1–31 or -31 to -1, got 40"))
        #expect(form.fieldError(for: day)?.field == .rule)
        #expect(AlarmForm.field(forParameter: "fields.snoozeMinutes") == .snoozeMinutes)
        #expect(AlarmForm.field(forParameter: "fields.time") == .hour)
        #expect(AlarmForm.field(forParameter: "fields.timeZone") == nil)
        #expect(form.fieldError(for: DaemonRefusal(VarlinkError(name: "io.alarmd.StoreFailure", parameters: ["message": "disk full"]))) == nil)
    }
}

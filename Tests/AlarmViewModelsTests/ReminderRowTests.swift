// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmViewModels
import Testing

@Suite struct ReminderRowTests {
    /// Wednesday 2026-03-11, noon UTC.
    let now = Fixture.at("2026-03-11T12:00:00Z")

    func row(_ item: ReminderItem) -> ReminderRow {
        ReminderRow(item, now: now, zone: .utc, language: SourceLocalization())
    }

    @Test func theDueTimeIsSaidAsCloseAsItIs() {
        func due(_ text: String) -> String { row(ReminderItem(id: Fixture.ids[0], title: "Call", due: Fixture.at(text))).subtitle }
        #expect(due("2026-03-11T18:00:00Z") == "Due 18:00")
        #expect(due("2026-03-12T18:00:00Z") == "Due tomorrow 18:00")
        #expect(due("2026-03-14T18:00:00Z") == "Due Sat 18:00")
        #expect(due("2026-04-20T18:00:00Z") == "Due Apr 20 18:00")
    }

    /// Past its due time, not done, not ringing or snoozed: overdue, in words.
    @Test func aToDoPastItsDueTimeIsOverdue() {
        let call = ReminderItem(id: Fixture.ids[0], title: "Call", due: Fixture.at("2026-03-11T09:00:00Z"))
        #expect(row(call).isOverdue && row(call).subtitle == "Overdue, was due 09:00")
        var done = call
        done.done = true
        #expect(!row(done).isOverdue && row(done).subtitle == "Due 09:00")
        var ringing = call
        ringing.phase = .ringing
        #expect(!row(ringing).isOverdue, "ringing now, not overdue")
        #expect(!row(ReminderItem(id: Fixture.ids[0], title: "Call", due: Fixture.at("2026-03-11T18:00:00Z"))).isOverdue)
        // An all-day to-do is overdue once its day is over, not during it.
        let today = ReminderItem(id: Fixture.ids[1], title: "Rent", due: Fixture.at("2026-03-11T09:00:00Z"), allDay: true)
        #expect(!row(today).isOverdue)
        let yesterday = ReminderItem(id: Fixture.ids[1], title: "Rent", due: Fixture.at("2026-03-10T09:00:00Z"), allDay: true)
        #expect(row(yesterday).isOverdue && row(yesterday).subtitle.hasPrefix("Overdue, was due "), "\(row(yesterday).subtitle)")
    }

    @Test func notesRepeatAndDoneShowAsAPersonReadsThem() {
        let item = ReminderItem(id: Fixture.ids[1], title: "Buy milk", notes: "oat\ntwo litres", done: true, imagePath: "/tmp/milk.png")
        let shown = row(item)
        #expect(shown.subtitle == "oat")
        #expect(shown.done && shown.checkName == "Buy milk" && shown.imagePath == "/tmp/milk.png")
        #expect(row(ReminderItem(id: Fixture.ids[2], title: "Nothing")).subtitle.isEmpty)
    }
}

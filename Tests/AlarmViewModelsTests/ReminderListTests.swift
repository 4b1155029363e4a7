// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmViewModels
import Testing

@Suite struct ReminderListTests {
    func items() -> [ReminderItem] {
        ["Milk", "Eggs", "Bread", "Tea"].enumerated().map { index, title in
            ReminderItem(id: Fixture.ids[index], title: title, done: index == 2, position: index)
        }
    }

    @Test func theDaemonsOrderWithDoneOnesHiddenOrShown() {
        let hidden = ReminderList(items().reversed())
        #expect(hidden.visible.map(\.title) == ["Milk", "Eggs", "Tea"])
        let shown = ReminderList(items(), showsDone: true)
        #expect(shown.visible.map(\.title) == ["Milk", "Eggs", "Bread", "Tea"])
        let timers = ReminderList(items() + [ReminderItem(id: Fixture.ids[8], title: "Tea timer", isTimer: true, position: 4)], content: .timers)
        #expect(timers.visible.map(\.title) == ["Tea timer"])
    }

    @Test func aMoveIsOneRemovalAndOneInsertion() {
        var list = ReminderList(items())
        var tea = Fixture.coreReminder(3, title: "Tea", position: 0)
        tea.done = false
        let change = list.apply(Fixture.event("changed", .reminder(tea), detail: "moved to 0"))
        #expect(change == .splice(removed: 2, inserted: 0))
        #expect(list.visible.map(\.title) == ["Tea", "Milk", "Eggs"])
        #expect(list.all.map(\.position) == [0, 1, 2, 3])
        #expect(list.all.map(\.title) == ["Tea", "Milk", "Eggs", "Bread"])
    }

    @Test func doneHidesAndRemovalClosesUp() {
        var list = ReminderList(items())
        let done = Fixture.coreReminder(1, title: "Eggs", position: 1, done: true)
        #expect(list.apply(Fixture.event("completed", .reminder(done))) == .splice(removed: 1, inserted: nil))
        #expect(list.visible.map(\.title) == ["Milk", "Tea"])
        #expect(list.apply(Fixture.event("changed", .reminder(Fixture.coreReminder(0, title: "Milk", position: 0)), detail: "removed")) == .splice(removed: 0, inserted: nil))
        #expect(list.all.map(\.position) == [0, 1, 2])
        let added = Fixture.coreReminder(6, title: "Jam", position: 3)
        #expect(list.apply(Fixture.event("changed", .reminder(added), detail: "added")) == .splice(removed: nil, inserted: 1))
    }

    @Test func moveUpAndDownGoToTheNeighboursPosition() {
        let list = ReminderList(items())
        #expect(list.moveRequest(at: 2, by: -1) == MoveReminderRequest(id: Fixture.ids[3], position: 1))
        #expect(list.moveRequest(at: 0, by: -1) == nil)
        #expect(list.moveRequest(at: 2, by: 1) == nil)
    }
}

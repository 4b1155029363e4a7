// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import Testing

@Suite struct AlarmListTests {
    func list() -> AlarmList {
        AlarmList([Fixture.alarm(2, 9, 0, label: "Gym"), Fixture.alarm(0, 6, 0, label: "Run"), Fixture.alarm(1, 7, 30, label: "Work")])
    }

    @Test func theListIsSortedByTimeOfDayThenLabel() {
        var list = list()
        #expect(list.items.map(\.label) == ["Run", "Work", "Gym"])
        #expect(list.update(Fixture.alarm(3, 7, 30, label: "Alpha")) == .splice(removed: nil, inserted: 1))
        #expect(list.items.map(\.label) == ["Run", "Alpha", "Work", "Gym"])
    }

    @Test func anAddedAlarmIsInsertedWhereItsTimeSays() {
        var list = list()
        let change = list.apply(Fixture.event("changed", .alarm(Fixture.coreAlarm(4, 8, 0, label: "Meds")), detail: "added"))
        #expect(change == .splice(removed: nil, inserted: 2))
        #expect(list.items.map(\.label) == ["Run", "Work", "Meds", "Gym"])
        // An event's copy has no live state: the app asks GetAlarm for it.
        #expect(list.needsState == [Fixture.ids[4]])
        #expect(!list.items[2].hasLiveState)
    }

    @Test func anEditInPlaceIsOneRowChangedAndAMoveIsARemovalAndAnInsertion() {
        var list = list()
        // Work keeps its place: the label changes.
        let renamed = list.apply(Fixture.event("changed", .alarm(Fixture.coreAlarm(1, 7, 30, label: "Office")), detail: "updated"))
        #expect(renamed == .splice(removed: 1, inserted: 1))
        // Run moves from first to last.
        let moved = list.apply(Fixture.event("changed", .alarm(Fixture.coreAlarm(0, 10, 0, label: "Run")), detail: "updated"))
        #expect(moved == .splice(removed: 0, inserted: 2))
        #expect(list.items.map(\.label) == ["Office", "Gym", "Run"])
    }

    @Test func aRemovalTakesOutOneRow() {
        var list = list()
        #expect(list.apply(Fixture.event("changed", .alarm(Fixture.coreAlarm(1, 7, 30)), detail: "removed")) == .splice(removed: 1, inserted: nil))
        #expect(list.items.map(\.label) == ["Run", "Gym"])
        #expect(list.apply(Fixture.event("changed", .alarm(Fixture.coreAlarm(1, 7, 30)), detail: "removed")) == .unchanged)
    }

    @Test func firingAndSnoozingChangeThePhase() {
        var list = list()
        #expect(list.apply(Fixture.event("fired", .alarm(Fixture.coreAlarm(1, 7, 30)))) == .splice(removed: 1, inserted: 1))
        #expect(list.items[1].phase == .ringing)
        _ = list.apply(Fixture.event("snoozed", .alarm(Fixture.coreAlarm(1, 7, 30))))
        #expect(list.items[1].phase == .snoozed)
        _ = list.apply(Fixture.event("dismissed", .alarm(Fixture.coreAlarm(1, 7, 30))))
        #expect(list.items[1].phase == .waiting)
        // The answer to GetAlarm brings the live state back.
        #expect(list.update(Fixture.alarm(1, 7, 30, label: "Work", next: "2026-03-10T07:30:00Z")) == .splice(removed: 1, inserted: 1))
        #expect(list.needsState.isEmpty)
    }

    @Test func aBatchOfEventsSaysWhenTheListMustBeReadAgain() {
        var list = list()
        let added = Fixture.event("changed", .alarm(Fixture.coreAlarm(4, 8, 0, label: "Meds")), detail: "added")
        let complete = list.apply([added, Fixture.event("fired", .alarm(Fixture.coreAlarm(1, 7, 30)))])
        #expect(complete)
        #expect(list.items.map(\.label) == ["Run", "Work", "Meds", "Gym"])
        // One unreadable event in the batch: the rest are taken in, and the
        // list asks to be read again.
        let incomplete = list.apply([WatchEvent(reply: ["event": "garbage"]), Fixture.event("changed", .alarm(Fixture.coreAlarm(0, 6, 0)), detail: "removed")])
        #expect(!incomplete)
        #expect(list.items.map(\.label) == ["Work", "Meds", "Gym"])
    }

    @Test func remindersEventsAndUnreadableOnesAreSeparated() {
        var list = list()
        #expect(list.apply(Fixture.event("changed", .reminder(Fixture.coreReminder(5, title: "Milk", position: 0)), detail: "added")) == .unchanged)
        #expect(list.apply(WatchEvent(reply: ["event": .object(["kind": "changed", "id": 3])])) == .reload)
        #expect(list.apply(WatchEvent(reply: ["event": "garbage"])) == .reload)
        var broken = Wire.Event.json(kind: "changed", item: .alarm(Fixture.coreAlarm(1, 7, 30)), scheduled: nil, actual: Fixture.at("2026-03-09T06:00:00Z"),
                                     snoozeCount: 0, detail: "updated", zone: .utc).objectValue!
        broken["alarm"] = .object(["id": .string(Fixture.ids[1]), "time": "7 o'clock"])
        #expect(list.apply(WatchEvent(reply: ["event": .object(broken)])) == .reload)
        #expect(list.items.count == 3)
    }

    @Test func anEventOfAKindNotKnownYetStillUpdatesTheItem() {
        var list = list()
        let event = Fixture.event("wobbled", .alarm(Fixture.coreAlarm(1, 7, 30, label: "Wobbly")))
        #expect(event.kind == nil && event.rawKind == "wobbled")
        #expect(list.apply(event) == .splice(removed: 1, inserted: 1))
        #expect(list.items[1].label == "Wobbly")
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

@Suite("Item table")
struct ItemTableTests {
    /// Random adds, replacements and removals (which free slots for reuse),
    /// checked after every step against plain dictionaries: items, states,
    /// wake-ups, counts, the ringing set, twins, and the order of wake-ups.
    @Test func matchesDictionariesUnderRandomOperations() throws {
        var generator = SplitMix64(seed: 7)
        let created = Date(timeIntervalSince1970: 1_800_000_000)
        let ids = (0..<40).map { _ in UUID() }
        var table = ItemTable()
        var items: [UUID: Item] = [:]
        var states: [UUID: RingState] = [:]
        var wakes: [UUID: Date] = [:]
        for step in 0..<3_000 {
            let id = ids.randomElement(using: &generator)!
            if Int.random(in: 0..<4, using: &generator) == 0 {
                table.remove(id)
                items[id] = nil
                states[id] = nil
                wakes[id] = nil
            } else {
                // A third of the time an item already here is set again as it
                // is, with a new state only (a switch or a ring does that).
                let item: Item = if let existing = items[id], Int.random(in: 0..<3, using: &generator) == 0 {
                    existing
                } else if Bool.random(using: &generator) {
                    .alarm(Alarm(id: id, time: try TimeOfDay(hour: step % 24, minute: 0), created: created))
                } else {
                    .reminder(Reminder(id: id, title: "R\(step)", created: created))
                }
                let at = created.addingTimeInterval(Double(Int.random(in: 0..<500, using: &generator)))
                let state = Bool.random(using: &generator) ? RingState(anchor: at, phase: .ringing(since: at)) : RingState(anchor: at)
                let wake: Date? = Int.random(in: 0..<5, using: &generator) == 0 ? nil : at
                table.set(item, state: state, wake: wake)
                items[id] = item
                states[id] = state
                wakes[id] = wake
            }
            #expect(table.count == items.count)
            #expect(table.alarmCount == items.values.filter { if case .alarm = $0 { true } else { false } }.count)
            #expect(table.reminderCount == items.count - table.alarmCount)
            #expect(table.ringing == Set(states.filter { $0.value.isRinging }.keys))
            #expect(table.first?.deadline == wakes.values.min())
            #expect(table[id] == items[id])
            #expect(table.state(of: id) == states[id])
            #expect(table.deadline(of: id) == wakes[id])
            // An alarm's twin is found exactly when the table holds one, in any case or spacing of its label.
            let time = try TimeOfDay(hour: step % 24, minute: 0)
            for probe in [Alarm(time: time, created: created), Alarm(time: time, label: "  " + Alarm.defaultLabel.uppercased(), created: created),
                          Alarm(time: time, days: .weekdays, created: created), Alarm(time: time, label: "Other", created: created)] {
                let twins = items.values.compactMap { if case .alarm(let alarm) = $0, alarm.isTwin(of: probe) { alarm.id } else { nil } }
                let found = table.twin(of: probe)
                #expect(found.map { twins.contains($0.id) } ?? twins.isEmpty, "step \(step): found \(String(describing: found?.id)) of \(twins)")
            }
        }
        var seen: [UUID] = []
        table.forEach { item, state in
            seen.append(item.id)
            #expect(items[item.id] == item && states[item.id] == state)
        }
        #expect(Set(seen) == Set(items.keys) && seen.count == items.count)
        #expect(table.ascending().map(\.deadline) == wakes.values.sorted())
        var popped = 0
        while let id = table.popDue(at: .distantFuture) {
            #expect(wakes[id] != nil)
            popped += 1
        }
        #expect(popped == wakes.count)
        #expect(table.count == items.count, "popping a wake-up leaves the item")
    }

    /// Thousands of alarms at one minute with labels of their own, as a
    /// client adding in a loop makes them: each is told apart from its
    /// neighbours, and a twin among them is found whichever slot it is in.
    @Test func twinsAreFoundAmongThousandsAtOneMinute() throws {
        let created = Date(timeIntervalSince1970: 1_800_000_000)
        let time = try TimeOfDay(hour: 7, minute: 0)
        var table = ItemTable()
        var alarms: [Alarm] = []
        for index in 0..<5_000 {
            let alarm = Alarm(time: time, label: "bench \(index)", created: created)
            #expect(table.twin(of: alarm) == nil)
            table.set(.alarm(alarm), state: RingState(anchor: created), wake: nil)
            alarms.append(alarm)
        }
        #expect(table.twin(of: Alarm(time: time, label: "BENCH 4321", created: created))?.id == alarms[4321].id)
        #expect(table.twin(of: Alarm(time: time, days: .weekends, label: "bench 4321", created: created)) == nil)
        // A renamed alarm is its new self to the next look, not its old.
        var renamed = alarms[17]
        renamed.label = "renamed"
        table.set(.alarm(renamed), state: RingState(anchor: created), wake: nil)
        #expect(table.twin(of: Alarm(time: time, label: "bench 17", created: created)) == nil)
        #expect(table.twin(of: Alarm(time: time, label: "Renamed", created: created))?.id == renamed.id)
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmTestSupport
import Foundation
import Testing
@testable import AlarmStore

@Suite("Ringing state")
struct StoreRingStateTests {
    @Test func everyPhaseRoundTripsThroughReopen() throws {
        try withTemporaryDirectory { directory throws in
            let path = storePath(in: directory)
            let created = Date(timeIntervalSince1970: 1_800_000_000)
            let alarm = Alarm(time: try TimeOfDay(hour: 6, minute: 0), days: .weekdays, created: created)
            let reminder = Reminder(title: "Bins", due: created.addingTimeInterval(60), created: created)
            let states: [(UUID, ItemKind, RingState)] = [
                (alarm.id, .alarm, RingState(anchor: created, phase: .ringing(since: created.addingTimeInterval(1.5)), occurrence: created, snoozeCount: 0)),
                (reminder.id, .reminder, RingState(anchor: created.addingTimeInterval(60), phase: .snoozed(until: created.addingTimeInterval(600)), occurrence: created.addingTimeInterval(60), snoozeCount: 3)),
            ]
            try withStore(at: path) { store throws in
                try store.insert(alarm)
                try store.insert(reminder)
                try store.saveRingStates(states)
                // Saving again replaces, it does not add.
                try store.saveRingStates([(alarm.id, .alarm, RingState(anchor: created.addingTimeInterval(86_400)))])
            }
            let store = try Store(path: path)
            defer { store.close() }
            #expect(try store.ringStates() == [
                alarm.id: RingState(anchor: created.addingTimeInterval(86_400)),
                reminder.id: states[1].2,
            ])
            try store.removeReminder(id: reminder.id)
            #expect(try store.ringStates().keys.sorted { $0.uuidString < $1.uuidString } == [alarm.id])
        }
    }

    @Test func aFailedBatchSavesNothing() throws {
        try withTemporaryStore { store throws in
            let id = UUID()
            let good = RingState(anchor: Date(timeIntervalSince1970: 1_000))
            let unstorable = RingState(anchor: Date(timeIntervalSince1970: .infinity))
            #expect(throws: StoreError.self) { try store.saveRingStates([(id, .alarm, good), (UUID(), .alarm, unstorable)]) }
            #expect(try store.ringStates().isEmpty)
        }
    }
}

@Suite("Start-up load")
struct StoreLoadTests {
    /// The merge of alarms and ring states walks both in id order: alarms with
    /// and without a state, reminders' states between them, and a state whose
    /// item is gone (a hand-edited file) must each land where they belong.
    @Test func everyItemArrivesWithItsOwnStateOrNone() throws {
        try withTemporaryStore { store throws in
            // Ids interleave: 1 alarm (state), 2 reminder (state), 3 alarm (none),
            // 4 orphan state, 5 alarm (state), 6 reminder (none), 0xF0 alarm (state).
            let alarms = try [1, 3, 5, 0xF0].map { try Sample.alarm(UInt8($0), label: "A\($0)") }
            let reminders = [2, 6].map { Sample.reminder(UInt8($0)) }
            for alarm in alarms { try store.insert(alarm) }
            for reminder in reminders { try store.insert(reminder) }
            func state(_ n: Double) -> RingState { RingState(anchor: Date(timeIntervalSince1970: 1_800_000_000 + n)) }
            try store.saveRingStates([
                (Sample.id(1), .alarm, state(1)), (Sample.id(2), .reminder, state(2)),
                (Sample.id(5), .alarm, state(5)), (Sample.id(0xF0), .alarm, state(0xF0)),
            ])
            try rawExecute(store.path, "PRAGMA foreign_keys = OFF; INSERT INTO ring_states (item_id, item_kind, anchor_usec, phase) VALUES (x'04A1A2A3B1B241C281D2E1E2E3E4E504', 'alarm', 0, 'waiting')")
            var loaded: [UUID: (Item, RingState?)] = [:]
            try store.loadItems { item, state in
                #expect(loaded[item.id] == nil, "\(item.id) twice")
                loaded[item.id] = (item, state)
            }
            #expect(try store.itemCount() == 6)
            #expect(loaded.count == 6)
            #expect(loaded[Sample.id(1)]?.1 == state(1))
            #expect(loaded[Sample.id(2)]?.1 == state(2))
            #expect(loaded[Sample.id(3)].map { $0.1 == nil } == true)
            #expect(loaded[Sample.id(4)] == nil)
            #expect(loaded[Sample.id(5)]?.1 == state(5))
            #expect(loaded[Sample.id(6)].map { $0.1 == nil } == true)
            #expect(loaded[Sample.id(0xF0)]?.1 == state(0xF0))
            for alarm in alarms { #expect(loaded[alarm.id]?.0 == .alarm(alarm)) }
            for reminder in reminders { #expect(loaded[reminder.id]?.0.title == reminder.title) }
        }
    }
}

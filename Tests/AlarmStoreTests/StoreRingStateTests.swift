import AlarmCore
import Foundation
import Testing
@testable import AlarmStore

@Suite("Ringing state")
struct StoreRingStateTests {
    @Test func everyPhaseRoundTripsThroughReopen() throws {
        try withScratchDirectory { directory throws in
            let path = storePath(in: directory)
            let created = Date(timeIntervalSince1970: 1_800_000_000)
            let alarm = Alarm(time: try TimeOfDay(hour: 6, minute: 0), days: .weekdays, created: created)
            let reminder = Reminder(title: "Bins", due: created.addingTimeInterval(60), created: created)
            let states: [(UUID, ItemKind, RingState)] = [
                (alarm.id, .alarm, RingState(anchor: created, phase: .ringing(since: created.addingTimeInterval(1.5)), occurrence: created, snoozeCount: 0)),
                (reminder.id, .reminder, RingState(anchor: created.addingTimeInterval(60), phase: .snoozed(until: created.addingTimeInterval(600)), occurrence: created.addingTimeInterval(60), snoozeCount: 3)),
            ]
            do {
                let store = try Store(path: path)
                defer { store.close() }
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
        try withScratchDirectory { directory throws in
            let store = try Store(path: storePath(in: directory))
            defer { store.close() }
            let id = UUID()
            let good = RingState(anchor: Date(timeIntervalSince1970: 1_000))
            let unstorable = RingState(anchor: Date(timeIntervalSince1970: .infinity))
            #expect(throws: StoreError.self) { try store.saveRingStates([(id, .alarm, good), (UUID(), .alarm, unstorable)]) }
            #expect(try store.ringStates().isEmpty)
        }
    }
}

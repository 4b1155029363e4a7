// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmTestSupport
import Foundation
import Testing
@testable import AlarmStore

@Suite("Store updates, removals and validation")
struct StoreMutationTests {
    @Test func alarmsUpdateAndRemove() throws {
        try withTemporaryStore { store throws in
            var alarm = try Sample.alarm(1)
            try store.insert(alarm)
            try store.insert(try Sample.alarm(2))

            alarm.label = "Gym"
            alarm.days = .weekends
            alarm.timeZone = Zone(identifier: "Asia/Tokyo")
            alarm.updated = Sample.updated
            try store.update(alarm)
            #expect(try store.alarm(id: alarm.id) == alarm)

            try store.removeAlarm(id: alarm.id)
            #expect(try store.alarm(id: alarm.id) == nil)
            #expect(try store.alarms().map(\.id) == [Sample.id(2)])

            expectError(.notFound(id: alarm.id)) { () throws(StoreError) in try store.update(alarm) }
            expectError(.notFound(id: alarm.id)) { () throws(StoreError) in try store.removeAlarm(id: alarm.id) }
            #expect(try store.alarms().count == 1)
        }
    }

    @Test func remindersUpdateWithoutMoving() throws {
        try withTemporaryStore { store throws in
            try store.insert(Sample.reminder(1))
            try store.insert(Sample.reminder(2))
            var second = try #require(try store.reminder(id: Sample.id(2)))
            second.title = "Changed"
            second.done = true
            second.due = Sample.updated
            second.position = 0
            try store.update(second)

            let stored = try #require(try store.reminder(id: Sample.id(2)))
            #expect(stored.title == "Changed")
            #expect(stored.done)
            #expect(stored.due == Sample.updated)
            #expect(stored.position == 1)
            #expect(try store.reminders().map(\.id) == [Sample.id(1), Sample.id(2)])

            let missing = Sample.reminder(9)
            expectError(.notFound(id: missing.id)) { () throws(StoreError) in try store.update(missing) }
            expectError(.notFound(id: missing.id)) { () throws(StoreError) in try store.removeReminder(id: missing.id) }
        }
    }

    @Test func invalidItemsAreRefusedNamingTheField() throws {
        try withTemporaryStore { store throws in

            let blank = try Sample.alarm(1, label: "  ")
            #expect(invalidError { () throws(StoreError) in try store.insert(blank) }?.field == "label")
            var alarm = try Sample.alarm(2)
            alarm.ringSeconds = 0
            #expect(invalidError { () throws(StoreError) in try store.insert(alarm) }?.field == "ringSeconds")
            alarm.ringSeconds = 60
            alarm.created = Date(timeIntervalSince1970: .infinity)
            #expect(invalidError { () throws(StoreError) in try store.insert(alarm) }?.field == "created")
            #expect(invalidError { () throws(StoreError) in try store.insert(Sample.reminder(3, title: "")) }?.field == "title")
            var reminder = Sample.reminder(4)
            reminder.imagePath = "relative.png"
            #expect(invalidError { () throws(StoreError) in try store.insert(reminder) }?.field == "imagePath")
            #expect(try store.alarms().isEmpty)
            #expect(try store.reminders().isEmpty)

            // An invalid update leaves the stored item as it was.
            let good = try Sample.alarm(5)
            try store.insert(good)
            var bad = good
            bad.snooze.minutes = 61
            #expect(invalidError { () throws(StoreError) in try store.update(bad) }?.field == "snoozeMinutes")
            #expect(try store.alarm(id: good.id) == good)
        }
    }

    @Test func duplicateIDsAreInvalid() throws {
        try withTemporaryStore { store throws in
            try store.insert(try Sample.alarm(1))
            let other = try Sample.alarm(1, label: "Other")
            let clash = invalidError { () throws(StoreError) in try store.insert(other) }
            #expect(clash?.field == "id")
            #expect(try store.alarms().map(\.label) == ["Alarm"])

            try store.insert(Sample.reminder(2))
            #expect(invalidError { () throws(StoreError) in try store.insert(Sample.reminder(2)) }?.field == "id")
            #expect(try store.reminders().count == 1)
        }
    }
}

@Suite("Reminder positions")
struct ReminderPositionTests {
    /// Opens a store holding reminders 1…5 in that order.
    private func withFiveReminders(_ body: (Store) throws -> Void) throws {
        try withTemporaryStore { store throws in
            for number in UInt8(1)...5 {
                var reminder = Sample.reminder(number)
                reminder.position = 42
                try store.insert(reminder)
            }
            try body(store)
        }
    }

    /// The reminder numbers in list order, after checking that positions are 0..<count.
    private func order(_ store: Store, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        let reminders = try store.reminders()
        #expect(reminders.map(\.position) == Array(reminders.indices), sourceLocation: sourceLocation)
        return reminders.map { $0.id.uuid.0 }
    }

    @Test func appendedInOrderWithDensePositions() throws {
        try withFiveReminders { store throws in
            #expect(try order(store) == [1, 2, 3, 4, 5])
            #expect(try store.reminder(id: Sample.id(5))?.position == 4)
        }
    }

    @Test func moveToFrontBackAndMiddle() throws {
        try withFiveReminders { store throws in
            try store.moveReminder(id: Sample.id(4), to: 0)
            #expect(try order(store) == [4, 1, 2, 3, 5])
            try store.moveReminder(id: Sample.id(4), to: 4)
            #expect(try order(store) == [1, 2, 3, 5, 4])
            try store.moveReminder(id: Sample.id(1), to: 2)
            #expect(try order(store) == [2, 3, 1, 5, 4])
            try store.moveReminder(id: Sample.id(4), to: 1)
            #expect(try order(store) == [2, 4, 3, 1, 5])
            try store.moveReminder(id: Sample.id(3), to: 2)
            #expect(try order(store) == [2, 4, 3, 1, 5])
        }
    }

    @Test func removeClosesTheGap() throws {
        try withFiveReminders { store throws in
            try store.removeReminder(id: Sample.id(3))
            #expect(try order(store) == [1, 2, 4, 5])
            try store.removeReminder(id: Sample.id(1))
            #expect(try order(store) == [2, 4, 5])
            try store.removeReminder(id: Sample.id(5))
            #expect(try order(store) == [2, 4])
            try store.insert(Sample.reminder(6))
            #expect(try order(store) == [2, 4, 6])
        }
    }

    @Test func moveOutOfRangeIsAnErrorAndChangesNothing() throws {
        try withFiveReminders { store throws in
            for position in [-1, 5, 100] {
                let error = invalidError { () throws(StoreError) in try store.moveReminder(id: Sample.id(2), to: position) }
                #expect(error?.field == "position")
                #expect(error?.value == String(position))
            }
            #expect(try order(store) == [1, 2, 3, 4, 5])
            expectError(.notFound(id: Sample.id(9))) { () throws(StoreError) in
                try store.moveReminder(id: Sample.id(9), to: 0)
            }
            #expect(try order(store) == [1, 2, 3, 4, 5])
        }
    }
}

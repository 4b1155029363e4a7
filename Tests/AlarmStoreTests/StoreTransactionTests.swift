// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmTestSupport
import Foundation
import Testing
@testable import AlarmStore

@Suite("Transactions and bulk replacement")
struct StoreTransactionTests {
    @Test func anErrorInsideATransactionWritesNothing() throws {
        try withTemporaryStore { store throws in
            try store.insert(try Sample.alarm(1))
            let second = try Sample.alarm(2)
            var changed = try Sample.alarm(1, label: "Changed")
            changed.updated = Sample.updated

            expectError(.notFound(id: Sample.id(9))) { () throws(StoreError) in
                try store.transaction { () throws(StoreError) in
                    try store.insert(second)
                    try store.update(changed)
                    try store.insert(Sample.reminder(3))
                    try store.record(Sample.event(second.id, .fired, at: 1_000))
                    try store.removeAlarm(id: Sample.id(9))
                }
            }
            #expect(try store.alarms() == [try Sample.alarm(1)])
            #expect(try store.reminders().isEmpty)
            #expect(try store.history().isEmpty)
            #expect(store.database?.isAutocommit == true)
        }
    }

    @Test func aTransactionCommitsAndReturnsItsValue() throws {
        try withTemporaryStore { store throws in
            let alarm = try Sample.alarm(1)
            let count = try store.transaction { () throws(StoreError) -> Int in
                try store.insert(alarm)
                try store.insert(Sample.reminder(2))
                return try store.alarms().count
            }
            #expect(count == 1)
            #expect(try store.alarms().count == 1)
            #expect(try store.reminders().count == 1)
        }
    }

    @Test func aCaughtInnerFailureUndoesOnlyTheInnerWork() throws {
        try withTemporaryStore { store throws in
            let outer = try Sample.alarm(1)
            let inner = try Sample.alarm(2)
            try store.transaction { () throws(StoreError) in
                try store.insert(outer)
                do throws(StoreError) {
                    try store.transaction { () throws(StoreError) in
                        try store.insert(inner)
                        throw StoreError.notFound(id: Sample.id(9))
                    }
                } catch {
                    #expect(error == .notFound(id: Sample.id(9)))
                }
                try store.insert(Sample.reminder(3))
            }
            #expect(try store.alarms() == [outer])
            #expect(try store.reminders().map(\.id) == [Sample.id(3)])
        }
    }

    @Test func replaceAllReplacesEverythingButHistory() throws {
        try withTemporaryStore { store throws in
            try store.insert(try Sample.alarm(1))
            try store.insert(Sample.reminder(2))
            try store.record(Sample.event(Sample.id(1), .fired, at: 1_000))

            let alarms = try (10..<20).map { try Sample.alarm(UInt8($0), label: "Imported \($0)", minute: $0) }
            var reminders = (30..<33).map { Sample.reminder(UInt8($0)) }
            reminders[0].position = 9
            try store.replaceAll(alarms: alarms, reminders: reminders)

            #expect(Set(try store.alarms()) == Set(alarms))
            #expect(try store.reminders().map(\.id) == reminders.map(\.id))
            #expect(try store.reminders().map(\.position) == [0, 1, 2])
            #expect(try store.history().count == 1)
        }
    }

    @Test func replaceAllWithOneBadItemWritesNothing() throws {
        try withTemporaryStore { store throws in
            let original = try Sample.alarm(1)
            try store.insert(original)
            try store.insert(Sample.reminder(2))

            var alarms = try (10..<15).map { try Sample.alarm(UInt8($0)) }
            alarms[3].label = ""
            #expect(invalidError { () throws(StoreError) in
                try store.replaceAll(alarms: alarms, reminders: [Sample.reminder(20)])
            }?.field == "label")

            let duplicated = [Sample.reminder(20), Sample.reminder(21), Sample.reminder(20)]
            #expect(invalidError { () throws(StoreError) in
                try store.replaceAll(alarms: [], reminders: duplicated)
            }?.field == "id")

            #expect(try store.alarms() == [original])
            #expect(try store.reminders().map(\.id) == [Sample.id(2)])
        }
    }
}

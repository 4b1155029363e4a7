// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmTestSupport
import Foundation
import Testing
@testable import AlarmStore

@Suite("History")
struct StoreHistoryTests {
    @Test func newestFirstAndFilteredByItem() throws {
        try withTemporaryDirectory { directory throws in
            let path = storePath(in: directory)
            let store = try Store(path: path)
            let first = Sample.id(1)
            let second = Sample.id(2)
            let events = [
                Sample.event(first, .fired, at: 1_000),
                Sample.event(first, .snoozed, at: 1_010, detail: "snooze 1 of 3"),
                HistoryEvent(itemID: second, itemKind: .reminder, event: .completed, scheduled: nil,
                             actual: Date(timeIntervalSince1970: 1_020)),
            ]
            try store.record(events)
            try store.record(Sample.event(first, .timedOut, at: 1_030, detail: "late by 2 h ✓"))
            store.close()

            let reopened = try Store(path: path)
            defer { reopened.close() }
            let all = [events[0], events[1], events[2], Sample.event(first, .timedOut, at: 1_030, detail: "late by 2 h ✓")]
            #expect(try reopened.history() == all.reversed())
            #expect(try reopened.history(itemID: first) == [all[3], all[1], all[0]])
            #expect(try reopened.history(itemID: second) == [all[2]])
            #expect(try reopened.history(itemID: Sample.id(3)).isEmpty)
            #expect(try reopened.history(limit: 2) == [all[3], all[2]])
            #expect(try reopened.history(itemID: first, limit: 1) == [all[3]])
            #expect(try reopened.history(limit: 0).isEmpty)
            #expect(try reopened.history()[1].scheduled == nil)
            #expect(invalidError { () throws(StoreError) in try reopened.history(limit: -1) }?.field == "limit")
        }
    }

    @Test func aBatchWithAnUnstorableEventRecordsNothing() throws {
        try withTemporaryStore { store throws in
            var bad = Sample.event(Sample.id(1), .missed, at: 2_000)
            bad.actual = Date(timeIntervalSince1970: .nan)
            let error = invalidError { () throws(StoreError) in
                try store.record([Sample.event(Sample.id(1), .fired, at: 1_000), bad])
            }
            #expect(error?.field == "actual")
            #expect(try store.history().isEmpty)
        }
    }

    @Test func historyOutlivesItsItem() throws {
        try withTemporaryStore { store throws in
            let alarm = try Sample.alarm(1)
            try store.insert(alarm)
            try store.record(Sample.event(alarm.id, .dismissed, at: 5_000))
            try store.removeAlarm(id: alarm.id)
            #expect(try store.history(itemID: alarm.id).count == 1)
        }
    }
}

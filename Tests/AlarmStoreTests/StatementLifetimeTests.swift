// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmTestSupport
import CSQLite
import Foundation
import Testing
@testable import AlarmStore

@Suite("Statement lifetime")
struct StatementLifetimeTests {
    @Test func noStatementOutlivesItsCallAndCloseSucceeds() throws {
        try withTemporaryStore { store throws in
            let database = try #require(store.database)

            for number in UInt8(1)...20 {
                try store.insert(try Sample.alarm(number))
                try store.insert(Sample.reminder(number &+ 100))
            }
            var alarm = try #require(try store.alarm(id: Sample.id(3)))
            alarm.label = "Changed"
            try store.update(alarm)
            try store.moveReminder(id: Sample.id(105), to: 0)
            try store.removeReminder(id: Sample.id(110))
            try store.removeAlarm(id: Sample.id(4))
            try store.record((0..<10).map { Sample.event(Sample.id(1), .fired, at: Double($0)) })
            _ = try store.alarms()
            _ = try store.reminders()
            _ = try store.history(itemID: Sample.id(1), limit: 3)
            try store.replaceAll(alarms: try store.alarms(), reminders: try store.reminders())

            // Failures part-way through must not leak statements either.
            _ = try? store.update(try Sample.alarm(99))
            _ = try? store.moveReminder(id: Sample.id(105), to: 1_000)
            _ = try? store.insert(try Sample.alarm(1))
            let doomed = try Sample.alarm(50)
            _ = try? store.transaction { () throws(StoreError) in
                #expect(store.openStatementCount == 0)
                try store.insert(doomed)
                #expect(store.openStatementCount == 0)
                throw StoreError.notFound(id: Sample.id(50))
            }

            #expect(store.openStatementCount == 0)
            // Only the statements every change runs stay prepared, each once
            // however often it ran, and none of them is left mid-step.
            let kept = database.cachedStatementCount
            #expect(kept > 0 && kept <= 16, "\(kept) statements cached")
            var statement = database.handle.flatMap { sqlite3_next_stmt($0, nil) }
            var alive = 0
            while let current = statement {
                alive += 1
                #expect(sqlite3_stmt_busy(current) == 0, "\(String(cString: sqlite3_sql(current)))")
                statement = sqlite3_next_stmt(database.handle, current)
            }
            #expect(alive == kept)
            // Closing finalizes the cache first, so the connection closes outright
            // instead of lingering as a "zombie" until the last statement is finalized.
            #expect(database.close() == SQLITE_OK)
            store.close()
        }
    }
}

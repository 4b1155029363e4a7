// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Foundation
import Testing
@testable import AlarmStore

@Suite("SQLite wrapper")
struct SQLiteWrapperTests {
    private func memoryDatabase() throws -> SQLiteDatabase {
        try SQLiteDatabase(path: ":memory:", flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
    }

    @Test func zeroLengthBlobAndNullAreValues() throws {
        let database = try memoryDatabase()
        try database.withStatement("SELECT x'', NULL, '', x'0102', 42, 1.5") { statement throws(SQLiteError) in
            #expect(try statement.step())
            #expect(statement.columnCount == 6)
            #expect(statement.value(at: 0) == .blob([]))
            #expect(statement.blob(at: 0) == [])
            #expect(statement.isNull(at: 0) == false)
            #expect(statement.uuid(at: 0) == nil)
            #expect(statement.value(at: 1) == .null)
            #expect(statement.blob(at: 1) == nil)
            #expect(statement.text(at: 1) == nil)
            #expect(statement.optionalInt64(at: 1) == nil)
            #expect(statement.isNull(at: 1))
            #expect(statement.value(at: 2) == .text(""))
            #expect(statement.text(at: 2) == "")
            #expect(statement.value(at: 3) == .blob([1, 2]))
            #expect(statement.value(at: 4) == .integer(42))
            #expect(statement.value(at: 5) == .real(1.5))
            #expect(try statement.step() == false)
        }
    }

    @Test func bindingKeepsEmptyValuesDistinctFromNull() throws {
        let database = try memoryDatabase()
        let id = UUID()
        let sql = "SELECT ?1, ?2, ?3, ?4, ?5, typeof(?1), typeof(?2), ?6"
        let values = try database.withStatement(sql) { statement throws(SQLiteError) in
            try statement.bind("", at: 1)
            try statement.bind([UInt8](), at: 2)
            try statement.bind(String?.none, at: 3)
            try statement.bind(id, at: 4)
            try statement.bind("nul\u{0}inside ✓", at: 5)
            try statement.bind(SQLiteValue.integer(-7), at: 6)
            try statement.step()
            return (0..<8).map { statement.value(at: $0) } + [statement.uuid(at: 3).map { SQLiteValue.text($0.uuidString) } ?? .null]
        }
        #expect(values == [
            .text(""), .blob([]), .null, .blob(withUnsafeBytes(of: id.uuid) { Array($0) }),
            .text("nul\u{0}inside ✓"), .text("text"), .text("blob"), .integer(-7), .text(id.uuidString),
        ])
    }

    @Test func statementsAreFinalizedWhenTheirScopeEnds() throws {
        let database = try memoryDatabase()
        #expect(database.openStatementCount == 0)
        try database.withStatement("SELECT 1") { statement throws(SQLiteError) in
            #expect(database.openStatementCount == 1)
            try statement.step()
        }
        #expect(database.openStatementCount == 0)

        let failure = SQLiteError(code: SQLITE_ABORT, message: "stop", operation: "test")
        #expect(throws: failure) {
            try database.withStatement("SELECT 1 UNION ALL SELECT 2") { statement throws(SQLiteError) in
                try statement.step()
                throw failure
            }
        }
        #expect(database.openStatementCount == 0)
        #expect(database.close() == SQLITE_OK)
    }

    @Test func cachedStatementsArePreparedOnceResetAndUnboundAfterEachUse() throws {
        let database = try memoryDatabase()
        try database.execute("CREATE TABLE t (v TEXT)")
        for value in ["a", "b", "c"] {
            try database.withCachedStatement("INSERT INTO t VALUES (?1)") { statement throws(SQLiteError) in
                try statement.bind(value, at: 1)
                try statement.step()
            }
        }
        #expect(database.cachedStatementCount == 1)
        #expect(database.openStatementCount == 0)
        // The bindings were cleared: a use that binds nothing inserts NULL, not "c".
        try database.withCachedStatement("INSERT INTO t VALUES (?1)") { statement throws(SQLiteError) in try statement.step() }
        #expect(try database.integer("SELECT count(*) FROM t WHERE v IS NULL") == 1)
        // A failing use leaves the statement reset and usable.
        let failure = SQLiteError(code: SQLITE_ABORT, message: "stop", operation: "test")
        #expect(throws: failure) {
            try database.withCachedStatement("SELECT v FROM t") { statement throws(SQLiteError) in
                try statement.step()
                throw failure
            }
        }
        let first = try database.withCachedStatement("SELECT v FROM t") { statement throws(SQLiteError) in
            try statement.step() ? statement.text(at: 0) : nil
        }
        #expect(first == "a")
        #expect(database.close() == SQLITE_OK)
    }

    @Test func errorsCarryCodeMessageAndOperation() throws {
        let database = try memoryDatabase()
        do throws(SQLiteError) {
            try database.withStatement("SELECT * FROM nowhere") { _ throws(SQLiteError) in }
            Issue.record("prepared a query on a missing table")
        } catch {
            #expect(error.code == SQLITE_ERROR)
            #expect(error.message.contains("no such table: nowhere"))
            #expect(error.operation.contains("prepare SELECT * FROM nowhere"))
        }

        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        do throws(SQLiteError) {
            try database.execute("INSERT INTO t VALUES (1, NULL)")
            Issue.record("inserted NULL into a NOT NULL column")
        } catch {
            // Extended codes are on, so the error says which constraint.
            #expect(error.primaryCode == SQLITE_CONSTRAINT)
            #expect(error.code != SQLITE_CONSTRAINT)
            #expect(error.message.contains("NOT NULL"))
        }
    }

    @Test func onlyOneStatementPerPrepare() throws {
        let database = try memoryDatabase()
        #expect(throws: SQLiteError.self) {
            try database.withStatement("SELECT 1; SELECT 2") { _ throws(SQLiteError) in }
        }
        #expect(throws: SQLiteError.self) {
            try database.withStatement("  -- nothing here\n") { _ throws(SQLiteError) in }
        }
        #expect(database.openStatementCount == 0)
    }

    @Test func aClosedDatabaseFailsCleanly() throws {
        let database = try memoryDatabase()
        #expect(database.close() == SQLITE_OK)
        #expect(database.close() == SQLITE_OK)
        do throws(SQLiteError) {
            try database.execute("SELECT 1")
            Issue.record("ran SQL on a closed connection")
        } catch {
            #expect(error.code == SQLITE_MISUSE)
        }
    }
}

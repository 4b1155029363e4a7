// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Glibc

/// An open SQLite connection: a thin owner of a `sqlite3 *` handle.
///
/// Not thread-safe: the connection is opened with `SQLITE_OPEN_NOMUTEX`, so one
/// thread (or one serial queue) at a time must use it, which is how ``Store`` uses it.
final class SQLiteDatabase {
    /// The raw handle; `nil` once ``close()`` has run.
    private(set) var handle: OpaquePointer?
    /// Statements kept prepared between uses, by their SQL (see
    /// ``withCachedStatement(_:_:)``). Only fixed SQL goes here, so it stays small.
    private var cache: [String: SQLiteStatement] = [:]

    /// The process's SQLite set up once, before its first connection: each
    /// connection is one thread's (`SQLITE_OPEN_NOMUTEX`), and with memory
    /// statistics off an allocation takes no global lock either.
    private static let configured: Void = { _ = alarmd_sqlite_stop_memory_statistics() }()

    /// Opens `path` with `flags` (`SQLITE_OPEN_READWRITE`, …).
    ///
    /// Note that opening succeeds even for a file that is not a database at all: SQLite
    /// reads nothing until the first query, which is where `SQLITE_NOTADB` shows up.
    init(path: String, flags: Int32) throws(SQLiteError) {
        _ = Self.configured
        var handle: OpaquePointer?
        do {
            try SQLiteError.check(sqlite3_open_v2(path, &handle, flags, nil), connection: handle, "open \(path)")
        } catch {
            // "unable to open database file" does not say why; the system's errno does
            // (a file another user owns, a missing directory).
            let osError = handle.map { sqlite3_system_errno($0) } ?? 0
            // sqlite3_open_v2 allocates a connection even when it fails; it must still be closed.
            sqlite3_close_v2(handle)
            guard osError != 0 else { throw error }
            throw SQLiteError(code: error.code, message: "\(error.message): \(String(cString: strerror(osError)))", operation: error.operation)
        }
        guard let handle else {
            throw SQLiteError.failure(SQLITE_NOMEM, connection: nil, "open \(path)")
        }
        // Extended codes tell, e.g., a primary-key clash from other constraint failures.
        sqlite3_extended_result_codes(handle, 1)
        self.handle = handle
    }

    deinit {
        close()
    }

    /// Closes the connection; later calls do nothing and return `SQLITE_OK`.
    ///
    /// Uses `sqlite3_close_v2`, so a statement that somehow outlived its scope cannot
    /// keep the connection open for ever: SQLite closes it when that statement is
    /// finalized. Scoped statements (``withStatement(_:_:)``) make that case a bug, which
    /// tests catch through ``openStatementCount``.
    @discardableResult
    func close() -> Int32 {
        guard let handle else { return SQLITE_OK }
        for statement in cache.values { statement.finalize() }
        cache.removeAll()
        self.handle = nil
        return sqlite3_close_v2(handle)
    }

    /// Makes the statement running on this connection stop soon with
    /// `SQLITE_INTERRUPT`. Safe from another thread while the connection is in
    /// use, as long as it is not closed meanwhile.
    func interrupt() {
        if let handle { sqlite3_interrupt(handle) }
    }

    /// Calls `handler(context)` every `instructions` virtual-machine steps of
    /// a running statement; a non-zero answer stops the statement with
    /// `SQLITE_INTERRUPT`. Unlike ``interrupt()``, which is forgotten when no
    /// statement is running at the moment it is called, a handler that polls a
    /// flag cannot miss a request made between two statements.
    func setProgressHandler(every instructions: Int32, context: UnsafeMutableRawPointer,
                            _ handler: @convention(c) (UnsafeMutableRawPointer?) -> Int32) {
        if let handle { sqlite3_progress_handler(handle, instructions, handler, context) }
    }

    /// The handle, or a `SQLITE_MISUSE` error once the connection is closed.
    func connection(for operation: @autoclosure () -> String) throws(SQLiteError) -> OpaquePointer {
        guard let handle else {
            throw SQLiteError.failure(SQLITE_MISUSE, connection: nil, operation() + " (connection closed)")
        }
        return handle
    }

    /// Prepares `sql` (exactly one statement), runs `body` with it, and finalizes it
    /// when `body` returns or throws, so no statement outlives its use.
    func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        let statement = try SQLiteStatement(connection: connection(for: "prepare \(sql)"), sql: sql)
        defer { statement.finalize() }
        return try body(statement)
    }

    /// Like ``withStatement(_:_:)``, but the statement stays prepared for the
    /// next use of the same `sql`: reset and its bindings cleared when `body`
    /// returns or throws, finalized by ``close()``.
    ///
    /// For the statements every change runs (insert, update, the ring-state
    /// upsert, a history row, `BEGIN`/`COMMIT` and savepoints): compiling them
    /// anew each time was about a third of the daemon's CPU per change under
    /// group commit. `sql` must be one of a fixed set of texts, never built
    /// from values, or the cache would grow without bound.
    func withCachedStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        let statement: SQLiteStatement
        if let cached = cache[sql] {
            statement = cached
        } else {
            statement = try SQLiteStatement(connection: connection(for: "prepare \(sql)"), sql: sql, persistent: true)
            cache[sql] = statement
        }
        defer { statement.reset(clearingBindings: true) }
        return try body(statement)
    }

    /// Runs one fixed statement that returns no rows, kept prepared
    /// (``withCachedStatement(_:_:)``).
    func executeCached(_ sql: String) throws(SQLiteError) {
        try withCachedStatement(sql) { statement throws(SQLiteError) in _ = try statement.step() }
    }

    /// How many statements ``withCachedStatement(_:_:)`` keeps prepared.
    var cachedStatementCount: Int { cache.count }

    /// Runs one or more semicolon-separated statements that return no rows of interest
    /// (schema scripts, `BEGIN`, `COMMIT`, pragmas that set a value).
    func execute(_ sql: String) throws(SQLiteError) {
        let handle = try connection(for: "execute \(sql)")
        try SQLiteError.check(sqlite3_exec(handle, sql, nil, nil, nil), connection: handle, "execute \(sql)")
    }

    /// The first column of the first row of `sql`, as an integer; `nil` if there is no row.
    func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        try withStatement(sql) { statement throws(SQLiteError) in
            try statement.step() ? statement.int64(at: 0) : nil
        }
    }

    /// The first column of every row of `sql`, as text (NULL reads as an empty string).
    func texts(_ sql: String) throws(SQLiteError) -> [String] {
        try withStatement(sql) { statement throws(SQLiteError) in
            var rows: [String] = []
            while try statement.step() { rows.append(statement.text(at: 0) ?? "") }
            return rows
        }
    }

    /// Sets how long a statement waits for another connection's lock before failing
    /// with `SQLITE_BUSY`.
    func setBusyTimeout(milliseconds: Int32) throws(SQLiteError) {
        let handle = try connection(for: "set busy timeout")
        try SQLiteError.check(sqlite3_busy_timeout(handle, milliseconds), connection: handle, "set busy timeout")
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    var changes: Int64 {
        handle.map { sqlite3_changes64($0) } ?? 0
    }

    /// `true` outside an explicit transaction. SQLite can end a transaction on its own
    /// (it rolls back after `SQLITE_FULL` or an I/O error), so callers ask rather than track.
    var isAutocommit: Bool {
        handle.map { sqlite3_get_autocommit($0) != 0 } ?? true
    }

    /// How many prepared statements are alive on this connection besides those
    /// kept in the cache; 0 whenever no query is running, or a statement
    /// escaped its scope.
    var openStatementCount: Int {
        guard let handle else { return 0 }
        var count = -cache.count
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            count += 1
            statement = sqlite3_next_stmt(handle, current)
        }
        return count
    }
}

// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Glibc
import FoundationEssentials

/// A prepared statement: a thin owner of a `sqlite3_stmt *` handle.
///
/// Obtain one through ``SQLiteDatabase/withStatement(_:_:)``, which finalizes it when
/// the scope ends; `deinit` finalizes too, as a backstop. Parameters are 1-based,
/// result columns 0-based, as in SQLite's C API.
final class SQLiteStatement {
    private var handle: OpaquePointer?

    /// Compiles `sql`, which must hold exactly one statement. `persistent`
    /// tells SQLite it will be kept and reused (`SQLITE_PREPARE_PERSISTENT`).
    init(connection: OpaquePointer, sql: String, persistent: Bool = false) throws(SQLiteError) {
        var handle: OpaquePointer?
        var trailing = ""
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(connection, text, -1, flags, &handle, &tail)
            if let tail { trailing = String(cString: tail) }
            return code
        }
        try SQLiteError.check(code, connection: connection, "prepare \(sql)")
        // prepare compiles only the first statement and yields no handle for blank SQL;
        // silently ignoring the rest would hide a bug, so both are refused.
        guard let handle, trailing.allSatisfy(\.isWhitespace) else {
            sqlite3_finalize(handle)
            throw SQLiteError.failure(SQLITE_MISUSE, connection: nil, "prepare \(sql): expected exactly one statement")
        }
        self.handle = handle
    }

    deinit {
        finalize()
    }

    /// Releases the statement; later calls do nothing.
    func finalize() {
        guard let handle else { return }
        self.handle = nil
        sqlite3_finalize(handle)
    }

    private var live: OpaquePointer {
        guard let handle else { preconditionFailure("SQLiteStatement used after finalize()") }
        return handle
    }

    private var sqlText: String {
        handle.flatMap { sqlite3_sql($0) }.map { String(cString: $0) } ?? "(finalized statement)"
    }

    private func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(SQLiteError) {
        try SQLiteError.check(code, connection: sqlite3_db_handle(live), "\(operation()) in \(sqlText)")
    }

    // MARK: Running

    /// Advances to the next row: `true` when a row is ready to read, `false` when done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        let statement = live
        return try SQLiteError.check(sqlite3_step(statement), connection: sqlite3_db_handle(statement), "step \(sqlText)")
            == SQLITE_ROW
    }

    /// Makes the statement ready to run again with new bindings.
    ///
    /// `sqlite3_reset` repeats the error of a failed `step`, which that `step` already
    /// threw, so its result is deliberately not checked. Bindings are kept; rebind them all.
    func reset() {
        sqlite3_reset(live)
    }

    /// `reset()`, and with `clearingBindings` every parameter back to NULL, so
    /// a statement kept for reuse holds no copy of the last values bound.
    func reset(clearingBindings: Bool) {
        guard let handle else { return }
        sqlite3_reset(handle)
        if clearingBindings { sqlite3_clear_bindings(handle) }
    }

    // MARK: Binding (1-based)

    func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(live, index), "bind NULL to parameter \(index)")
    }

    func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(live, index, value), "bind parameter \(index)")
    }

    func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try bind(Int64(value), at: index)
    }

    /// Binds 1 or 0.
    func bind(_ value: Bool, at index: Int32) throws(SQLiteError) {
        try bind(Int64(value ? 1 : 0), at: index)
    }

    func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    func bind(_ value: Int?, at index: Int32) throws(SQLiteError) {
        try bind(value.map(Int64.init), at: index)
    }

    func bind(_ value: Double, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_double(live, index, value), "bind parameter \(index)")
    }

    /// Binds UTF-8 text with its exact length, so text containing NUL survives and the
    /// empty string stays an empty string (a NULL pointer would bind SQL NULL).
    func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        var value = value
        let statement = live
        let code = value.withUTF8 { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(statement, index, "", 0, alarmd_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                sqlite3_bind_text64(statement, index, text, UInt64(bytes.count), alarmd_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        try check(code, "bind parameter \(index)")
    }

    func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    /// Binds a blob; an empty array binds a zero-length blob, not NULL.
    func bind(_ value: [UInt8], at index: Int32) throws(SQLiteError) {
        let statement = live
        let code = value.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_zeroblob(statement, index, 0)
            }
            return sqlite3_bind_blob64(statement, index, base, UInt64(bytes.count), alarmd_sqlite_transient())
        }
        try check(code, "bind parameter \(index)")
    }

    /// Binds the 16 raw bytes of `value`, the store's key format.
    func bind(_ value: UUID, at index: Int32) throws(SQLiteError) {
        let statement = live
        let code = withUnsafeBytes(of: value.uuid) { bytes in
            sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), alarmd_sqlite_transient())
        }
        try check(code, "bind parameter \(index)")
    }

    func bind(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(at: index)
        case .integer(let integer): try bind(integer, at: index)
        case .real(let real): try bind(real, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let bytes): try bind(bytes, at: index)
        }
    }

    // MARK: Reading columns (0-based)
    //
    // SQLite never fails a column read on a valid row, so these do not throw. NULL
    // and zero-length values are ordinary results: `sqlite3_column_blob` returns a
    // NULL pointer for a zero-length blob, which must not be mistaken for an error
    // or dereferenced.

    var columnCount: Int32 {
        sqlite3_column_count(live)
    }

    func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(live, index) == SQLITE_NULL
    }

    /// The column as an integer; NULL reads as 0, as SQLite converts it.
    func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(live, index)
    }

    func int(at index: Int32) -> Int {
        Int(int64(at: index))
    }

    /// `false` for 0 and NULL, `true` for any other integer.
    func bool(at index: Int32) -> Bool {
        int64(at: index) != 0
    }

    /// The column as an integer, or `nil` for NULL.
    func optionalInt64(at index: Int32) -> Int64? {
        isNull(at: index) ? nil : int64(at: index)
    }

    func double(at index: Int32) -> Double {
        sqlite3_column_double(live, index)
    }

    /// The column as text, or `nil` for NULL.
    func text(at index: Int32) -> String? {
        let statement = live
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
        // The pointer first, then the length: sqlite3_column_bytes must follow the
        // conversion that sqlite3_column_text may perform.
        guard let text = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Whether the column is text equal to `bytes`, compared in place without
    /// making a String: how a decoder recognises the value of the previous row.
    func textEquals(at index: Int32, _ bytes: [UInt8]) -> Bool {
        let statement = live
        guard sqlite3_column_type(statement, index) == SQLITE_TEXT, let text = sqlite3_column_text(statement, index) else { return false }
        let count = Int(sqlite3_column_bytes(statement, index))
        return count == bytes.count && bytes.withUnsafeBufferPointer { memcmp(text, $0.baseAddress!, count) == 0 }
    }

    /// Compares the blob column at `index` with `id`'s 16 bytes as SQLite orders
    /// blobs (memcmp, then length): negative, zero or positive. NULL sorts first.
    func compareBlob(at index: Int32, with id: UUID) -> Int {
        let statement = live
        guard let bytes = sqlite3_column_blob(statement, index) else { return -1 }
        let count = Int(sqlite3_column_bytes(statement, index))
        let common = withUnsafeBytes(of: id.uuid) { memcmp(bytes, $0.baseAddress!, min(count, 16)) }
        return common != 0 ? Int(common) : count - 16
    }

    /// The column as bytes: `nil` for NULL, `[]` for a zero-length blob.
    func blob(at index: Int32) -> [UInt8]? {
        let statement = live
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
        guard let bytes = sqlite3_column_blob(statement, index) else { return [] }
        let count = Int(sqlite3_column_bytes(statement, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The column as a UUID, read straight from its 16 bytes; `nil` unless the column is
    /// a blob of exactly 16 bytes.
    func uuid(at index: Int32) -> UUID? {
        let statement = live
        guard sqlite3_column_type(statement, index) == SQLITE_BLOB,
              let bytes = sqlite3_column_blob(statement, index),
              sqlite3_column_bytes(statement, index) == 16
        else { return nil }
        return UUID(uuid: UnsafeRawPointer(bytes).loadUnaligned(as: uuid_t.self))
    }

    /// The column exactly as SQLite stores it.
    func value(at index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(live, index) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(double(at: index))
        case SQLITE_TEXT: return .text(text(at: index) ?? "")
        case SQLITE_BLOB: return .blob(blob(at: index) ?? [])
        default: return .null
        }
    }
}

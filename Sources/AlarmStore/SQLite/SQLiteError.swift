// SPDX-License-Identifier: Apache-2.0
import CSQLite

/// A failed SQLite call: its result code, SQLite's explanation, and what was being done.
///
/// Every SQLite result code in this module passes through ``check(_:connection:_:)``,
/// so there is exactly one place that decides what counts as failure and how the
/// message is obtained.
struct SQLiteError: Error, Equatable, CustomStringConvertible {
    /// The extended result code (connections enable extended codes), e.g.
    /// `SQLITE_CONSTRAINT_PRIMARYKEY` rather than just `SQLITE_CONSTRAINT`.
    let code: Int32
    /// SQLite's own explanation of the failure.
    let message: String
    /// What was being attempted, e.g. `prepare "SELECT …"`.
    let operation: String

    /// The primary result code (the low byte of ``code``), for classifying failures.
    var primaryCode: Int32 { code & 0xFF }

    var description: String { "\(operation): \(message) (SQLite result code \(code))" }

    /// Passes success codes (`SQLITE_OK`, `SQLITE_ROW`, `SQLITE_DONE`) through and
    /// throws anything else as an `SQLiteError`.
    ///
    /// Returning the code lets `step` tell a row from the end of the results.
    @discardableResult
    static func check(
        _ code: Int32, connection: OpaquePointer?, _ operation: @autoclosure () -> String
    ) throws(SQLiteError) -> Int32 {
        switch code {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
            return code
        default:
            throw failure(code, connection: connection, operation())
        }
    }

    /// Builds the error for a failed `code`.
    ///
    /// `sqlite3_errmsg` describes the connection's most recent failure, which is not
    /// always the one at hand (a call on a closed connection, say, records nothing), so
    /// it is used only when the connection recorded the same primary code; otherwise
    /// the generic text for the code is the honest message.
    static func failure(_ code: Int32, connection: OpaquePointer?, _ operation: String) -> SQLiteError {
        let message: String
        if let connection, sqlite3_extended_errcode(connection) & 0xFF == code & 0xFF {
            message = String(cString: sqlite3_errmsg(connection))
        } else {
            message = String(cString: sqlite3_errstr(code))
        }
        return SQLiteError(code: code, message: message, operation: operation)
    }
}

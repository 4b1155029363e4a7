// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CSQLite
import FoundationEssentials

/// Why a ``Store`` operation failed.
///
/// For a file that is not a database, is damaged, or was written by a newer alarmd,
/// the store throws without writing anything: such a file is never overwritten,
/// truncated or deleted.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The file exists but is not an SQLite database.
    case notADatabase(path: String)
    /// The file is an SQLite database whose pages, or whose alarmd rows, are damaged.
    case corrupt(path: String, detail: String)
    /// The file was written by a newer alarmd whose schema this one does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The file or its directory could not be created or opened (permissions, a
    /// missing directory that could not be created, a read-only file system, …).
    case cannotOpen(path: String, detail: String)
    /// No alarm or reminder with this id.
    case notFound(id: UUID)
    /// The item, or an argument, broke a rule; nothing was written.
    case invalid(ValidationError)
    /// Any other SQLite failure, e.g. `SQLITE_FULL` when the disk is full.
    case sqlite(code: Int32, message: String, operation: String)

    public var description: String {
        switch self {
        case .notADatabase(let path):
            return "\(path): not an SQLite database; refusing to touch it"
        case .corrupt(let path, let detail):
            return "\(path): corrupt database (\(detail)); refusing to touch it"
        case .newerSchema(let path, let found, let supported):
            return "\(path): schema version \(found) is newer than this alarmd supports (\(supported)); upgrade alarmd"
        case .cannotOpen(let path, let detail):
            return "\(path): cannot open the database: \(detail)"
        case .notFound(let id):
            return "no alarm or reminder with id \(id.uuidString)"
        case .invalid(let error):
            return error.description
        case .sqlite(let code, let message, let operation):
            return "\(operation) failed: \(message) (SQLite result code \(code))"
        }
    }
}

extension StoreError {
    /// Classifies an SQLite failure on an open store, so that damage found long after
    /// opening still names the file.
    init(_ error: SQLiteError, path: String, operation: String) {
        switch error.primaryCode {
        case SQLITE_NOTADB: self = .notADatabase(path: path)
        case SQLITE_CORRUPT: self = .corrupt(path: path, detail: "\(error.message), while trying to \(operation)")
        default: self = .sqlite(code: error.code, message: error.message, operation: operation)
        }
    }

    /// Classifies an SQLite failure while opening, validating or migrating: anything
    /// that is not damage is a reason the file cannot be opened.
    init(opening error: SQLiteError, path: String) {
        switch error.primaryCode {
        case SQLITE_NOTADB: self = .notADatabase(path: path)
        case SQLITE_CORRUPT: self = .corrupt(path: path, detail: error.message)
        default: self = .cannotOpen(path: path, detail: "\(error.message) (\(error.operation))")
        }
    }

    /// Turns a primary-key clash on insert into a validation error naming the id.
    func replacingDuplicate(id: UUID) -> StoreError {
        guard case .sqlite(let code, _, _) = self, code == alarmd_sqlite_constraint_primarykey() else { return self }
        return .invalid(ValidationError(field: "id", requirement: "must not already be in use", value: id.uuidString))
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CSQLite
import FoundationEssentials

/// What CalDAV sync remembers between rounds, per collection: each item's
/// href, the ETag it had when last sent or received, and its `updated`
/// then (``SyncPlan/Record``); and the collection's sync token (RFC 6578).
///
/// A file of its own (`sync.sqlite3` next to the item store), used only by
/// the sync worker: sync state never shares a connection, a transaction or
/// a queue with the items, and losing it costs one full comparison with the
/// server (every item is then matched by its UID), never an item.
public final class SyncStateStore {
    private let database: SQLiteDatabase
    public let path: String

    public init(path: String) throws(StoreError) {
        self.path = path
        // Made 0600 in a 0700 directory, like the item store.
        try StoreFiles.prepare(path: path)
        do {
            database = try SQLiteDatabase(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX)
            try database.execute("""
                PRAGMA journal_mode = WAL;
                CREATE TABLE IF NOT EXISTS synced (
                    collection TEXT NOT NULL, id BLOB NOT NULL, uid TEXT NOT NULL, href TEXT NOT NULL, etag TEXT NOT NULL, stamp INTEGER NOT NULL,
                    PRIMARY KEY (collection, id)) WITHOUT ROWID;
                CREATE TABLE IF NOT EXISTS collection (url TEXT PRIMARY KEY, token TEXT) WITHOUT ROWID;
                """)
        } catch {
            throw StoreError(opening: error, path: path)
        }
    }

    public func records(collection: String) throws(StoreError) -> [SyncPlan.Record] {
        try run("read sync records") { () throws(SQLiteError) in
            try database.withCachedStatement("SELECT id, uid, href, etag, stamp FROM synced WHERE collection = ?") { statement throws(SQLiteError) in
                try statement.bind(collection, at: 1)
                var records: [SyncPlan.Record] = []
                while try statement.step() {
                    guard let id = statement.uuid(at: 0) else { continue }
                    records.append(SyncPlan.Record(id: id, uid: statement.text(at: 1) ?? "", href: statement.text(at: 2) ?? "", etag: statement.text(at: 3) ?? "",
                                                   stamp: statement.int64(at: 4)))
                }
                return records
            }
        }
    }

    /// The collection's sync token from the last round that went through.
    public func token(collection: String) throws(StoreError) -> String? {
        try run("read the sync token") { () throws(SQLiteError) in
            try database.withCachedStatement("SELECT token FROM collection WHERE url = ?") { statement throws(SQLiteError) in
                try statement.bind(collection, at: 1)
                return try statement.step() ? statement.text(at: 0) : nil
            }
        }
    }

    /// Saves and removes records, and sets the token, in one transaction.
    public func apply(collection: String, save: [SyncPlan.Record], remove: [UUID], token: String?) throws(StoreError) {
        try run("save sync records") { () throws(SQLiteError) in
            try database.execute("BEGIN IMMEDIATE")
            do throws(SQLiteError) {
                for id in remove {
                    try database.withCachedStatement("DELETE FROM synced WHERE collection = ? AND id = ?") { statement throws(SQLiteError) in
                        try statement.bind(collection, at: 1)
                        try statement.bind(id, at: 2)
                        _ = try statement.step()
                    }
                }
                for record in save {
                    try database.withCachedStatement("INSERT OR REPLACE INTO synced (collection, id, uid, href, etag, stamp) VALUES (?, ?, ?, ?, ?, ?)") { statement throws(SQLiteError) in
                        try statement.bind(collection, at: 1)
                        try statement.bind(record.id, at: 2)
                        try statement.bind(record.uid, at: 3)
                        try statement.bind(record.href, at: 4)
                        try statement.bind(record.etag, at: 5)
                        try statement.bind(record.stamp, at: 6)
                        _ = try statement.step()
                    }
                }
                try database.withCachedStatement("INSERT OR REPLACE INTO collection (url, token) VALUES (?, ?)") { statement throws(SQLiteError) in
                    try statement.bind(collection, at: 1)
                    try statement.bind(token, at: 2)
                    _ = try statement.step()
                }
                try database.execute("COMMIT")
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }
    }

    private func run<T>(_ operation: String, _ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        do { return try body() } catch { throw StoreError.sqlite(code: error.code, message: error.message, operation: operation) }
    }
}

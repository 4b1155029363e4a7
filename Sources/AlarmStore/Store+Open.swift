// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Glibc

extension Store {
    /// Opens, validates, configures and migrates the database at `path`.
    ///
    /// The order matters: everything up to the quick check only reads, so a file that
    /// turns out not to be ours is left exactly as it was. Only then do the pragmas
    /// that write (`journal_mode=WAL` rewrites the header) and the migrations run.
    static func openDatabase(path: String, quickCheckLimit: Int64) throws(StoreError) -> SQLiteDatabase {
        let database: SQLiteDatabase
        do {
            // No SQLITE_OPEN_CREATE: StoreFiles created the file with the right mode.
            database = try SQLiteDatabase(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX)
        } catch {
            throw StoreError(opening: error, path: path)
        }
        do throws(StoreError) {
            try validate(database, path: path, quickCheck: fileSize(path) <= quickCheckLimit)
            try configure(database, path: path)
            let version = try opening(path) { () throws(SQLiteError) in try Schema.migrate(database) }
            // Another alarmd may have upgraded the file while this one was migrating it.
            guard version <= currentSchemaVersion else {
                throw StoreError.newerSchema(path: path, found: version, supported: currentSchemaVersion)
            }
        } catch {
            database.close()
            throw error
        }
        return database
    }

    /// Read-only checks that the file is an alarmd database this build understands.
    private static func validate(_ database: SQLiteDatabase, path: String, quickCheck: Bool) throws(StoreError) {
        try setBusyTimeout(database, path: path)
        // The first read of the file: SQLITE_NOTADB shows up here. An empty file reads as version 0.
        let version = try opening(path) { () throws(SQLiteError) in try Schema.userVersion(database) }
        guard version <= currentSchemaVersion else {
            throw .newerSchema(path: path, found: version, supported: currentSchemaVersion)
        }
        if quickCheck { try check(database, path: path) }
        if version == 0 {
            let objects = try opening(path) { () throws(SQLiteError) in
                try database.integer("SELECT count(*) FROM sqlite_schema") ?? 0
            }
            // Migrating would add our tables to someone else's database.
            guard objects == 0 else {
                throw .corrupt(path: path, detail: "it holds \(objects) tables or indexes but no alarmd schema version; "
                    + "it may belong to another program")
            }
        }
    }

    /// Makes `database` wait for another connection's lock instead of failing
    /// at once. Not a write: nothing in the file changes.
    static func setBusyTimeout(_ database: SQLiteDatabase, path: String) throws(StoreError) {
        try opening(path) { () throws(SQLiteError) in
            try database.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        }
    }

    /// `PRAGMA quick_check`: every page of every table and index is read, so
    /// it costs about a second per hundred megabytes.
    static func check(_ database: SQLiteDatabase, path: String) throws(StoreError) {
        let problems = try opening(path) { () throws(SQLiteError) in try database.texts("PRAGMA quick_check") }
        guard problems == ["ok"] else {
            throw .corrupt(path: path, detail: "quick_check: " + problems.prefix(3).joined(separator: "; "))
        }
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Connection settings. WAL lets readers run during a write and survives crashes
    /// well; `synchronous=FULL` makes a committed change survive power loss too.
    private static func configure(_ database: SQLiteDatabase, path: String) throws(StoreError) {
        let mode = try opening(path) { () throws(SQLiteError) in try database.texts("PRAGMA journal_mode = WAL") }
        // SQLite answers with the mode in force, which stays the old one if WAL is impossible.
        guard mode == ["wal"] else {
            throw .cannotOpen(path: path, detail: "cannot switch to WAL journal mode (still \(mode.joined()))")
        }
        try opening(path) { () throws(SQLiteError) in
            try database.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
        }
    }


    /// Runs SQLite work of the opening sequence, classifying its failures as the file's
    /// problems (not a database, corrupt, cannot open).
    private static func opening<T>(_ path: String, _ body: () throws(SQLiteError) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw StoreError(opening: error, path: path)
        }
    }
}

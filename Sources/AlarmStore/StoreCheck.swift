// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Synchronization

/// `PRAGMA quick_check` of a store file on a read-only connection of its own,
/// for the large file whose check ``Store/init(path:quickCheckLimit:)``
/// skipped (``Store/needsQuickCheck``): it reads every page, about a second per
/// hundred megabytes, so it runs on another thread while the store is in use.
///
/// Another thread can ``stop()`` it. That matters at shutdown: SQLite
/// checkpoints and removes the write-ahead log only when the *last* connection
/// to the file closes, so a check still running then leaves the log behind, and
/// the next start must read all of it again to rebuild its index.
public final class StoreCheck: Sendable {
    /// The file checked.
    public let path: String

    private let stopped = Atomic<Bool>(false)
    /// The connection while a check runs. Set and cleared under the lock, so
    /// ``stop()`` never interrupts a connection that is closing.
    private let running = Mutex<Interruptible?>(nil)

    public init(path: String) {
        self.path = path
    }

    /// Checks the file: `true` when it passed, `false` when ``stop()`` came
    /// first or ended the check before its verdict. Throws `.corrupt` when the
    /// file is damaged, and other ``StoreError``s when it cannot be read.
    public func run() throws(StoreError) -> Bool {
        guard !stopped.load(ordering: .acquiring) else { return false }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
        } catch {
            throw StoreError(opening: error, path: path)
        }
        defer {
            running.withLock { $0 = nil }
            database.close()
        }
        // Both ways of stopping are needed: `sqlite3_interrupt` ends the page
        // walk (one long virtual-machine step that polls nothing else) but is
        // forgotten when it lands between two statements; the progress handler
        // polls the flag at every thousandth step of every statement.
        database.setProgressHandler(every: 1000, context: Unmanaged.passUnretained(self).toOpaque()) { context in
            Unmanaged<StoreCheck>.fromOpaque(context!).takeUnretainedValue().stopped.load(ordering: .relaxed) ? 1 : 0
        }
        running.withLock { $0 = Interruptible(database) }
        do throws(StoreError) {
            try Store.setBusyTimeout(database, path: path)
            try Store.check(database, path: path)
        } catch {
            // An interrupted check says nothing about the file.
            if stopped.load(ordering: .acquiring) { return false }
            throw error
        }
        return true
    }

    /// Whether a check has the file open now.
    var isRunning: Bool {
        running.withLock { $0 != nil }
    }

    /// Ends a running check at once, or the next one before it opens the
    /// file. Safe from any thread.
    public func stop() {
        stopped.store(true, ordering: .releasing)
        running.withLock { $0?.interrupt() }
    }
}

/// A connection that another thread may interrupt: `sqlite3_interrupt` is the
/// one SQLite call that is safe while the connection is in use elsewhere, as
/// long as it is not closed meanwhile (``StoreCheck`` guards that).
// @unchecked: holds a connection in use on the checking thread; sqlite3_interrupt is the one call another thread may make on it.
private struct Interruptible: @unchecked Sendable {
    private let database: SQLiteDatabase

    init(_ database: SQLiteDatabase) {
        self.database = database
    }

    func interrupt() {
        database.interrupt()
    }
}

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
    private let running = Atomic<Bool>(false)

    public init(path: String) {
        self.path = path
    }

    /// Checks the file: `true` when it passed, `false` when ``stop()`` came
    /// first or ended the check before its verdict; throws `.corrupt` when the
    /// file is damaged.
    public func run() throws(StoreError) -> Bool {
        guard !stopped.load(ordering: .acquiring) else { return false }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path, flags: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX)
        } catch {
            throw StoreError(opening: error, path: path)
        }
        running.store(true, ordering: .releasing)
        defer {
            running.store(false, ordering: .releasing)
            database.close()
        }
        // Every thousand steps (microseconds apart) the check asks whether to go on.
        database.setProgressHandler(every: 1000, context: Unmanaged.passUnretained(self).toOpaque()) { context in
            Unmanaged<StoreCheck>.fromOpaque(context!).takeUnretainedValue().stopped.load(ordering: .relaxed) ? 1 : 0
        }
        do throws(StoreError) {
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
        running.load(ordering: .acquiring)
    }

    /// Ends a running check within microseconds, or the next one before it
    /// reads anything. Safe from any thread.
    public func stop() {
        stopped.store(true, ordering: .releasing)
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CSQLite
import FoundationEssentials

/// alarmd's persistent state: alarms, reminders and their history, in one SQLite file.
///
/// Every mutation is one transaction, so a failure leaves nothing half-written; group
/// several with ``transaction(_:)``. Items are validated before anything is written.
///
/// A `Store` is not thread-safe and deliberately not `Sendable`: create it and use it
/// from one thread, task or serial queue. Opening a file that is not an alarmd
/// database, is damaged, or comes from a newer alarmd throws without writing to it.
public final class Store {
    /// The schema version this build reads and writes (`PRAGMA user_version`).
    public static let currentSchemaVersion: Int = Schema.currentVersion

    /// How long a statement waits for another process's lock before failing.
    static let busyTimeoutMilliseconds: Int32 = 5000

    /// The database file.
    public let path: String

    /// The open connection; `nil` after ``close()``.
    private(set) var database: SQLiteDatabase?

    /// How many ``transaction(_:)`` calls are running; inner ones use savepoints.
    private var transactionDepth = 0

    /// `$XDG_STATE_HOME/alarmd/alarmd.sqlite3`, else `$HOME/.local/state/alarmd/alarmd.sqlite3`.
    ///
    /// A relative `XDG_STATE_HOME` is ignored, as the XDG base-directory specification asks.
    public static func defaultPath(environment: [String: String]) -> String {
        StoreFiles.defaultPath(environment: environment)
    }

    /// Opens the database at `path`, creating it (and missing directories, mode 0700;
    /// the file, mode 0600) if needed, and migrating an older schema to the current one.
    ///
    /// An empty file counts as a new database. A file that is not an SQLite database,
    /// fails SQLite's quick integrity check, holds another program's tables, or has a
    /// newer schema is refused (``StoreError/notADatabase(path:)``,
    /// ``StoreError/corrupt(path:detail:)``, ``StoreError/newerSchema(path:found:supported:)``)
    /// before anything is written to it.
    ///
    /// A file larger than `quickCheckLimit` bytes skips `PRAGMA quick_check`
    /// (about a second per hundred megabytes); ``needsQuickCheck`` is then true
    /// and the caller runs a ``StoreCheck`` when it can afford to.
    public init(path: String, quickCheckLimit: Int64 = .max) throws(StoreError) {
        self.path = path
        try StoreFiles.prepare(path: path)
        needsQuickCheck = Self.fileSize(path) > quickCheckLimit
        database = try Self.openDatabase(path: path, quickCheckLimit: quickCheckLimit)
    }

    /// A further connection to a store that a first one has already opened,
    /// checked and migrated: the quick check is skipped, since running it again
    /// would double its cost at start-up.
    public static func anotherConnection(to path: String) throws(StoreError) -> Store {
        try Store(path: path, quickCheckLimit: 0)
    }

    /// Whether opening skipped the quick check of a large file.
    public let needsQuickCheck: Bool

    deinit {
        close()
    }

    /// Closes the database. Later calls do nothing; later operations fail.
    public func close() {
        database?.close()
        database = nil
    }

    // MARK: Alarms

    /// Every alarm, in no particular order.
    public func alarms() throws(StoreError) -> [Alarm] {
        var decoder = AlarmRow.Decoder()
        return try rows("list alarms", AlarmRow.selectAll) { statement throws(SQLiteError) in try decoder.decode(statement) }
    }

    /// The alarm with `id`, or `nil`.
    public func alarm(id: UUID) throws(StoreError) -> Alarm? {
        var decoder = AlarmRow.Decoder()
        return try row("read alarm \(id.uuidString)", id: id, AlarmRow.selectOne) { statement throws(SQLiteError) in
            try decoder.decode(statement)
        }
    }

    /// Adds `alarm`. An id already in use is ``StoreError/invalid(_:)`` for field `id`.
    public func insert(_ alarm: Alarm) throws(StoreError) {
        try AlarmRow.validate(alarm)
        try insertRow("insert alarm \(alarm.id.uuidString)", id: alarm.id, sql: AlarmRow.insert) { statement throws(SQLiteError) in
            try AlarmRow.bind(alarm, to: statement)
        }
    }

    /// Replaces the stored alarm that has `alarm.id`; ``StoreError/notFound(id:)`` if there is none.
    public func update(_ alarm: Alarm) throws(StoreError) {
        try AlarmRow.validate(alarm)
        try changeRow("update alarm \(alarm.id.uuidString)", id: alarm.id, sql: AlarmRow.update) { statement throws(SQLiteError) in
            try AlarmRow.bind(alarm, to: statement)
        }
    }

    /// Deletes the alarm with `id`; ``StoreError/notFound(id:)`` if there is none. Its
    /// history stays.
    public func removeAlarm(id: UUID) throws(StoreError) {
        try changeRow("remove alarm \(id.uuidString)", id: id, sql: AlarmRow.delete) { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
        }
    }

    // MARK: Reminders

    /// Every reminder, ordered by position (0, 1, 2, …).
    public func reminders() throws(StoreError) -> [Reminder] {
        try rows("list reminders", ReminderRow.selectAll, ReminderRow.decode)
    }

    /// The reminder with `id`, or `nil`.
    public func reminder(id: UUID) throws(StoreError) -> Reminder? {
        try row("read reminder \(id.uuidString)", id: id, ReminderRow.selectOne, ReminderRow.decode)
    }

    /// Appends `reminder` to the end of the list.
    ///
    /// `reminder.position` is ignored: the stored position is the number of reminders
    /// before the insert, which keeps positions dense. Use
    /// ``moveReminder(id:to:)`` afterwards to place it elsewhere. An id already in use
    /// is ``StoreError/invalid(_:)`` for field `id`.
    public func insert(_ reminder: Reminder) throws(StoreError) {
        try ReminderRow.validate(reminder)
        try insertRow("insert reminder \(reminder.id.uuidString)", id: reminder.id, sql: ReminderRow.append) { statement throws(SQLiteError) in
            try ReminderRow.bind(reminder, to: statement)
        }
    }

    /// Replaces every field of the stored reminder with `reminder.id` except its
    /// position, which only ``moveReminder(id:to:)`` changes;
    /// ``StoreError/notFound(id:)`` if there is none.
    public func update(_ reminder: Reminder) throws(StoreError) {
        try ReminderRow.validate(reminder)
        try changeRow("update reminder \(reminder.id.uuidString)", id: reminder.id, sql: ReminderRow.update) { statement throws(SQLiteError) in
            try ReminderRow.bind(reminder, to: statement)
        }
    }

    /// Deletes the reminder with `id` and moves every later reminder up by one, so
    /// positions stay 0..<count; ``StoreError/notFound(id:)`` if there is none.
    public func removeReminder(id: UUID) throws(StoreError) {
        let found = try write("remove reminder \(id.uuidString)") { database throws(SQLiteError) in
            guard let position = try Self.position(ofReminder: id, in: database) else { return false }
            try database.withCachedStatement(ReminderRow.delete) { statement throws(SQLiteError) in
                try statement.bind(id, at: 1)
                try statement.step()
            }
            try database.withCachedStatement(ReminderRow.shiftDownAfter) { statement throws(SQLiteError) in
                try statement.bind(position, at: 1)
                try statement.step()
            }
            return true
        }
        guard found else { throw .notFound(id: id) }
    }

    /// Moves the reminder with `id` to `position`, shifting the ones in between so
    /// positions stay 0..<count.
    ///
    /// A position outside 0..<count is ``StoreError/invalid(_:)`` for field `position`
    /// and changes nothing; an unknown id is ``StoreError/notFound(id:)``.
    public func moveReminder(id: UUID, to position: Int) throws(StoreError) {
        let operation = "move reminder \(id.uuidString)"
        try transaction { () throws(StoreError) in
            let (current, count) = try sqlite(operation) { database throws(SQLiteError) in
                (try Self.position(ofReminder: id, in: database), Int(try database.integer(ReminderRow.count) ?? 0))
            }
            guard let current else { throw .notFound(id: id) }
            guard position >= 0, position < count else {
                throw .invalid(ValidationError(field: "position", requirement: "must be 0–\(count - 1)",
                                               value: String(position)))
            }
            guard position != current else { return }
            try sqlite(operation) { database throws(SQLiteError) in
                let shift = position < current ? ReminderRow.shiftUp : ReminderRow.shiftDown
                try database.withStatement(shift) { statement throws(SQLiteError) in
                    try statement.bind(min(position, current), at: 1)
                    try statement.bind(max(position, current), at: 2)
                    try statement.step()
                }
                try database.withStatement(ReminderRow.setPosition) { statement throws(SQLiteError) in
                    try statement.bind(id, at: 1)
                    try statement.bind(position, at: 2)
                    try statement.step()
                }
            }
        }
    }

    private static func position(ofReminder id: UUID, in database: SQLiteDatabase) throws(SQLiteError) -> Int? {
        try database.withStatement(ReminderRow.position) { statement throws(SQLiteError) in
            try statement.bind(id, at: 1)
            return try statement.step() ? statement.int(at: 0) : nil
        }
    }

    // MARK: History

    /// Appends one event to the history.
    public func record(_ event: HistoryEvent) throws(StoreError) {
        try record([event])
    }

    /// Appends `events` in order, in one transaction: all of them or none.
    public func record(_ events: [HistoryEvent]) throws(StoreError) {
        guard !events.isEmpty else { return }
        for event in events { try EventRow.validate(event) }
        try write("record history") { database throws(SQLiteError) in
            try database.withCachedStatement(EventRow.insert) { statement throws(SQLiteError) in
                for event in events {
                    statement.reset()
                    try EventRow.bind(event, to: statement)
                    try statement.step()
                }
            }
        }
    }

    /// The most recently recorded events first, at most `limit` of them; only those of
    /// `itemID` when it is given, that happened at or after `since`, and of
    /// `kinds` (all when empty). Events outlive their items.
    public func history(itemID: UUID? = nil, since: Date? = nil, kinds: Set<EventKind> = [], limit: Int = 100) throws(StoreError) -> [HistoryEvent] {
        guard limit >= 0 else {
            throw .invalid(ValidationError(field: "limit", requirement: "must be 0 or more", value: String(limit)))
        }
        if let since { try Instant.validate(since, field: "since") }
        let filtered = since != nil || !kinds.isEmpty
        return try sqlite("read history") { database throws(SQLiteError) in
            let sql = filtered ? (itemID == nil ? EventRow.selectFiltered : EventRow.selectFilteredForItem)
                : (itemID == nil ? EventRow.selectRecent : EventRow.selectRecentForItem)
            return try database.withStatement(sql) { statement throws(SQLiteError) in
                try statement.bind(limit, at: 1)
                if let itemID { try statement.bind(itemID, at: 2) }
                if filtered {
                    try statement.bind(since.map(Instant.storable), at: 3)
                    try statement.bind(kinds.isEmpty ? nil : "," + kinds.map(\.rawValue).sorted().joined(separator: ",") + ",", at: 4)
                }
                var events: [HistoryEvent] = []
                while try statement.step() {
                    events.append(try EventRow.decode(statement))
                }
                return events
            }
        }
    }

    /// History rows committed after the journal checkpoint, oldest first (at
    /// most `limit`), with the `seq` of the last one returned (the checkpoint
    /// itself when there is none): the rows whose journal entries a crash may
    /// have lost (see ``advanceJournalCheckpoint(to:)``).
    public func historyAfterJournalCheckpoint(limit: Int) throws(StoreError) -> (events: [HistoryEvent], through: Int64) {
        try sqlite("read history after the journal checkpoint") { database throws(SQLiteError) in
            var through = try database.integer("SELECT through FROM journal_checkpoint") ?? 0
            let events = try database.withStatement(EventRow.selectAfterCheckpoint) { statement throws(SQLiteError) in
                try statement.bind(limit, at: 1)
                var events: [HistoryEvent] = []
                while try statement.step() {
                    events.append(try EventRow.decode(statement))
                    through = statement.int64(at: 0)
                }
                return events
            }
            return (events, through)
        }
    }

    /// Every history row up to `seq` has its journal entry.
    public func advanceJournalCheckpoint(to seq: Int64) throws(StoreError) {
        try write("advance the journal checkpoint") { database throws(SQLiteError) in
            try database.withCachedStatement(EventRow.advanceCheckpoint) { statement throws(SQLiteError) in
                try statement.bind(seq, at: 1)
                try statement.step()
            }
        }
    }

    /// The `seq` of the last history row recorded (0 when there is none).
    public func lastHistorySeq() throws(StoreError) -> Int64 {
        try sqlite("read the last history row") { database throws(SQLiteError) in try database.integer(EventRow.lastSeq) ?? 0 }
    }

    // MARK: Ringing state

    /// `PRAGMA integrity_check`: `["ok"]`, or the problems found (a full check
    /// of every page, index and constraint; slow on a large file).
    public func integrityCheck() throws(StoreError) -> [String] {
        try sqlite("check integrity") { database throws(SQLiteError) in try database.texts("PRAGMA integrity_check") }
    }

    /// How many alarms and reminders there are (to size memory before a load).
    public func itemCount() throws(StoreError) -> Int {
        try sqlite("count items") { database throws(SQLiteError) in
            Int(try database.integer("SELECT (SELECT count(*) FROM alarms) + (SELECT count(*) FROM reminders)") ?? 0)
        }
    }

    /// Whether SQLite reads the database file through a memory map (up to
    /// 1 GiB of it) instead of `pread`.
    ///
    /// For reading the whole file at start-up: on a cold page cache, pages of a
    /// map fault in with the kernel's read-ahead, where `pread` fetches one
    /// 4 KiB page per call in B-tree order (a cold start with a million alarms
    /// took about 2.4–2.9 s that way, 1.4–2.1 s mapped, on the bench machine).
    /// Turn it off again afterwards: mapped pages count in the process's
    /// resident memory for as long as the map exists (about 100 MiB more at a
    /// million alarms). While the map is in use, an I/O error reading the file
    /// is a SIGBUS instead of an error code.
    public func setMappedReads(_ enabled: Bool) throws(StoreError) {
        try sqlite(enabled ? "map the file" : "unmap the file") { database throws(SQLiteError) in
            try database.execute("PRAGMA mmap_size = \(enabled ? 1 << 30 : 0)")
        }
    }

    /// How many alarms a loader reads between ring-state queries
    /// (``withRingStates(of:_:)`` takes a batch of this many).
    public static let loadBatchSize = 4096

    /// Every alarm in id order (the table's own order: no sort, no seek), each
    /// checked against the model's rules.
    public func loadAlarms(_ body: (Alarm) -> Void) throws(StoreError) {
        try sqlite("load alarms") { database throws(SQLiteError) in
            try database.withStatement(AlarmRow.selectAll + " ORDER BY id") { alarms throws(SQLiteError) in
                var decoder = AlarmRow.Decoder()
                while try alarms.step() { body(try decoder.decode(alarms)) }
            }
        }
    }

    /// Each of `alarms`, which must be in id order, with its saved ringing
    /// state (`nil` when it has none), from one range scan of `ring_states`
    /// merged with the list: a seek per batch, not per alarm.
    public func withRingStates(of alarms: [Alarm], _ body: (Alarm, RingState?) -> Void) throws(StoreError) {
        guard let first = alarms.first, let last = alarms.last else { return }
        try sqlite("read ringing states") { database throws(SQLiteError) in
            try database.withStatement(RingStateRow.selectAll + " WHERE item_id BETWEEN ?1 AND ?2 ORDER BY item_id") { states throws(SQLiteError) in
                try states.bind(first.id, at: 1)
                try states.bind(last.id, at: 2)
                // States of reminders share the id range; they are passed over.
                var onState = try states.step()
                for alarm in alarms {
                    var order = 1
                    while onState {
                        order = states.compareBlob(at: 0, with: alarm.id)
                        if order >= 0 { break }
                        onState = try states.step()
                    }
                    body(alarm, onState && order == 0 ? try RingStateRow.decode(states).1 : nil)
                }
            }
        }
    }

    /// Every reminder in its manual order, with its saved ringing state: few
    /// enough for a join.
    public func loadReminders(_ body: (Reminder, RingState?) -> Void) throws(StoreError) {
        try sqlite("load reminders") { database throws(SQLiteError) in
            let reminderColumns = Int32(ReminderRow.columns.count)
            try database.withStatement(RingStateRow.selectJoined("reminders", itemColumns: ReminderRow.columns, orderBy: "position")) { statement throws(SQLiteError) in
                while try statement.step() {
                    let reminder = try ReminderRow.decode(statement)
                    body(reminder, statement.isNull(at: reminderColumns) ? nil : try RingStateRow.decode(statement, from: reminderColumns).1)
                }
            }
        }
    }

    /// Every saved ringing state, by item id.
    public func ringStates() throws(StoreError) -> [UUID: RingState] {
        try sqlite("read ringing states") { database throws(SQLiteError) in
            try database.withStatement(RingStateRow.selectAll) { statement throws(SQLiteError) in
                var states: [UUID: RingState] = [:]
                while try statement.step() {
                    let (id, state) = try RingStateRow.decode(statement)
                    states[id] = state
                }
                return states
            }
        }
    }

    /// The saved ringing state of one item, `nil` when it has none.
    public func ringState(id: UUID) throws(StoreError) -> RingState? {
        try row("read a ringing state", id: id, RingStateRow.selectOne) { statement throws(SQLiteError) in
            try RingStateRow.decode(statement).1
        }
    }

    /// Saves (inserts or replaces) ringing states, in one transaction.
    public func saveRingStates(_ states: [(id: UUID, kind: ItemKind, state: RingState)]) throws(StoreError) {
        guard !states.isEmpty else { return }
        for entry in states { try RingStateRow.validate(entry.state) }
        // Key order, as in replaceAll: appends to the B-tree, not scattered inserts.
        let ordered = states.count > 1 ? states.sorted { $0.id.bytesPrecede($1.id) } : states
        try write("save ringing states") { database throws(SQLiteError) in
            try database.withCachedStatement(RingStateRow.upsert) { statement throws(SQLiteError) in
                for entry in ordered {
                    statement.reset()
                    try RingStateRow.bind(id: entry.id, kind: entry.kind, state: entry.state, to: statement)
                    try statement.step()
                }
            }
        }
    }

    // MARK: Transactions and bulk work

    /// Runs `body` atomically: everything it writes is committed when it returns, and
    /// nothing is when it throws (the error is rethrown).
    ///
    /// The outermost call is a `BEGIN IMMEDIATE` transaction, which takes the write lock
    /// up front so it cannot fail half-way for lack of it. Nested calls, including the
    /// store's own mutations called from `body`, become savepoints: an inner failure
    /// that `body` catches undoes only the inner work.
    public func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let nested = transactionDepth > 0
        try sqlite(nested ? "start a nested transaction" : "begin a transaction") { database throws(SQLiteError) in
            try database.executeCached(nested ? "SAVEPOINT alarmd_nested" : "BEGIN IMMEDIATE")
        }
        transactionDepth += 1
        let result: T
        do {
            result = try body()
        } catch {
            transactionDepth -= 1
            rollBack(nested: nested)
            throw error
        }
        transactionDepth -= 1
        do {
            try sqlite(nested ? "finish a nested transaction" : "commit") { database throws(SQLiteError) in
                try database.executeCached(nested ? "RELEASE alarmd_nested" : "COMMIT")
            }
        } catch {
            rollBack(nested: nested)
            throw error
        }
        return result
    }

    /// Undoes the innermost transaction level after a failure.
    ///
    /// Errors here are not reported: the failure that led here is the one to report,
    /// and SQLite may already have rolled back on its own (after `SQLITE_FULL` or an
    /// I/O error, say), which is why the autocommit state is checked first.
    private func rollBack(nested: Bool) {
        guard let database, !database.isAutocommit else { return }
        try? database.execute(nested ? "ROLLBACK TO alarmd_nested; RELEASE alarmd_nested" : "ROLLBACK")
    }

    /// Replaces every alarm and reminder with these, all or nothing, e.g. for an import.
    ///
    /// Every item is validated first and ids must be unique; any problem throws before
    /// anything is written. Reminders get positions 0, 1, 2, … in array order, whatever
    /// their `position` says. The history is kept.
    public func replaceAll(alarms: [Alarm], reminders: [Reminder]) throws(StoreError) {
        for alarm in alarms { try AlarmRow.validate(alarm) }
        for reminder in reminders { try ReminderRow.validate(reminder) }
        // In key order: each row then goes at the end of its table's B-tree
        // instead of into the middle of it, and duplicates end up side by side.
        let sortedAlarms = alarms.sorted { $0.id.bytesPrecede($1.id) }
        try Self.checkUnique(sortedAlarms.lazy.map(\.id))
        try Self.checkUnique(reminders.map(\.id).sorted { $0.bytesPrecede($1) })
        try write("replace all alarms and reminders") { database throws(SQLiteError) in
            try database.execute("DELETE FROM alarms; DELETE FROM reminders")
            try AlarmRow.insertAll(sortedAlarms, into: database)
            try ReminderRow.insertAll(reminders, into: database)
        }
    }

    /// `ids` in byte order: a repeat is next to its twin.
    private static func checkUnique(_ ids: some Sequence<UUID>) throws(StoreError) {
        var previous: UUID?
        for id in ids {
            if id == previous { throw .invalid(ValidationError(field: "id", requirement: "must be unique", value: id.uuidString)) }
            previous = id
        }
    }

    // MARK: Plumbing

    /// Runs SQLite work on the open connection; the one place where SQLite failures on
    /// an open store become ``StoreError``s, named with `operation`.
    private func sqlite<T>(
        _ operation: String, _ body: (SQLiteDatabase) throws(SQLiteError) -> T
    ) throws(StoreError) -> T {
        guard let database else {
            throw .sqlite(code: SQLITE_MISUSE, message: "the store is closed", operation: operation)
        }
        do {
            return try body(database)
        } catch {
            throw StoreError(error, path: path, operation: operation)
        }
    }

    /// ``sqlite(_:_:)`` inside a transaction, for every mutation.
    private func write<T>(
        _ operation: String, _ body: (SQLiteDatabase) throws(SQLiteError) -> T
    ) throws(StoreError) -> T {
        try transaction { () throws(StoreError) in try sqlite(operation, body) }
    }

    /// Every row the query `sql` gives, each read by `decode`.
    private func rows<Row>(
        _ operation: String, _ sql: String, _ decode: (SQLiteStatement) throws(SQLiteError) -> Row
    ) throws(StoreError) -> [Row] {
        try sqlite(operation) { database throws(SQLiteError) in
            try database.withStatement(sql) { statement throws(SQLiteError) in
                var rows: [Row] = []
                while try statement.step() {
                    rows.append(try decode(statement))
                }
                return rows
            }
        }
    }

    /// The row the query `sql` gives for `id` (its `?1`), read by `decode`, or `nil`.
    private func row<Row>(
        _ operation: String, id: UUID, _ sql: String, _ decode: (SQLiteStatement) throws(SQLiteError) -> Row
    ) throws(StoreError) -> Row? {
        try sqlite(operation) { database throws(SQLiteError) in
            try database.withCachedStatement(sql) { statement throws(SQLiteError) in
                try statement.bind(id, at: 1)
                return try statement.step() ? decode(statement) : nil
            }
        }
    }

    /// Runs the insert `sql`, its parameters set by `bind`, as a write named
    /// `operation`; a primary-key clash is ``StoreError/invalid(_:)`` for `id`.
    private func insertRow(
        _ operation: String, id: UUID, sql: String, bind: (SQLiteStatement) throws(SQLiteError) -> Void
    ) throws(StoreError) {
        do {
            try write(operation) { database throws(SQLiteError) in
                try database.withCachedStatement(sql) { statement throws(SQLiteError) in
                    try bind(statement)
                    try statement.step()
                }
            }
        } catch {
            throw error.replacingDuplicate(id: id)
        }
    }

    /// Runs the update or delete `sql` of the row with `id`, its parameters set by
    /// `bind`, as a write named `operation`; ``StoreError/notFound(id:)`` when no
    /// row changed.
    private func changeRow(
        _ operation: String, id: UUID, sql: String, bind: (SQLiteStatement) throws(SQLiteError) -> Void
    ) throws(StoreError) {
        let changed = try write(operation) { database throws(SQLiteError) in
            try database.withCachedStatement(sql) { statement throws(SQLiteError) in
                try bind(statement)
                try statement.step()
                return database.changes
            }
        }
        guard changed > 0 else { throw .notFound(id: id) }
    }

    /// Prepared statements alive on the connection; 0 whenever no store call is running.
    var openStatementCount: Int {
        database?.openStatementCount ?? 0
    }
}

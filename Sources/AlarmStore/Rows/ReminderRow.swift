// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// How a ``Reminder`` maps to a row of the `reminders` table.
///
/// Statement parameter `?n` is column `n - 1` of ``columns``. The position (`?6`) is
/// owned by the store, which keeps positions dense, so ``bind(_:to:)`` leaves it to
/// the statement: appending computes it in SQL, updating never changes it.
enum ReminderRow {
    static let columns = [
        "id", "title", "notes", "due_usec", "done", "position", "image_path", "created_usec", "updated_usec", "command",
        "rule", "all_day", "before", "sound", "timer", "timer_left",
    ]

    static let selectAll = "SELECT \(columns.joined(separator: ", ")) FROM reminders ORDER BY position"
    static let selectOne = "SELECT \(columns.joined(separator: ", ")) FROM reminders WHERE id = ?1"
    /// Appends at the end: the new position is the current count.
    static let append = "INSERT INTO reminders (\(columns.joined(separator: ", "))) "
        + "VALUES (?1, ?2, ?3, ?4, ?5, (SELECT count(*) FROM reminders), ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"
    static let insertAtPosition = "INSERT INTO reminders (\(columns.joined(separator: ", "))) "
        + "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"
    static let update = "UPDATE reminders SET title = ?2, notes = ?3, due_usec = ?4, done = ?5, "
        + "image_path = ?7, created_usec = ?8, updated_usec = ?9, command = ?10, rule = ?11, all_day = ?12, before = ?13, sound = ?14, timer = ?15, "
        + "timer_left = ?16 WHERE id = ?1"
    static let position = "SELECT position FROM reminders WHERE id = ?1"
    static let count = "SELECT count(*) FROM reminders"
    static let delete = "DELETE FROM reminders WHERE id = ?1"
    /// Closes the gap left at ?1.
    static let shiftDownAfter = "UPDATE reminders SET position = position - 1 WHERE position > ?1"
    /// Opens a gap at ?1 for an item coming from ?2 (below it): ?1 ≤ position < ?2 move up.
    static let shiftUp = "UPDATE reminders SET position = position + 1 WHERE position >= ?1 AND position < ?2"
    /// Opens a gap at ?2 for an item coming from ?1 (above it): ?1 < position ≤ ?2 move down.
    static let shiftDown = "UPDATE reminders SET position = position - 1 WHERE position > ?1 AND position <= ?2"
    static let setPosition = "UPDATE reminders SET position = ?2 WHERE id = ?1"

    /// Checks everything a write needs: the model's rules and storable instants.
    static func validate(_ reminder: Reminder) throws(StoreError) {
        do { try reminder.validate() } catch { throw .invalid(error) }
        if let due = reminder.due { try Instant.validate(due, field: "due") }
        try Instant.validate(reminder.created, field: "created")
        try Instant.validate(reminder.updated, field: "updated")
    }

    /// Binds every column except the position.
    static func bind(_ reminder: Reminder, to statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(reminder.id, at: 1)
        try statement.bind(reminder.title, at: 2)
        try statement.bind(reminder.notes, at: 3)
        try statement.bind(reminder.due.map(Instant.storable), at: 4)
        try statement.bind(reminder.done, at: 5)
        try statement.bind(reminder.imagePath, at: 7)
        try statement.bind(Instant.storable(reminder.created), at: 8)
        try statement.bind(Instant.storable(reminder.updated), at: 9)
        try statement.bind(CommandColumn.text(reminder.command), at: 10)
        try statement.bind(RuleColumn.text(reminder.recurrence), at: 11)
        try statement.bind(reminder.allDay, at: 12)
        try statement.bind(reminder.before.map(String.init).joined(separator: ","), at: 13)
        try statement.bind(reminder.sound?.description, at: 14)
        try statement.bind(reminder.isTimer, at: 15)
        try statement.bind(reminder.timerLeft, at: 16)
    }

    /// Inserts `reminders` at positions 0, 1, 2, … in array order with one prepared
    /// statement; the caller provides the transaction and has validated them.
    static func insertAll(_ reminders: [Reminder], into database: SQLiteDatabase) throws(SQLiteError) {
        try database.withStatement(insertAtPosition) { statement throws(SQLiteError) in
            for (position, reminder) in reminders.enumerated() {
                statement.reset()
                try bind(reminder, to: statement)
                try statement.bind(position, at: 6)
                try statement.step()
            }
        }
    }

    /// Turns a row of ``selectAll`` or ``selectOne`` into a reminder, refusing rows
    /// that break the model's rules.
    static func decode(_ statement: SQLiteStatement) throws(SQLiteError) -> Reminder {
        guard let id = statement.uuid(at: 0) else {
            throw .invalidRow("reminder row", "id \(sqlLiteral(statement.blob(at: 0))) is not a 16-byte UUID")
        }
        let row = "reminder \(id.uuidString)"
        var reminder = Reminder(
            id: id,
            title: statement.text(at: 1) ?? "",
            notes: statement.text(at: 2) ?? "",
            due: statement.optionalInt64(at: 3).map(Instant.date(microseconds:)),
            done: statement.bool(at: 4),
            position: statement.int(at: 5),
            imagePath: statement.text(at: 6),
            command: CommandColumn.argv(statement.text(at: 9)),
            created: Instant.date(microseconds: statement.int64(at: 7)),
            updated: Instant.date(microseconds: statement.int64(at: 8))
        )
        reminder.allDay = statement.bool(at: 11)
        reminder.isTimer = statement.bool(at: 14)
        reminder.timerLeft = statement.optionalInt64(at: 15).map { Int(clamping: $0) }
        do throws(ValidationError) {
            if let name = statement.text(at: 13) { reminder.sound = try Sound.parse(name) }
            reminder.recurrence = try RuleColumn.rule(statement.text(at: 10))
            let before = statement.text(at: 12) ?? ""
            reminder.before = try before.split(separator: ",").map { part throws(ValidationError) in
                guard let seconds = Int(part) else { throw .text("before", "must be seconds, comma-separated", got: before) }
                return seconds
            }
        } catch { throw .invalidRow(row, error.description) }
        do { try reminder.validate() } catch { throw .invalidRow(row, error.description) }
        return reminder
    }
}

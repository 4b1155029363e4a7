// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// How a ``HistoryEvent`` maps to a row of the `events` table.
///
/// `seq` is the order of recording; history reads newest first by it, which the
/// primary key (and, per item, the `events_item` index) serves without sorting.
enum EventRow {
    static let insert = "INSERT INTO events (item_id, item_kind, event, scheduled_usec, actual_usec, detail) "
        + "VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
    private static let select = "SELECT seq, item_id, item_kind, event, scheduled_usec, actual_usec, detail FROM events"
    /// Newest first, at most ?1 rows.
    static let selectRecent = select + " ORDER BY seq DESC LIMIT ?1"
    /// Newest first for item ?2, at most ?1 rows.
    static let selectRecentForItem = select + " WHERE item_id = ?2 ORDER BY seq DESC LIMIT ?1"
    /// Newest first, at most ?1 rows, happened at or after ?3 (µs), of the
    /// kinds in ?4 (`,fired,missed,`); a NULL filter lets everything through.
    static let selectFiltered = select + " WHERE (?3 IS NULL OR actual_usec >= ?3) AND (?4 IS NULL OR instr(?4, ',' || event || ',') > 0)"
        + " ORDER BY seq DESC LIMIT ?1"
    /// The same for item ?2 only.
    static let selectFilteredForItem = select + " WHERE item_id = ?2 AND (?3 IS NULL OR actual_usec >= ?3)"
        + " AND (?4 IS NULL OR instr(?4, ',' || event || ',') > 0) ORDER BY seq DESC LIMIT ?1"

    /// Oldest first, the rows after the journal checkpoint, at most ?1.
    static let selectAfterCheckpoint = select + " WHERE seq > (SELECT through FROM journal_checkpoint) ORDER BY seq LIMIT ?1"
    static let lastSeq = "SELECT ifnull(max(seq), 0) FROM events"
    /// Moves the checkpoint forward to ?1, never back.
    static let advanceCheckpoint = "UPDATE journal_checkpoint SET through = max(through, ?1)"

    static func validate(_ event: HistoryEvent) throws(StoreError) {
        if let scheduled = event.scheduled { try Instant.validate(scheduled, field: "scheduled") }
        try Instant.validate(event.actual, field: "actual")
    }

    static func bind(_ event: HistoryEvent, to statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(event.itemID, at: 1)
        try statement.bind(event.itemKind.rawValue, at: 2)
        try statement.bind(event.event.rawValue, at: 3)
        try statement.bind(event.scheduled.map(Instant.storable), at: 4)
        try statement.bind(Instant.storable(event.actual), at: 5)
        try statement.bind(event.detail, at: 6)
    }

    static func decode(_ statement: SQLiteStatement) throws(SQLiteError) -> HistoryEvent {
        func row() -> String { "event \(statement.int64(at: 0))" }
        guard let itemID = statement.uuid(at: 1) else {
            throw .invalidRow(row(), "item_id \(sqlLiteral(statement.blob(at: 1))) is not a 16-byte UUID")
        }
        let kindName = statement.text(at: 2) ?? ""
        guard let kind = ItemKind(rawValue: kindName) else {
            throw .invalidRow(row(), "item_kind \(ValidationError.quoted(kindName)) is not alarm or reminder")
        }
        let eventName = statement.text(at: 3) ?? ""
        guard let event = EventKind(rawValue: eventName) else {
            throw .invalidRow(row(), "event \(ValidationError.quoted(eventName)) is not a known event")
        }
        return HistoryEvent(
            itemID: itemID,
            itemKind: kind,
            event: event,
            scheduled: statement.optionalInt64(at: 4).map(Instant.date(microseconds:)),
            actual: Instant.date(microseconds: statement.int64(at: 5)),
            detail: statement.text(at: 6) ?? ""
        )
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// How a ``RingState`` maps to a row of the `ring_states` table.
///
/// `phase_usec` holds the instant the phase carries: ringing since, or snoozed until.
enum RingStateRow {
    static let upsert = """
        INSERT INTO ring_states (item_id, item_kind, anchor_usec, phase, phase_usec, occurrence_usec, snooze_count, escalated)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        ON CONFLICT (item_id) DO UPDATE SET item_kind = excluded.item_kind, anchor_usec = excluded.anchor_usec,
            phase = excluded.phase, phase_usec = excluded.phase_usec, occurrence_usec = excluded.occurrence_usec,
            snooze_count = excluded.snooze_count, escalated = excluded.escalated
        """
    static let columns = ["item_id", "anchor_usec", "phase", "phase_usec", "occurrence_usec", "snooze_count", "escalated"]
    static let selectAll = "SELECT \(columns.joined(separator: ", ")) FROM ring_states"
    static let selectOne = selectAll + " WHERE item_id = ?1"

    /// `SELECT` of every row of `table` (whose leading columns are `itemColumns`)
    /// with its ring state's columns after them, NULL where it has none. Both
    /// tables are keyed by id, so SQLite walks them side by side.
    static func selectJoined(_ table: String, itemColumns: [String], orderBy: String? = nil) -> String {
        "SELECT " + (itemColumns.map { "i.\($0)" } + columns.map { "r.\($0)" }).joined(separator: ", ")
            + " FROM \(table) AS i LEFT JOIN ring_states AS r ON r.item_id = i.id"
            + (orderBy.map { " ORDER BY i.\($0)" } ?? "")
    }

    static func validate(_ state: RingState) throws(StoreError) {
        try Instant.validate(state.anchor, field: "anchor")
        if let occurrence = state.occurrence { try Instant.validate(occurrence, field: "occurrence") }
        switch state.phase {
        case .waiting: break
        case .ringing(let instant), .snoozed(let instant): try Instant.validate(instant, field: "phase")
        }
    }

    static func bind(id: UUID, kind: ItemKind, state: RingState, to statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(id, at: 1)
        try statement.bind(kind.rawValue, at: 2)
        try statement.bind(Instant.storable(state.anchor), at: 3)
        switch state.phase {
        case .waiting:
            try statement.bind("waiting", at: 4)
            try statement.bindNull(at: 5)
        case .ringing(let since):
            try statement.bind("ringing", at: 4)
            try statement.bind(Instant.storable(since), at: 5)
        case .snoozed(let until):
            try statement.bind("snoozed", at: 4)
            try statement.bind(Instant.storable(until), at: 5)
        }
        try statement.bind(state.occurrence.map(Instant.storable), at: 6)
        try statement.bind(state.snoozeCount, at: 7)
        try statement.bind(state.escalated, at: 8)
    }

    /// Decodes ``columns`` starting at column `first` of the current row.
    static func decode(_ statement: SQLiteStatement, from first: Int32 = 0) throws(SQLiteError) -> (UUID, RingState) {
        guard let id = statement.uuid(at: first) else {
            throw .invalidRow("ring state", "item_id \(sqlLiteral(statement.blob(at: first))) is not a 16-byte UUID")
        }
        let phaseInstant = statement.optionalInt64(at: first + 3).map(Instant.date(microseconds:))
        let phase: RingState.Phase
        switch (statement.text(at: first + 2), phaseInstant) {
        case ("waiting", _): phase = .waiting
        case ("ringing", let since?): phase = .ringing(since: since)
        case ("snoozed", let until?): phase = .snoozed(until: until)
        case (let name, _):
            throw .invalidRow("ring state of \(id.uuidString)", "phase \(ValidationError.quoted(name ?? "NULL")) without its instant")
        }
        return (id, RingState(
            anchor: Instant.date(microseconds: statement.int64(at: first + 1)),
            phase: phase,
            occurrence: statement.optionalInt64(at: first + 4).map(Instant.date(microseconds:)),
            snoozeCount: statement.int(at: first + 5),
            // NULL from the join for an item without a state reads as 0.
            escalated: statement.int(at: first + 6) != 0
        ))
    }
}

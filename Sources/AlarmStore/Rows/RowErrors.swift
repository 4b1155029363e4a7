// SPDX-License-Identifier: Apache-2.0
import CSQLite

extension SQLiteError {
    /// A row that SQLite reads without complaint but that breaks alarmd's rules (an
    /// unknown time zone, an empty label, a 3-byte id).
    ///
    /// It is reported as `SQLITE_CORRUPT`, the code SQLite uses for its own broken
    /// invariants, so the store turns both kinds of damage into `StoreError.corrupt`
    /// in one place. `row` names the row (`alarm 5F1C…`) and `problem` the field.
    static func invalidRow(_ row: String, _ problem: String) -> SQLiteError {
        SQLiteError(code: SQLITE_CORRUPT, message: "\(row): \(problem)", operation: "decode \(row)")
    }
}

/// A blob as an SQL literal (`x'00ff'`), or `NULL`, to name a row whose id is damaged.
func sqlLiteral(_ bytes: [UInt8]?) -> String {
    guard let bytes else { return "NULL" }
    return "x'" + bytes.map { byte in
        let digits = String(byte, radix: 16)
        return byte < 16 ? "0" + digits : digits
    }.joined() + "'"
}

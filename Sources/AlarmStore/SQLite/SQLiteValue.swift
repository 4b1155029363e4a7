// SPDX-License-Identifier: Apache-2.0
/// One SQLite value, in SQLite's own five storage classes.
///
/// The store binds and reads its columns through the typed accessors of
/// ``SQLiteStatement`` for speed; this enum is for generic code and tests that need to
/// see exactly what SQLite returned (NULL versus an empty blob, say).
enum SQLiteValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// Instants as stored: integer microseconds since the Unix epoch.
///
/// Microseconds keep ordering and arithmetic in SQL exact and fit any date a person
/// will schedule. A `Date` with finer precision is rounded to the nearest microsecond.
enum Instant {
    /// `date` in microseconds, or `nil` if it is not finite or too far out for 64 bits.
    static func microseconds(_ date: Date) -> Int64? {
        Int64(exactly: (date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }

    /// Checks that `date` can be stored, naming `field` if not. Every write validates
    /// its instants first, so binding can never meet one it cannot represent.
    static func validate(_ date: Date, field: String) throws(StoreError) {
        guard microseconds(date) != nil else {
            throw .invalid(ValidationError(field: field, requirement: "must be a date within ±292,000 years of 1970",
                                           value: String(date.timeIntervalSince1970)))
        }
    }

    /// `date` in microseconds for binding; saturates rather than trapping on a value
    /// that ``validate(_:field:)`` would have refused.
    static func storable(_ date: Date) -> Int64 {
        if let value = microseconds(date) { return value }
        return date.timeIntervalSince1970 < 0 ? .min : .max
    }
}

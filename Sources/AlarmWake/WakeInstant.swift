// SPDX-License-Identifier: Apache-2.0
import CivilCalendar

/// An instant on the wall clock, in whole microseconds since 1970-01-01T00:00:00Z:
/// what `io.alarmd.Wake` carries, and what the helper's timer is armed for.
/// Its own type rather than Foundation's `Date`, so that the helper, which runs
/// privileged for every user, links nothing it does not use.
///
/// Microseconds, because that is the finest the wire form writes; a finer
/// fraction in a message is cut to the microsecond at or before it (a wake-up
/// a fraction early rather than late).
public struct WakeInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }

    public init(seconds: Int64) { microseconds = seconds * 1_000_000 }

    public static func < (lhs: WakeInstant, rhs: WakeInstant) -> Bool { lhs.microseconds < rhs.microseconds }

    /// This instant moved by `seconds` (negative: earlier).
    public func adding(seconds: Int64) -> WakeInstant { WakeInstant(microseconds: microseconds + seconds * 1_000_000) }

    /// The whole seconds since the epoch, rounded down, and the microseconds after them.
    public var secondsAndMicroseconds: (seconds: Int64, microseconds: Int64) {
        let seconds = microseconds >= 0 ? microseconds / 1_000_000 : (microseconds - 999_999) / 1_000_000
        return (seconds, microseconds - seconds * 1_000_000)
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999999Z: the instants
    /// RFC 3339 can write in UTC, the only ones a message may name.
    public static let earliest = WakeInstant(seconds: -62_135_596_800)
    public static let latest = WakeInstant(microseconds: 253_402_300_799 * 1_000_000 + 999_999)

    /// RFC 3339 in UTC, `2026-12-24T06:59:00+00:00`, with six digits of
    /// fraction when the instant has one; an instant outside
    /// ``earliest``…``latest`` is written as the nearer of them.
    public var rfc3339: String {
        let (seconds, fraction) = min(max(self, Self.earliest), Self.latest).secondsAndMicroseconds
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = CivilDays.date(dayNumber: days)
        let time = seconds - days * 86_400
        var text = Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2)
        text += "T" + Self.pad(time / 3600, 2) + ":" + Self.pad(time / 60 % 60, 2) + ":" + Self.pad(time % 60, 2)
        if fraction != 0 { text += "." + Self.pad(fraction, 6) }
        return text + "+00:00"
    }

    public var description: String { rfc3339 }

    /// Why a text is not an instant: what it must be, for a message that
    /// names the field and the value.
    public struct Invalid: Error, Hashable, Sendable {
        public let requirement: String

        public init(requirement: String) { self.requirement = requirement }

        /// The text is not in the form at all.
        public static let form = Invalid(requirement: "must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z")
    }

    /// Reads an RFC 3339 instant with an offset: `2026-12-24T06:59:00Z`,
    /// `2026-12-24T07:59:00.25+01:00`, `2026-12-24T06:59Z` (seconds may be
    /// left out, the offset may not: a local time would be read in the
    /// helper's zone, which need not be the caller's). Years 0001–9999, in
    /// the offset given and in UTC.
    public init(rfc3339 text: String) throws(Invalid) {
        let form = Invalid.form
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2)
        else { throw form }
        guard (1...12).contains(month) else { throw Invalid(requirement: "must have a month of 01–12") }
        guard year >= 1, (1...CivilDays.daysInMonth(year: year, month: month)).contains(day) else {
            throw Invalid(requirement: "must have a day that exists in that month")
        }
        guard scanner.skip("T") || scanner.skip("t"), let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2)
        else { throw form }
        var second: Int64 = 0
        var fraction: Int64 = 0
        if scanner.skip(":") {
            guard let digits = scanner.number(digits: 2) else { throw form }
            second = digits
            if scanner.skip(".") || scanner.skip(",") {
                let digits = scanner.digitRun()
                guard !digits.isEmpty, digits.count <= 9 else { throw form }
                for (index, digit) in digits.prefix(6).enumerated() {
                    var place: Int64 = 1
                    for _ in index..<5 { place *= 10 }
                    fraction += Int64(digit - 48) * place
                }
            }
        }
        guard hour <= 23, minute <= 59, second <= 59 else { throw Invalid(requirement: "must have a time of day within 00:00:00–23:59:59") }
        var offset: Int64 = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offset = 0
        } else if let sign: Int64 = scanner.skip("+") ? 1 : scanner.skip("-") ? -1 : nil {
            guard let offsetHours = scanner.number(digits: 2) else { throw form }
            _ = scanner.skip(":")
            guard let offsetMinutes = scanner.number(digits: 2), offsetHours <= 23, offsetMinutes <= 59 else { throw form }
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            throw form
        }
        guard scanner.atEnd else { throw form }
        let seconds = CivilDays.dayNumber(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        let instant = WakeInstant(microseconds: seconds * 1_000_000 + fraction)
        guard instant >= Self.earliest, instant <= Self.latest else { throw Invalid(requirement: "must lie between the years 0001 and 9999 in UTC") }
        self = instant
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Reads ASCII from the front of a message's bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// Exactly `digits` decimal digits.
        mutating func number(digits: Int) -> Int64? {
            guard index + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[index..<index + digits] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            index += digits
            return value
        }

        /// The decimal digits from here on, however many.
        mutating func digitRun() -> ArraySlice<UInt8> {
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
            return bytes[start..<index]
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import CivilCalendar

/// Proleptic-Gregorian calendar arithmetic on day numbers (days since 1970-01-01),
/// in `Int` fields over ``CivilDays``. Pure integer math: this is what keeps
/// next-fire computation free of `Calendar` searches.
public enum CivilTime {
    public static let secondsPerDay: Int64 = 86_400

    /// Day number of a calendar date.
    @inlinable
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int64 {
        CivilDays.dayNumber(year: Int64(year), month: Int64(month), day: Int64(day))
    }

    /// The day number of an ISO date, `2026-12-24` exactly (years 0001–9999),
    /// or of its basic form `20261224` when `basic`; `nil` for anything else,
    /// including days a month does not have.
    public static func dayNumber(isoDate text: String, basic: Bool = false) -> Int64? {
        let bytes = Array(text.utf8)
        let fields: [(Int, Int)] = basic ? [(0, 4), (4, 2), (6, 2)] : [(0, 4), (5, 2), (8, 2)]
        guard bytes.count == (basic ? 8 : 10), basic || (bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")) else { return nil }
        var values: [Int] = []
        for (start, length) in fields {
            var value = 0
            for byte in bytes[start..<(start + length)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            values.append(value)
        }
        guard values[0] >= 1, (1...12).contains(values[1]), (1...daysInMonth(year: values[0], month: values[1])).contains(values[2]) else { return nil }
        return dayNumber(year: values[0], month: values[1], day: values[2])
    }

    /// Calendar date of a day number.
    @inlinable
    public static func date(dayNumber: Int64) -> (year: Int, month: Int, day: Int) {
        let (year, month, day) = CivilDays.date(dayNumber: dayNumber)
        return (Int(year), Int(month), Int(day))
    }

    /// Weekday of a day number (1970-01-01 was a Thursday).
    public static func weekday(dayNumber: Int64) -> Weekday {
        Weekday(rawValue: Int(floorMod(dayNumber + 4, 7)))!
    }

    /// Days in `month` of `year`.
    @inlinable
    public static func daysInMonth(year: Int, month: Int) -> Int {
        Int(CivilDays.daysInMonth(year: Int64(year), month: Int64(month)))
    }

    @inline(__always)
    public static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    @inline(__always)
    public static func floorMod(_ a: Int64, _ b: Int64) -> Int64 { a - floorDiv(a, b) * b }
}

/// A wall-clock reading in some zone: what a person would see on a clock.
public struct LocalDateTime: Hashable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    public let weekday: Weekday
    /// Offset from UTC in seconds at that instant (east positive).
    public let utcOffset: Int

    /// Splits local seconds (UTC seconds + offset) into calendar fields.
    public init(localSeconds: Int64, utcOffset: Int) {
        let dayNumber = CivilTime.floorDiv(localSeconds, CivilTime.secondsPerDay)
        let secondsIntoDay = Int(localSeconds - dayNumber * CivilTime.secondsPerDay)
        (year, month, day) = CivilTime.date(dayNumber: dayNumber)
        hour = secondsIntoDay / 3600
        minute = secondsIntoDay / 60 % 60
        second = secondsIntoDay % 60
        weekday = CivilTime.weekday(dayNumber: dayNumber)
        self.utcOffset = utcOffset
    }

    /// `2026-03-08`
    public var dateText: String { Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2) }
    /// `07:30`
    public var hourMinuteText: String { Self.pad(hour, 2) + ":" + Self.pad(minute, 2) }
    /// `07:30:00`
    public var timeText: String { hourMinuteText + ":" + Self.pad(second, 2) }
    /// `+05:30`, `-04:00`, `+00:00`
    public var offsetText: String {
        let magnitude = abs(utcOffset)
        var text = (utcOffset < 0 ? "-" : "+") + Self.pad(magnitude / 3600, 2) + ":" + Self.pad(magnitude / 60 % 60, 2)
        if magnitude % 60 != 0 { text += ":" + Self.pad(magnitude % 60, 2) }
        return text
    }
    /// RFC 3339 with the numeric offset: `2026-03-08T07:30:00-04:00`.
    public var description: String { rfc3339(microseconds: 0) }

    /// ``description`` with `.ffffff` after the seconds when `microseconds`
    /// (0–999,999) is not 0. Written into one string without pieces: every
    /// reply about an item carries a few, on the path of each change.
    public func rfc3339(microseconds: Int) -> String {
        // A year of other than four digits (or before year 0) takes the long way.
        guard (0...9999).contains(year), (0..<1_000_000).contains(microseconds) else {
            let fraction = microseconds == 0 ? "" : "." + Self.pad(microseconds, 6)
            return dateText + "T" + timeText + fraction + offsetText
        }
        return String(unsafeUninitializedCapacity: 36) { text in
            var end = 0
            func put(_ byte: UInt8) {
                text[end] = byte
                end += 1
            }
            func put(_ value: Int, digits: Int) {
                var divisor = 1
                for _ in 1..<digits { divisor *= 10 }
                while divisor > 0 {
                    put(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                    divisor /= 10
                }
            }
            put(year, digits: 4); put(UInt8(ascii: "-")); put(month, digits: 2); put(UInt8(ascii: "-")); put(day, digits: 2)
            put(UInt8(ascii: "T"))
            put(hour, digits: 2); put(UInt8(ascii: ":")); put(minute, digits: 2); put(UInt8(ascii: ":")); put(second, digits: 2)
            if microseconds != 0 {
                put(UInt8(ascii: "."))
                put(microseconds, digits: 6)
            }
            let magnitude = abs(utcOffset)
            put(UInt8(ascii: utcOffset < 0 ? "-" : "+"))
            put(magnitude / 3600 % 100, digits: 2); put(UInt8(ascii: ":")); put(magnitude / 60 % 60, digits: 2)
            if magnitude % 60 != 0 {
                put(UInt8(ascii: ":"))
                put(magnitude % 60, digits: 2)
            }
            return end
        }
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }
}

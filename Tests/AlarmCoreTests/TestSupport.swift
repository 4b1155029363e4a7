// SPDX-License-Identifier: Apache-2.0
import Foundation
import AlarmCore

// Helpers shared by the test files. Expected instants in the tables are written as
// ISO 8601 UTC text (`2026-03-08T07:30:00Z`) and read with Foundation's
// ISO8601DateFormatter, never with AlarmCore's own InstantParser, so a bug in the
// parser cannot hide a bug in the code an expectation is checking (or vice versa).

struct TestSupportError: Error, CustomStringConvertible {
    let description: String
}

enum ISO {
    /// Reads an RFC 3339 instant such as `2026-03-08T07:30:00Z` or
    /// `2026-03-07T12:00:00.250Z`.
    static func date(_ text: String) throws -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        guard let date = formatter.date(from: text) else {
            throw TestSupportError(description: "bad ISO 8601 literal in a test table: \(text)")
        }
        return date
    }

    /// Whole epoch seconds of an ISO literal (the tables use whole seconds).
    static func seconds(_ text: String) throws -> Int64 {
        Int64(try date(text).timeIntervalSince1970)
    }

    /// `2026-03-08T07:30:00Z` for a Date, for readable failure messages.
    static func string(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    static func string(seconds: Int64) -> String { string(Date(timeIntervalSince1970: TimeInterval(seconds))) }
}

/// alarmd's zone by identifier, read from the system's TZif file; throws
/// (rather than traps) for a typo in a table.
func zone(_ identifier: String) throws -> Zone {
    guard let zone = Zone(identifier: identifier) else {
        throw TestSupportError(description: "unknown time zone \(identifier)")
    }
    return zone
}

/// Foundation's zone of the same name: ICU's reader and its own copy of the tz
/// database, the independent reference tests compare alarmd's rules with.
func reference(_ zone: Zone) throws -> TimeZone {
    guard let tz = TimeZone(identifier: zone.identifier) else {
        throw TestSupportError(description: "Foundation does not know \(zone.identifier)")
    }
    return tz
}

/// `TimeOfDay` from `HH:MM` text, built with the validating initialiser (the parser
/// has its own tests).
func timeOfDay(_ text: String) throws -> TimeOfDay {
    let parts = text.split(separator: ":")
    guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]) else {
        throw TestSupportError(description: "bad HH:MM literal in a test table: \(text)")
    }
    return try TimeOfDay(hour: hour, minute: minute)
}

/// The 7-bit mask for a list of weekdays, computed here from the POSIX numbering
/// (Sunday = 0) that `RepeatDays` documents, independently of its own initialisers.
func mask(_ days: [Weekday]) -> UInt8 {
    days.reduce(0) { $0 | UInt8(1) << UInt8($1.rawValue) }
}

/// Wall-clock fields of `date` in `zone`, computed by Foundation's Calendar rather
/// than by AlarmCore.
struct Wall: Equatable, CustomStringConvertible {
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }

    init(_ date: Date, in zone: Zone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone.identifier)!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        self.init(year: c.year!, month: c.month!, day: c.day!, hour: c.hour!, minute: c.minute!, second: c.second!)
    }

    var dateKey: String { "\(year)-\(month)-\(day)" }
    var description: String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)):\(two(second))"
    }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// A time zone of the tz database, with its rules at hand.
///
/// alarmd reads zones from the system's TZif files itself rather than through
/// Foundation's `TimeZone`, whose named zones need ICU: linking ICU makes
/// alarmctl a 70 MB binary that spends most of a short command starting up.
/// Two zones are equal when their names are.
public struct Zone: Sendable, Hashable, CustomStringConvertible {
    public let rules: ZoneRules

    public init(rules: ZoneRules) { self.rules = rules }

    /// The tz database name, such as `Europe/Berlin`.
    public var identifier: String { rules.identifier }
    public var description: String { identifier }

    /// UTC, which needs no file.
    public static let utc = Zone(rules: ZoneRules(identifier: "UTC", fixedOffset: 0))

    /// The zone an IANA name such as `Europe/Berlin` names, read from the
    /// system's zone files; `nil` for anything else (see `ZoneName.zone`).
    public init?(identifier: String) {
        guard let zone = ZoneName.zone(identifier) else { return nil }
        self = zone
    }

    /// UTC offset in seconds (east positive) at `date`.
    public func secondsFromGMT(for date: Date) -> Int { rules.offset(at: date.epochSecondsFloor) }

    public static func == (a: Zone, b: Zone) -> Bool { a.identifier == b.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
}

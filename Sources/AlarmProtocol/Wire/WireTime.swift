// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// Instants on the wire: RFC 3339 with the offset of the zone they are shown in.
public enum WireTime {
    /// `2026-03-09T07:30:00+01:00`, with microseconds when the instant has them.
    public static func string(_ date: Date, in zone: Zone) -> String {
        // Only years 0001–9999 have a wire form that reads back, and only
        // those are ever accepted (`InstantParser`); an instant beyond them
        // (from a bug) is shown at the nearer end rather than trapping in the
        // conversion to microseconds, which overflows near the year 294,000.
        let bounds = Double(InstantParser.earliest)...Double(InstantParser.latest)
        let interval = date.timeIntervalSince1970.isNaN ? 0 : min(max(date.timeIntervalSince1970, bounds.lowerBound), bounds.upperBound)
        let microseconds = Int64((interval * 1_000_000).rounded())
        let seconds = CivilTime.floorDiv(microseconds, 1_000_000)
        let fraction = microseconds - seconds * 1_000_000
        var local = zone.rules.localDateTime(at: seconds)
        // An offset with seconds (local mean time, before a zone adopted
        // standard time) or a year outside 0000–9999 in this zone has no
        // RFC 3339 form that reads back: show such an instant in UTC.
        if local.utcOffset % 60 != 0 || !(0...9999).contains(local.year) {
            local = LocalDateTime(localSeconds: seconds, utcOffset: 0)
        }
        return local.rfc3339(microseconds: Int(fraction))
    }

    public static func json(_ date: Date?, in zone: Zone) -> JSONValue {
        date.map { .string(string($0, in: zone)) } ?? .null
    }

    /// Parses an instant parameter (RFC 3339; a local `YYYY-MM-DD HH:MM` is read in `zone`).
    public static func parse(_ text: String, parameter: String, zone: Zone) throws(VarlinkError) -> Date {
        do throws(ValidationError) { return try InstantParser.parse(text, rules: zone.rules, field: parameter) } catch {
            throw .invalid(error)
        }
    }
}

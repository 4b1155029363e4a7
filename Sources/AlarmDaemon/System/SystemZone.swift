// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// The system time zone as glibc finds it — `TZ` first, then `/etc/localtime` —
/// but freshly on every call, so that a zone change is seen
/// (`ZoneDatabase.systemZone` has the rules).
public struct SystemZone: Sendable {
    public let environmentTZ: String?
    public let etcDirectory: String

    public init(environmentTZ: String?, etcDirectory: String = "/etc") {
        self.environmentTZ = environmentTZ
        self.etcDirectory = etcDirectory
    }

    public func current() -> Zone { lookUp().zone }

    /// The zone with where it came from, and a `TZ` that was passed over.
    public func lookUp() -> ZoneDatabase.SystemZoneLookup {
        ZoneDatabase.lookUpSystemZone(environmentTZ: environmentTZ, etcDirectory: etcDirectory)
    }

    /// The warning for a `TZ` that names no usable zone, or `nil` when it does.
    public static func refusal(_ lookup: ZoneDatabase.SystemZoneLookup) -> String? {
        guard let tz = lookup.refusedTZ else { return nil }
        return "TZ=\(ValidationError.quoted(tz)) names no time zone alarmd can use (a tz database name such as Europe/Berlin, "
            + "a path into \(ZoneDatabase.directory), or a POSIX rule such as EST5EDT,M3.2.0,M11.1.0); "
            + "using \(lookup.zone.identifier) (\(lookup.source)) instead"
    }
}

// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The system's tz database: the zoneinfo files, and the settings that say
/// which zone is the local one.
///
/// This is the one place the core reads files, and only the system's zone
/// data, as `TimeZone(identifier:)` would; each zone is read once per process.
public enum ZoneDatabase {
    /// Where Debian's tzdata puts the compiled zones.
    public static let directory = "/usr/share/zoneinfo"

    private static let cache = Mutex<[String: Zone]>([:])

    /// The zone named `identifier`, already checked by `ZoneName`; `nil` when
    /// it has no readable, well-formed file. Only zones found are kept, so a
    /// stream of bad names cannot grow the cache.
    static func zone(named identifier: String) -> Zone? {
        if let zone = cache.withLock({ $0[identifier] }) { return zone }
        let zone: Zone
        if let bytes = readFile(directory + "/" + identifier), let tzif = try? TZif(bytes) {
            zone = Zone(rules: ZoneRules(identifier: identifier, tzif: tzif))
        } else if identifier == "UTC" || identifier == "Etc/UTC" {
            // A minimal system without tzdata still has UTC.
            zone = Zone(rules: ZoneRules(identifier: identifier, fixedOffset: 0))
        } else {
            return nil
        }
        return cache.withLock { cache in
            if let existing = cache[identifier] { return existing }
            cache[identifier] = zone
            return zone
        }
    }

    /// The local zone the way glibc finds it, but freshly on every call: `TZ`
    /// when set (see `ZoneName.fromTZ`), then the target of `/etc/localtime`,
    /// then Debian's `/etc/timezone`, then UTC.
    public static func systemZone(environmentTZ: String?, etcDirectory: String = "/etc") -> Zone {
        lookUpSystemZone(environmentTZ: environmentTZ, etcDirectory: etcDirectory).zone
    }

    /// The local zone, where it was found, and a `TZ` that was set but passed
    /// over, so that the daemon can say so.
    public struct SystemZoneLookup: Sendable, Equatable {
        public let zone: Zone
        /// Where it came from, to follow the zone's name in a message:
        /// `from TZ`, `from /etc/localtime`, `from /etc/timezone` (in the
        /// directory searched), or `the default` for UTC.
        public let source: String
        /// A non-empty `TZ` that names no zone alarmd can read.
        public let refusedTZ: String?
    }

    /// `systemZone`, with where the zone came from. An empty `TZ` counts as
    /// unset (glibc reads it as UTC; alarmd keeps the machine's zone).
    public static func lookUpSystemZone(environmentTZ: String?, etcDirectory: String = "/etc") -> SystemZoneLookup {
        let tz = environmentTZ.flatMap { $0.isEmpty ? nil : $0 }
        if let tz, let zone = ZoneName.fromTZ(tz) { return SystemZoneLookup(zone: zone, source: "from TZ", refusedTZ: nil) }
        func found(_ zone: Zone, in file: String) -> SystemZoneLookup { SystemZoneLookup(zone: zone, source: "from " + file, refusedTZ: tz) }
        let localtime = etcDirectory + "/localtime"
        if let target = readLink(localtime), let zone = ZoneName.fromZoneinfoPath(target) { return found(zone, in: localtime) }
        let timezone = etcDirectory + "/timezone"
        if let bytes = readFile(timezone) {
            let name = String(decoding: bytes, as: UTF8.self).unicodeScalars.filter { !$0.properties.isWhitespace }
            if let zone = ZoneName.zone(String(String.UnicodeScalarView(name))) { return found(zone, in: timezone) }
        }
        return SystemZoneLookup(zone: .utc, source: "the default", refusedTZ: tz)
    }

    /// The whole of a small file; `nil` when it cannot be read or exceeds 1 MiB.
    public static func readFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard bytes.count <= 1 << 20 else { return nil }
        }
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { readlink(path, $0.baseAddress!, $0.count - 1) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Time zones by their IANA (tz database) names, and as the `TZ` variable names them.
public enum ZoneName {
    /// The tz database's zones whose names have no `/` (abbreviations such as
    /// `PST` or `IST` name no zone there and are ambiguous: `IST` is India,
    /// Ireland or Israel).
    static let topLevel: Set<String> = [
        "CET", "CST6CDT", "Cuba", "EET", "EST", "EST5EDT", "Egypt", "Eire", "GB", "GB-Eire", "GMT", "GMT+0", "GMT-0",
        "GMT0", "Greenwich", "HST", "Hongkong", "Iceland", "Iran", "Israel", "Jamaica", "Japan", "Kwajalein", "Libya",
        "MET", "MST", "MST7MDT", "NZ", "NZ-CHAT", "Navajo", "PRC", "PST8PDT", "Poland", "Portugal", "ROC", "ROK",
        "Singapore", "Turkey", "UCT", "UTC", "Universal", "W-SU", "WET", "Zulu",
    ]

    /// The zone an IANA name such as `Europe/Berlin` names; `nil` for anything
    /// else, abbreviations included.
    public static func zone(_ name: String) -> Zone? {
        guard isZoneName(name) else { return nil }
        return ZoneDatabase.zone(named: name)
    }

    /// Whether `name` has the shape of a tz database name, so that it can be
    /// looked up as a file below the zoneinfo directory and nowhere else.
    static func isZoneName(_ name: String) -> Bool {
        if topLevel.contains(name) { return true }
        let parts = name.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.count <= 3 else { return false }
        // posix/ repeats the plain zones; right/ counts leap seconds.
        if parts[0].elementsEqual("posix".utf8) || parts[0].elementsEqual("right".utf8) { return false }
        return parts.allSatisfy { part in
            guard let first = part.first, first != UInt8(ascii: "."), first != UInt8(ascii: "-") else { return false }
            return part.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                     UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
                    return true
                default:
                    return false
                }
            }
        }
    }

    /// The zone a `TZ` value names, read as glibc reads a zone name: `Europe/Berlin`,
    /// `:Europe/Berlin`, or a path into the zoneinfo directory. `nil` when empty
    /// or not a zone this way (POSIX rule strings such as `CET-1CEST` are not read).
    public static func fromTZ(_ value: String) -> Zone? {
        var name = Substring(value)
        if name.hasPrefix(":") { name = name.dropFirst() }
        guard !name.isEmpty else { return nil }
        return fromZoneinfoPath(String(name)) ?? zone(String(name))
    }

    /// `/usr/share/zoneinfo/Europe/Berlin` or `../usr/share/zoneinfo/Europe/Berlin` → Europe/Berlin.
    public static func fromZoneinfoPath(_ path: String) -> Zone? {
        let marker = Array("zoneinfo/".utf8)
        let bytes = Array(path.utf8)
        guard bytes.count > marker.count,
              let start = (0...(bytes.count - marker.count)).first(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) })
        else { return nil }
        return zone(String(decoding: bytes[(start + marker.count)...], as: UTF8.self))
    }
}

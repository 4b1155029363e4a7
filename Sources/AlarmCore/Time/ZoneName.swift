import Foundation

/// Time zones by their IANA (tz database) names, and as the `TZ` variable names them.
public enum ZoneName {
    /// The tz database's zones whose names have no `/` (Foundation also accepts
    /// abbreviations such as `PST` or `IST`, which name no zone there and are
    /// ambiguous: `IST` is India, Ireland or Israel).
    static let topLevel: Set<String> = [
        "CET", "CST6CDT", "Cuba", "EET", "EST", "EST5EDT", "Egypt", "Eire", "GB", "GB-Eire", "GMT", "GMT+0", "GMT-0",
        "GMT0", "Greenwich", "HST", "Hongkong", "Iceland", "Iran", "Israel", "Jamaica", "Japan", "Kwajalein", "Libya",
        "MET", "MST", "MST7MDT", "NZ", "NZ-CHAT", "Navajo", "PRC", "PST8PDT", "Poland", "Portugal", "ROC", "ROK",
        "Singapore", "Turkey", "UCT", "UTC", "Universal", "W-SU", "WET", "Zulu",
    ]

    /// The zone an IANA name such as `Europe/Berlin` names; `nil` for anything
    /// else, abbreviations included.
    public static func zone(_ name: String) -> TimeZone? {
        guard name.contains("/") || topLevel.contains(name) else { return nil }
        return TimeZone(identifier: name)
    }

    /// The zone a `TZ` value names, read as glibc reads a zone name: `Europe/Berlin`,
    /// `:Europe/Berlin`, or a path into the zoneinfo directory. `nil` when empty
    /// or not a zone this way (POSIX rule strings such as `CET-1CEST` are not read).
    public static func fromTZ(_ value: String) -> TimeZone? {
        var name = Substring(value)
        if name.hasPrefix(":") { name = name.dropFirst() }
        guard !name.isEmpty else { return nil }
        return fromZoneinfoPath(String(name)) ?? zone(String(name))
    }

    /// `/usr/share/zoneinfo/Europe/Berlin` or `../usr/share/zoneinfo/Europe/Berlin` → Europe/Berlin.
    public static func fromZoneinfoPath(_ path: String) -> TimeZone? {
        guard let range = path.range(of: "zoneinfo/") else { return nil }
        return zone(String(path[range.upperBound...]))
    }
}

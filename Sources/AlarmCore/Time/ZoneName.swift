// SPDX-License-Identifier: Apache-2.0
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
    ///
    /// A plain loop over the bytes: alarmctl runs this at every start, where
    /// the generic collection code it replaced cost a few percent of a command.
    static func isZoneName(_ name: String) -> Bool {
        if topLevel.contains(name) { return true }
        // posix/ repeats the plain zones; right/ counts leap seconds.
        if name.hasPrefix("posix/") || name.hasPrefix("right/") { return false }
        var parts = 1
        var partLength = 0
        for byte in name.utf8 {
            if byte == UInt8(ascii: "/") {
                guard partLength > 0 else { return false }
                parts += 1
                partLength = 0
                continue
            }
            // No part starts with "." (so no "." or "..") or "-" (an option's look).
            if partLength == 0, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-") { return false }
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
                partLength += 1
            default:
                return false
            }
        }
        return partLength > 0 && (2...3).contains(parts)
    }

    /// The zone a `TZ` value names, read as glibc reads it: a zone name
    /// (`Europe/Berlin`, `:Europe/Berlin`) or a path into the zoneinfo
    /// directory first, else a POSIX rule (`IST-5:30`, `EST5EDT,M3.2.0,M11.1.0`,
    /// with or without the `:`), whose zone is named by the value as given.
    /// `nil` when empty or none of these. Unlike glibc, files outside the
    /// zoneinfo directory are not read, and a value that is no rule is not UTC.
    public static func fromTZ(_ value: String) -> Zone? {
        var name = Substring(value)
        if name.hasPrefix(":") { name = name.dropFirst() }
        guard !name.isEmpty else { return nil }
        return fromZoneinfoPath(String(name)) ?? zone(String(name)) ?? fromPosixRule(String(name), identifier: value)
    }

    /// US daylight-saving dates, which glibc gives a rule that names a
    /// daylight-saving time but no dates (`CET-1CEST`): those of its
    /// `posixrules` file, New York's on Debian, or these built in.
    static let defaultDaylightDates = ",M3.2.0,M11.1.0"

    /// A zone that follows a POSIX `TZ` rule in every year.
    static func fromPosixRule(_ text: String, identifier: String) -> Zone? {
        guard let rule = PosixZoneRule(text) ?? PosixZoneRule(text + defaultDaylightDates) else { return nil }
        let tzif = TZif(transitions: [], offsets: [], initialOffset: rule.standardOffset, footer: rule)
        return Zone(rules: ZoneRules(identifier: identifier, tzif: tzif))
    }

    /// `/usr/share/zoneinfo/Europe/Berlin` or `../usr/share/zoneinfo/Europe/Berlin` → Europe/Berlin.
    public static func fromZoneinfoPath(_ path: String) -> Zone? {
        // The name is what follows the first "zoneinfo/".
        let marker = "zoneinfo/"
        var rest = Substring(path)
        while !rest.isEmpty {
            if rest.hasPrefix(marker) { return zone(String(rest.dropFirst(marker.utf8.count))) }
            rest = rest.dropFirst()
        }
        return nil
    }
}

// SPDX-License-Identifier: Apache-2.0
/// A day of the week. Raw values follow the POSIX `tm_wday` convention (Sunday = 0)
/// so day arithmetic on day numbers stays a plain modulo.
public enum Weekday: Int, CaseIterable, Sendable, Codable, Comparable {
    case sunday = 0, monday, tuesday, wednesday, thursday, friday, saturday

    /// Monday first, as in ISO 8601 and in systemd's calendar syntax; this is the
    /// order used for display and for JSON arrays.
    public static let weekOrder: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]

    /// `Mon`, `Tue`, …
    public var shortName: String { Self.shortNames[rawValue] }
    /// `mon`, `tue`, … — the wire and storage spelling.
    public var code: String { Self.codes[rawValue] }
    /// `Monday`, `Tuesday`, …
    public var fullName: String { Self.fullNames[rawValue] }

    private static let shortNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let fullNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let codes = shortNames.map { $0.lowercased() }
    private static let lowercasedFullNames = fullNames.map { $0.lowercased() }
    /// Wire codes to days: an import reads one per repeat day of every alarm.
    public static let byCode: [String: Weekday] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.code, $0) })

    /// Parses a short (`mon`) or full (`monday`) English name in any case.
    public init?(name: String) {
        let lower = name.lowercased()
        guard let index = Self.codes.firstIndex(of: lower) ?? Self.lowercasedFullNames.firstIndex(of: lower) else { return nil }
        self.init(rawValue: index)
    }

    /// Position in the Monday-first week (Monday = 0 … Sunday = 6).
    public var weekPosition: Int { (rawValue + 6) % 7 }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.weekPosition < rhs.weekPosition }
}

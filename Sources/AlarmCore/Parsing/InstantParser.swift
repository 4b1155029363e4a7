// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Parses the instants people type: RFC 3339 / ISO 8601 with an offset, or a
/// local date and time read in a given zone.
public enum InstantParser {
    /// Accepted forms:
    /// - `2026-03-07T12:00:00Z`, `2026-03-07T12:00:00-05:00`, `2026-03-07T12:00Z`,
    ///   `2026-03-07T12:00:00.250+0530` (an explicit offset or `Z`);
    /// - `2026-03-07 12:00`, `2026-03-07T12:00:30` (local, read in `rules`' zone with
    ///   the same gap and overlap rules as alarms);
    /// - `2026-03-07` (local midnight).
    public static func parse(_ text: String, rules: ZoneRules, field: String = "time") throws(ValidationError) -> Date {
        var scanner = Scanner(text.trimmingSpaces())
        // Built only on failure: quoting the text costs more than parsing it.
        var invalid: ValidationError { .text(field, N_("must be ISO 8601 like 2026-03-07T12:00:00Z, or YYYY-MM-DD HH:MM"), got: text) }
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2)
        else { throw invalid }
        guard (1...12).contains(month) else { throw .text(field, N_("must have a month of 01–12"), got: text) }
        guard (1...CivilTime.daysInMonth(year: year, month: month)).contains(day) else {
            throw .text(field, N_("must have a day that exists in that month"), got: text)
        }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var hasTime = false
        if scanner.skip("T") || scanner.skip("t") || scanner.skip(" ") {
            guard let h = scanner.number(digits: 2), scanner.skip(":"), let m = scanner.number(digits: 2) else { throw invalid }
            hour = h
            minute = m
            if scanner.skip(":") {
                guard let s = scanner.number(digits: 2) else { throw invalid }
                second = s
                if scanner.skip(".") || scanner.skip(",") {
                    guard let digits = scanner.digitRun(), !digits.isEmpty, digits.count <= 9 else { throw invalid }
                    // Both integers are exact in a Double, so the quotient is the
                    // nearest Double to the decimal, as `Double("0." + digits)` gives,
                    // without going through the C library's number scanner.
                    let numerator = digits.utf8.reduce(0) { $0 * 10 + Int($1 - 48) }
                    fraction = Double(numerator) / Double((0..<digits.utf8.count).reduce(1) { value, _ in value * 10 })
                }
            }
            hasTime = true
            guard hour <= 23, minute <= 59, second <= 59 else {
                throw .text(field, N_("must have a time of day within 00:00:00–23:59:59"), got: text)
            }
        }
        let wall = CivilTime.dayNumber(year: year, month: month, day: day) * CivilTime.secondsPerDay
            + Int64(hour * 3600 + minute * 60 + second)
        let instant: Int64
        if scanner.atEnd {
            instant = rules.instant(forWall: wall)
        } else if !hasTime {
            throw invalid
        } else if scanner.skip("Z") || scanner.skip("z") {
            instant = wall
        } else if let sign = scanner.sign() {
            guard let oh = scanner.number(digits: 2) else { throw invalid }
            _ = scanner.skip(":")
            guard let om = scanner.number(digits: 2), oh <= 23, om <= 59 else { throw invalid }
            instant = wall - Int64(sign * (oh * 3600 + om * 60))
        } else {
            throw invalid
        }
        guard scanner.atEnd else { throw invalid }
        // In UTC as well as where it was written: the wire form of an instant
        // falls back to UTC, which must stay within four-digit years.
        guard (Self.earliest...Self.latest).contains(instant) else {
            throw .text(field, N_("must lie between the years 0001 and 9999 in UTC"), got: text)
        }
        return Date(timeIntervalSince1970: Double(instant) + fraction)
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in Unix seconds: the
    /// instants the wire form can carry.
    public static let earliest: Int64 = -62_135_596_800
    public static let latest: Int64 = 253_402_300_799
}

/// Parses durations as people type them: `90s`, `20m`, `20min`,
/// `20 minutes`, `1h30m`, `1h 30m`, `1.5h`, `2d`, `1w`, `1d2h3m4s`, and in
/// Traditional Chinese `25分鐘`, `1小時30分`, `3天`.
public enum DurationParser {
    /// The longest duration, 100 years: longer than anyone means, and short
    /// enough that now plus it stays far inside the years 0001–9999 the wire
    /// form carries, so no caller can overflow or trap on the sum.
    public static let maxDays: Int64 = 36_500
    static let maxSeconds = maxDays * 86_400

    /// What ``parse(_:field:allowNow:)`` takes, every form listed, without
    /// and with `now` (catalog messages).
    public static let requirement = N_("must be a duration like 90s, 20m, 20min, 20 minutes, 1h30m, 1h 30m, 1.5h, 2d or 1w")
    public static let requirementOrNow = N_("must be a duration like 90s, 20m, 20min, 20 minutes, 1h30m, 1h 30m, 1.5h, 2d or 1w, or now")

    /// The Chinese unit words, longest first, and the unit each stands for.
    static let chineseUnits: [(word: String, unit: String)] = [
        ("個小時", "h"), ("個鐘頭", "h"), ("個星期", "w"), ("個禮拜", "w"), ("分鐘", "m"), ("小時", "h"), ("鐘頭", "h"), ("星期", "w"),
        ("禮拜", "w"), ("週", "w"), ("周", "w"), ("天", "d"), ("日", "d"), ("時", "h"), ("分", "m"), ("秒", "s"),
    ]

    /// `in 25 min`, `in 1h`, `25 分鐘後`, `1小時後`: how far ahead, in
    /// seconds; `2h ago`, `3天前`: how far back, as a negative number;
    /// `nil` when `text` says neither.
    public static func relative(_ text: String, field: String) throws(ValidationError) -> Int64? {
        let trimmed = text.trimmingSpaces()
        let lower = trimmed.lowercased()
        // `in the morning` is a part of the day, not a span.
        if lower.hasPrefix("in "), !lower.hasPrefix("in the ") { return try parse(String(trimmed.dropFirst(3)), field: field) }
        if lower.hasSuffix(" ago") { return -(try parse(String(trimmed.dropLast(4)), field: field)) }
        for (suffix, sign) in [("之後", Int64(1)), ("以後", 1), ("後", 1), ("之前", -1), ("以前", -1), ("前", -1)]
        where trimmed.hasSuffix(suffix) && trimmed.count > suffix.count {
            return sign * (try parse(String(trimmed.dropLast(suffix.count)), field: field))
        }
        return nil
    }

    /// Unit words and their seconds, largest first.
    static let units: [(words: Set<String>, seconds: Int64)] = [
        (["w", "wk", "wks", "week", "weeks"], 604_800),
        (["d", "day", "days"], 86_400),
        (["h", "hr", "hrs", "hour", "hours"], 3_600),
        (["m", "min", "mins", "minute", "minutes"], 60),
        (["s", "sec", "secs", "second", "seconds"], 1),
    ]

    /// Whole seconds in the duration; units must appear largest first, each
    /// at most once; a fraction (`1.5h`) must come to whole seconds. `now`
    /// is 0 when `allowNow` (`remind add --in now`), else refused like any
    /// duration that is not longer than zero.
    public static func parse(_ text: String, field: String = "duration", allowNow: Bool = false) throws(ValidationError) -> Int64 {
        var invalid: ValidationError { .text(field, allowNow ? requirementOrNow : requirement, got: text) }
        var tooLong: ValidationError { .text(field, ValidationError.with(ValidationError.atMostDays, Int(maxDays)), got: text) }
        var lower = SpokenWords.arabicNumerals(text.trimmingSpaces()).lowercased()
        // "a week", "an hour", "half an hour": one of the unit, as people say it.
        if lower == "half an hour" || lower == "half hour" { lower = "30m" }
        for article in ["a ", "an "] where lower.hasPrefix(article) { lower = "1 " + lower.dropFirst(article.count) }
        if lower == "now" {
            guard allowNow else { throw .text(field, N_("must be longer than zero"), got: text) }
            return 0
        }
        guard lower.utf8.count <= 256 else { throw tooLong }
        var ascii = lower
        if !lower.utf8.allSatisfy({ $0 < 0x80 }) {
            for (word, unit) in chineseUnits { ascii = ascii.replacing(word, with: unit + " ") }
        }
        let bytes = Array(ascii.utf8)
        var index = 0
        func run(_ accept: (UInt8) -> Bool) -> ArraySlice<UInt8> {
            let start = index
            while index < bytes.count, accept(bytes[index]) { index += 1 }
            return bytes[start..<index]
        }
        func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }
        _ = run { $0 == 32 }
        guard index < bytes.count else { throw invalid }
        var nextUnit = 0
        var total: Int64 = 0
        while index < bytes.count {
            let whole = run(isDigit)
            var fraction: ArraySlice<UInt8> = []
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                fraction = run(isDigit)
                guard !fraction.isEmpty, fraction.count <= 6 else { throw invalid }
            }
            guard !whole.isEmpty || !fraction.isEmpty else { throw invalid }
            _ = run { $0 == 32 }
            let word = String(decoding: run { (97...122).contains($0) }, as: UTF8.self)
            guard let unitIndex = units.firstIndex(where: { $0.words.contains(word) }), unitIndex >= nextUnit else { throw invalid }
            let unit = units[unitIndex].seconds
            // Bounded before multiplying: digits too many for an Int64 are too
            // long as well, and each term and the sum stay far from overflow.
            // Leading zeros count for nothing (`0005m`); more than 12 digits
            // after them is too long for any unit.
            guard whole.drop(while: { $0 == 48 }).count <= 12 else { throw tooLong }
            let value = whole.drop(while: { $0 == 48 }).reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) }
            guard value <= maxSeconds / unit else { throw tooLong }
            var seconds = value * unit
            if !fraction.isEmpty {
                var scale: Int64 = 1
                for _ in fraction { scale *= 10 }
                let numerator = fraction.reduce(Int64(0)) { $0 * 10 + Int64($1 - 48) } * unit
                guard numerator % scale == 0 else { throw .text(field, N_("must come to whole seconds"), got: text) }
                seconds += numerator / scale
            }
            total += seconds
            guard total <= maxSeconds else { throw tooLong }
            nextUnit = unitIndex + 1
            _ = run { $0 == 32 }
        }
        guard total > 0 else { throw .text(field, N_("must be longer than zero"), got: text) }
        return total
    }
}

/// A minimal cursor over ASCII text for the hand-written parsers above.
struct Scanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, index < bytes.count, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func next() -> Character? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return Character(Unicode.Scalar(bytes[index]))
    }

    /// Exactly `digits` ASCII digits.
    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += digits
        return value
    }

    /// The longest run of ASCII digits here (possibly empty).
    mutating func digitRun() -> String? {
        let start = index
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// `+1` or `-1` for a sign character (ASCII `+`, `-` or U+2212 is not accepted).
    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}

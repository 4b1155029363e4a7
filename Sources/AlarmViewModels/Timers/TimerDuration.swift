// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// A timer's length as typed in the custom field: `25` (minutes), `1:30`
/// (minutes and seconds, as a kitchen timer reads), `1:02:03` (hours,
/// minutes, seconds), or with units, `90s`, `25m`, `1h 30m`. From 1 second
/// to 24 hours.
public enum TimerDuration {
    public static let range = 1...86_400

    /// Whole seconds, or the message for the field.
    public static func parse(_ text: String, in l: some Localization) -> Result<Int, FieldError> {
        let trimmed = String(text.unicodeScalars.filter { $0 != " " && $0 != "\t" })
        let seconds = trimmed.contains(":") ? clock(trimmed) : units(trimmed)
        guard let seconds else {
            return .failure(FieldError(field: .duration, message: l.Lf("Duration must be minutes (25), minutes and seconds (1:30) or hours, minutes and seconds (1:02:03), got %s", ValidationError.quoted(text))))
        }
        guard range.contains(seconds) else {
            return .failure(FieldError(field: .duration, message: l.Lf("Duration must be 1 second to 24 hours, got %s", ValidationError.quoted(text))))
        }
        return .success(seconds)
    }

    /// Seconds from minutes and seconds fields (the form's spin buttons).
    public static func seconds(hours: Int = 0, minutes: Int, seconds: Int) -> Int? {
        guard hours >= 0, (0...59).contains(seconds), minutes >= 0, hours <= 24, minutes <= 24 * 60 else { return nil }
        let total = hours * 3600 + minutes * 60 + seconds
        return range.contains(total) ? total : nil
    }

    /// `m:ss` or `h:mm:ss`.
    private static func clock(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var numbers: [Int] = []
        for (index, part) in parts.enumerated() {
            guard let value = digits(part), index == 0 || (part.count == 2 && value < 60) else { return nil }
            numbers.append(value)
        }
        return numbers.reduce(0) { $0 * 60 + $1 }
    }

    /// A bare number of minutes, or numbers each followed by h, m or s.
    private static func units(_ text: String) -> Int? {
        if let minutes = digits(Substring(text)) { return minutes <= 100_000 ? minutes * 60 : nil }
        var total = 0, number = "", seenUnit = false
        for character in text.lowercased() {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            guard let value = Int(number), value <= 100_000 else { return nil }
            switch character {
            case "h": total += value * 3600
            case "m": total += value * 60
            case "s": total += value
            default: return nil
            }
            number = ""
            seenUnit = true
        }
        return seenUnit && number.isEmpty ? total : nil
    }

    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}

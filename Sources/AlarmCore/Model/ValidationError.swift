// SPDX-License-Identifier: Apache-2.0
/// A value that failed validation, with enough context to tell the person what to fix.
///
/// The message always names the field and shows the offending value, e.g.
/// `minute must be 0–59, got 61`.
public struct ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The field or parameter that was wrong (`minute`, `days`, `label`, `--from`, …).
    public let field: String
    /// What the field must be, phrased to follow the field name (`must be 0–59`).
    public let requirement: String
    /// The rejected value as the person gave it, quoted where it was text.
    public let value: String

    public init(field: String, requirement: String, value: String) {
        self.field = field
        self.requirement = requirement
        self.value = value
    }

    /// Builds an error for rejected text, quoting and escaping it so invisible
    /// characters (control characters, trailing spaces) show up in the message.
    public static func text(_ field: String, _ requirement: String, got text: String) -> ValidationError {
        ValidationError(field: field, requirement: requirement, value: quoted(text))
    }

    public var description: String { "\(field) \(requirement), got \(value)" }

    // Requirements and values with something filled in (a number, a quoted
    // item, a guess), as templates: filled in English here, and matched by
    // alarmctl to say them again in the reader's language
    // (`MessageFormat.match`); the others are translated as they are.
    static let atMostBytes = N_("must be at most %d bytes in UTF-8")
    static let atMostCharacters = N_("must be at most %d characters")
    static let atMostArguments = N_("must have at most %d arguments")
    static let argumentTooLong = N_("must not contain control characters or arguments over %d bytes")
    static let atMostNotices = N_("must be at most %d notices")
    static let atMostDays = N_("must be at most %d days (100 years)")
    static let atMostDates = N_("must be at most %d dates")
    static let bytes = N_("%d bytes")
    static let characters = N_("%d characters")
    static let guessed = N_("%1$s (did you mean %2$s?)")

    /// Every requirement or value made from a template.
    public static let templates = [atMostBytes, atMostCharacters, atMostArguments, argumentTooLong, atMostNotices, atMostDays, atMostDates, bytes, characters]
        + [RepeatDays.dayNamesUnknown, guessed]

    /// `template` filled with `number`.
    static func with(_ template: String, _ number: Int) -> String { MessageFormat.fill(template, [String(number)]) }

    /// `text` quoted, followed by what it probably meant when there is a guess:
    /// `"mnday" (did you mean monday?)`.
    public static func quoted(_ text: String, guess: String?) -> String {
        guess.map { MessageFormat.fill(guessed, [quoted(text), $0]) } ?? quoted(text)
    }

    /// Quotes `text` Swift-style, escaping control characters, line and
    /// paragraph separators and bidirectional controls so they are visible
    /// (and cannot reorder or break the message they are shown in).
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.properties.generalCategory == .control || TextRules.breaksLayout(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmLocale

/// alarmctl's language: gettext's catalog for the messages and LC_TIME's
/// forms for dates and times, taken from the environment on first use.
///
/// One for the process, as gettext's own state is (`setlocale` and
/// `bindtextdomain` are process-wide): a constant, set once, read from any
/// thread. Tests that check another language run the real binary under that
/// `LANG`. `--json` never passes through it.
let userLanguage = GettextLocalization()

/// The translation of `message`.
func L(_ message: String) -> String { userLanguage.L(message) }

/// The translation of `message` with its `%s`/`%d` placeholders filled in.
func Lf(_ message: String, _ arguments: any CustomStringConvertible...) -> String { userLanguage.Lf(message, arguments: arguments) }

/// `text` in the reader's quotation marks (「」 in Chinese), escaped as
/// ``ValidationError/quoted(_:)`` escapes it, so that its end shows.
func inQuotes(_ text: String) -> String {
    let quoted = ValidationError.quoted(text)
    guard !userLanguage.isSource else { return quoted }
    // TRANSLATORS: quotation marks around a name or a value typed.
    // The marks are ASCII scalars; a mark that combines with them stays the text's.
    return Lf("\"%s\"", String(String.UnicodeScalarView(quoted.unicodeScalars.dropFirst().dropLast())))
}

/// English the daemon made from one of `templates` (a warning in a reply), in
/// the reader's language; as it came under C or when it matches none.
func relocalized(_ english: String, among templates: [String]) -> String {
    guard !userLanguage.isSource else { return english }
    for template in templates {
        if let arguments = MessageFormat.match(english, template: template) { return MessageFormat.fill(L(template), arguments) }
    }
    return english
}

/// The plural form for `count`, filled in with `arguments` (`count` alone when none are given).
func Ln(_ singular: String, _ plural: String, _ count: Int, _ arguments: any CustomStringConvertible...) -> String {
    userLanguage.Ln(singular, plural, count, arguments: arguments)
}

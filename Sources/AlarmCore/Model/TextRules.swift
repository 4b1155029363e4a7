// SPDX-License-Identifier: Apache-2.0
/// Length and character rules for the free-text fields people type.
struct TextRules: Sendable {
    let maxCharacters: Int
    let allowsEmpty: Bool
    /// Notes may span lines; labels and titles may not.
    let allowsLineBreaks: Bool

    static let label = TextRules(maxCharacters: 256, allowsEmpty: false, allowsLineBreaks: false)
    static let title = TextRules(maxCharacters: 256, allowsEmpty: false, allowsLineBreaks: false)
    static let notes = TextRules(maxCharacters: 4096, allowsEmpty: true, allowsLineBreaks: true)

    /// The limit in UTF-8 bytes: 1024 for a label or title, 16 KiB for notes.
    /// Characters are grapheme clusters, and one of them may carry any number
    /// of combining marks: without a byte limit a 256-character label could
    /// hold a megabyte, in every list, export, journal entry and notification.
    /// Four bytes a character is the longest scalar, so text of single-scalar
    /// characters (any script, most emoji) always fits; only text averaging
    /// more than four bytes a character (stacked accents, long runs of family
    /// emoji) reaches the byte limit first.
    var maxBytes: Int { maxCharacters * 4 }

    func check(_ text: String, field: String) throws(ValidationError) {
        if !allowsEmpty && text.unicodeScalars.allSatisfy({ $0 == " " }) {
            throw .text(field, N_("must not be empty"), got: text)
        }
        // O(1) for native strings, and it bounds the character count below.
        let bytes = text.utf8.count
        if bytes > maxBytes {
            throw ValidationError(field: field, requirement: ValidationError.with(ValidationError.atMostBytes, maxBytes), value: ValidationError.with(ValidationError.bytes, bytes))
        }
        // utf8.count bounds the character count from above.
        if bytes > maxCharacters, case let count = text.count, count > maxCharacters {
            throw ValidationError(field: field, requirement: ValidationError.with(ValidationError.atMostCharacters, maxCharacters),
                                  value: ValidationError.with(ValidationError.characters, count))
        }
        // Printable ASCII needs no Unicode property lookups: the common case for
        // labels, and it keeps loading a million alarms cheap.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return }
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control {
                if allowsLineBreaks && (scalar == "\n" || scalar == "\r" || scalar == "\t") { continue }
                throw .text(field, N_("must not contain control characters"), got: text)
            }
            if !allowsLineBreaks && Self.breaksLayout(scalar) {
                throw .text(field, N_("must not contain line or paragraph separators or bidirectional controls"), got: text)
            }
        }
    }

    /// U+2028 and U+2029 end a line wherever a label is shown; the
    /// bidirectional embeddings, overrides and isolates (U+202A–U+202E,
    /// U+2066–U+2069) reorder the text around them, so a label could show as
    /// something else than it is, in a list line or a journal message. All are
    /// escaped in messages (`ValidationError.quoted`) for the same reason.
    static func breaksLayout(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}

/// What an item's command may be: an argument vector that is run directly, so
/// every argument reaches the program as written and none can smuggle in
/// another (no shell, no control characters, no NUL).
public enum CommandRules {
    public static let maxArguments = 64
    public static let maxArgumentBytes = 4096

    public static func check(_ argv: [String], field: String = "command") throws(ValidationError) {
        guard !argv.isEmpty else { return }
        guard argv.count <= maxArguments else {
            throw ValidationError(field: field, requirement: ValidationError.with(ValidationError.atMostArguments, maxArguments), value: "\(argv.count)")
        }
        let program = argv[0]
        guard !program.isEmpty, program.hasPrefix("/") || !program.contains("/") else {
            throw .text(field, N_("must start with a program name on PATH or an absolute path"), got: program)
        }
        for argument in argv {
            guard argument.utf8.count <= maxArgumentBytes,
                  !argument.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw .text(field, ValidationError.with(ValidationError.argumentTooLong, maxArgumentBytes), got: argument) }
        }
    }
}

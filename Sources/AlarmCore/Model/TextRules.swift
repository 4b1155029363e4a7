/// Length and character rules for the free-text fields people type.
struct TextRules: Sendable {
    let maxCharacters: Int
    let allowsEmpty: Bool
    /// Notes may span lines; labels and titles may not.
    let allowsLineBreaks: Bool

    static let label = TextRules(maxCharacters: 256, allowsEmpty: false, allowsLineBreaks: false)
    static let title = TextRules(maxCharacters: 256, allowsEmpty: false, allowsLineBreaks: false)
    static let notes = TextRules(maxCharacters: 4096, allowsEmpty: true, allowsLineBreaks: true)

    func check(_ text: String, field: String) throws(ValidationError) {
        if !allowsEmpty && text.unicodeScalars.allSatisfy({ $0 == " " }) {
            throw .text(field, "must not be empty", got: text)
        }
        // utf8.count bounds the character count from above, and is O(1) for native strings.
        if text.utf8.count > maxCharacters, case let count = text.count, count > maxCharacters {
            throw ValidationError(field: field, requirement: "must be at most \(maxCharacters) characters",
                                  value: "\(count) characters")
        }
        // Printable ASCII needs no Unicode property lookups: the common case for
        // labels, and it keeps loading a million alarms cheap.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return }
        for scalar in text.unicodeScalars where scalar.properties.generalCategory == .control {
            if allowsLineBreaks && (scalar == "\n" || scalar == "\r" || scalar == "\t") { continue }
            throw .text(field, "must not contain control characters", got: text)
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
            throw ValidationError(field: field, requirement: "must have at most \(maxArguments) arguments", value: "\(argv.count)")
        }
        let program = argv[0]
        guard !program.isEmpty, program.hasPrefix("/") || !program.contains("/") else {
            throw .text(field, "must start with a program name on PATH or an absolute path", got: program)
        }
        for argument in argv {
            guard argument.utf8.count <= maxArgumentBytes,
                  !argument.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw .text(field, "must not contain control characters or arguments over \(maxArgumentBytes) bytes", got: argument) }
        }
    }
}

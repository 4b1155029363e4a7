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

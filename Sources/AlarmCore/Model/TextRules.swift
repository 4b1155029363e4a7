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
        let count = text.count
        if count > maxCharacters {
            throw ValidationError(field: field, requirement: "must be at most \(maxCharacters) characters",
                                  value: "\(count) characters")
        }
        for scalar in text.unicodeScalars where scalar.properties.generalCategory == .control {
            if allowsLineBreaks && (scalar == "\n" || scalar == "\t") { continue }
            throw .text(field, "must not contain control characters", got: text)
        }
    }
}

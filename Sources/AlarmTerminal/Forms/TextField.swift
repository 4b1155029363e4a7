// SPDX-License-Identifier: Apache-2.0
import Terminal

/// A one-line text entry: the text and the cursor in it, edited by keys as a
/// shell's line editor is (Backspace, Delete, ←/→, Home/End, Ctrl+U, Ctrl+W).
/// At most ``limit`` characters, so a held key cannot grow it without end.
struct TextField: Equatable, Sendable {
    static let limit = 1024

    private(set) var characters: [Character]
    /// Index of the character the cursor stands before.
    private(set) var cursor: Int
    /// Whether the first character typed replaces the text, as in a
    /// field whose value is selected (a time or a length filled in for
    /// the person to type over); any other key keeps it.
    private(set) var typingReplaces: Bool

    init(_ text: String = "", typingReplaces: Bool = false) {
        characters = Array(text.prefix(Self.limit))
        cursor = characters.count
        self.typingReplaces = typingReplaces && !characters.isEmpty
    }

    var text: String { String(characters) }

    /// The whole text selected, as a field reached with Tab is: the first
    /// character typed replaces it.
    mutating func selectAll() {
        typingReplaces = !characters.isEmpty
        cursor = characters.count
    }

    /// Applies `key`; `false` when it is not an editing key.
    mutating func handle(_ key: Key) -> Bool {
        if typingReplaces {
            typingReplaces = false
            if case .character = key {
                characters = []
                cursor = 0
            }
        }
        switch key {
        case .character(let character):
            guard characters.count < Self.limit else { return true }
            characters.insert(character, at: cursor)
            cursor += 1
        case .backspace:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete, .control("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .control("w"):
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }

    /// The text as shown in `width` columns, and the cursor's column in it:
    /// the end stays in view when the text is wider.
    func visible(width: Int) -> (text: String, cursorColumn: Int) {
        let shown = characters.map { TextWidth.sanitized(String($0)) }
        let before = shown[..<cursor].reduce(0) { $0 + TextWidth.columns($1) }
        guard width > 1 else { return ("", 0) }
        var skipped = 0, skippedColumns = 0
        while before - skippedColumns >= width {
            skippedColumns += TextWidth.columns(shown[skipped])
            skipped += 1
        }
        let text = TextWidth.fit(shown[skipped...].joined(), width)
        return (text, before - skippedColumns)
    }
}

// SPDX-License-Identifier: Apache-2.0
/// Quoting for the generated completion scripts.
enum ShellWord {
    /// `text` as one single-quoted word for bash or zsh: `'it'\''s'`.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: #"'\''"#) + "'"
    }

    /// `text` as one single-quoted word for fish, which escapes inside the quotes.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing(#"\"#, with: #"\\"#).replacing("'", with: #"\'"#) + "'"
    }

    /// A command name as a case pattern or list item: quoted when it holds a space
    /// or is a reserved word (`done`).
    static func bare(_ word: String) -> String {
        let reserved: Set = ["do", "done", "if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "in", "function", "select", "time"]
        return word.contains(" ") || reserved.contains(word) ? "\"\(word)\"" : word
    }
}

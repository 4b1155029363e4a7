// SPDX-License-Identifier: Apache-2.0
/// Splits a command line into an argument vector the way systemd's `ExecStart=`
/// does for the simple cases: whitespace separates, single or double quotes
/// group, backslash escapes the next character. Nothing is expanded: the result
/// is run directly, never through a shell.
public enum ArgumentVector {
    public struct UnbalancedQuote: Error {
        /// The line ended in a lone backslash rather than inside quotes.
        public let trailingEscape: Bool
    }

    public static func split(_ line: String) throws(UnbalancedQuote) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if character == "\\" { escaped = true; inWord = true; continue }
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            switch character {
            case "\"", "'":
                quote = character
                inWord = true
            case " ", "\t":
                if inWord { words.append(current); current = ""; inWord = false }
            default:
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { throw UnbalancedQuote(trailingEscape: escaped) }
        if inWord { words.append(current) }
        return words
    }
}

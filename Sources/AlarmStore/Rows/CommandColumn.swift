// SPDX-License-Identifier: Apache-2.0
/// An item's command as stored: its arguments joined by U+001F (unit
/// separator), which `CommandRules` forbids inside an argument, so the split
/// is exact; the empty string is no command.
enum CommandColumn {
    static let separator: Character = "\u{1F}"

    static func text(_ argv: [String]) -> String { argv.joined(separator: String(separator)) }

    static func argv(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return text.split(separator: separator, omittingEmptySubsequences: false).map(String.init)
    }
}

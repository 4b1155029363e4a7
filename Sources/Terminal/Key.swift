// SPDX-License-Identifier: Apache-2.0

/// One key press or terminal event, as ``TerminalScreen/readKey()`` decodes it.
public enum Key: Hashable, Sendable {
    /// A printable character (`a`, `J`, ` `, `鬧`).
    case character(Character)
    /// Ctrl with a letter (`control("p")` for Ctrl+P).
    case control(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)
    /// The terminal changed size.
    case resize
    /// A mouse button or wheel at a cell.
    case mouse(Mouse)

    /// A mouse event the interface acts on.
    public struct Mouse: Hashable, Sendable {
        public enum Action: Hashable, Sendable { case click, wheelUp, wheelDown }
        public let action: Action
        public let row: Int
        public let column: Int

        public init(_ action: Action, row: Int, column: Int) {
            self.action = action
            self.row = row
            self.column = column
        }
    }

    /// The key a control code stands for: Enter, Tab, Backspace, Escape or Ctrl+letter.
    static func control(code: UInt32) -> Key? {
        switch code {
        case 0x0A, 0x0D: return .enter
        case 0x09: return .tab
        case 0x08, 0x7F: return .backspace
        case 0x1B: return .escape
        case 0x01...0x1A: return .control(Character(Unicode.Scalar(code + 0x60)!))
        default: return nil
        }
    }

    /// Whether `code` is a control character that stands for no key here
    /// (NUL, Ctrl+\\ and the like, C1): dropped, never typed into a field.
    static func isIgnoredControl(_ code: UInt32) -> Bool {
        switch code {
        case 0x00...0x1F, 0x7F...0x9F: return control(code: code) == nil
        default: return false
        }
    }
}

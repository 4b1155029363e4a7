// SPDX-License-Identifier: Apache-2.0
import CNcurses
import Glibc

/// The terminal in full-screen mode through ncursesw: the one place that
/// calls curses. Made once per process (curses keeps one screen); ``close()``
/// (or leaving scope) gives the terminal back as it was. Single-threaded,
/// as curses is.
public final class TerminalScreen {
    /// Whether colours are used: the terminal has them and `NO_COLOR` is
    /// unset (https://no-color.org).
    public let usesColor: Bool
    private var open = true
    /// Set by a resize: the terminal's contents are unknown, so the next
    /// draw repaints every cell rather than what curses thinks changed.
    private var repaintAll = false

    /// Takes over the terminal on standard input and output. The locale's
    /// character set is the environment's (curses needs it to write UTF-8);
    /// when it is not UTF-8, `C.UTF-8` is used for characters alone.
    public init(environment: [String: String]) {
        setlocale(LC_ALL, "")
        if String(cString: nl_langinfo(nl_item(CODESET))) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
        // Escape alone is a key here: wait 25 ms, not a second, for the rest
        // of an escape sequence.
        setenv("ESCDELAY", "25", 0)
        initscr()
        cbreak()
        noecho()
        nonl()
        intrflush(alarmd_curses_stdscr(), false)
        keypad(alarmd_curses_stdscr(), true)
        nodelay(alarmd_curses_stdscr(), true)
        curs_set(0)
        mousemask(alarmd_curses_all_mouse_events(), nil)
        mouseinterval(0)
        let wantsColor = (environment["NO_COLOR"] ?? "").isEmpty
        if wantsColor, has_colors() {
            start_color()
            use_default_colors()
            usesColor = true
            for (index, style) in Style.allCases.enumerated() {
                if let colours = Self.colours(style) { init_pair(Int16(index + 1), colours.foreground, colours.background) }
            }
        } else {
            usesColor = false
        }
    }

    deinit { close() }

    /// Gives the terminal back (the screen as it was before, the cursor shown).
    public func close() {
        guard open else { return }
        open = false
        curs_set(1)
        endwin()
    }

    /// Rows and columns now.
    public var size: (rows: Int, columns: Int) { (Int(alarmd_curses_lines()), Int(alarmd_curses_columns())) }

    /// The descriptor to wait on for keys.
    public var inputDescriptor: Int32 { STDIN_FILENO }

    /// Shows `canvas`; curses sends only the cells that changed.
    public func draw(_ canvas: Canvas, cursor: (row: Int, column: Int)? = nil) {
        if repaintAll {
            clear()
            repaintAll = false
        } else {
            erase()
        }
        for (row, line) in canvas.lines.enumerated() {
            move(Int32(row), 0)
            var column = 0
            for span in line.spans {
                put(span.text, style: span.style)
                column += TextWidth.columns(span.text)
            }
            if line.fill != .plain, column < canvas.width {
                // The last cell of the last row would scroll the screen.
                let count = canvas.width - column - (row == canvas.height - 1 ? 1 : 0)
                if count > 0 { put(String(repeating: " ", count: count), style: line.fill) }
            }
        }
        if let cursor {
            curs_set(1)
            move(Int32(cursor.row), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        refresh()
    }

    /// The next key or event, or `nil` when none is waiting (never blocks).
    /// Codes that stand for no key (an unknown function key, NUL, C1
    /// controls) are passed over.
    public func readKey() -> Key? {
        while true {
            var code: wint_t = 0
            let kind = get_wch(&code)
            if kind == ERR { return nil }
            if kind == KEY_CODE_YES {
                if let key = special(Int32(code)) { return key }
                continue
            }
            if let key = Key.control(code: UInt32(code)) { return key }
            if Key.isIgnoredControl(UInt32(code)) { continue }
            if let scalar = Unicode.Scalar(UInt32(code)) { return .character(Character(scalar)) }
        }
    }

    private func special(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_BTAB: return .backTab
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_ENTER: return .enter
        case KEY_RESIZE:
            repaintAll = true
            return .resize
        case KEY_MOUSE: return mouse()
        case KEY_F0 + 1...KEY_F0 + 12: return .function(Int(code - KEY_F0))
        default: return nil
        }
    }

    private func mouse() -> Key? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let state = event.bstate
        let action: Key.Mouse.Action
        if state & alarmd_curses_button1_press() != 0 {
            action = .click
        } else if state & alarmd_curses_wheel_up() != 0 {
            action = .wheelUp
        } else if alarmd_curses_wheel_down() != 0, state & alarmd_curses_wheel_down() != 0 {
            action = .wheelDown
        } else {
            return nil
        }
        return .mouse(Key.Mouse(action, row: Int(event.y), column: Int(event.x)))
    }

    private func put(_ text: String, style: Style) {
        let attributes = attributes(style)
        attron(attributes)
        var wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
        wide.append(0)
        addwstr(wide)
        attroff(attributes)
    }

    private func attributes(_ style: Style) -> Int32 {
        var value: Int32 = 0
        switch style {
        case .plain: break
        case .bold, .activeTab: value |= alarmd_curses_bold()
        case .dim: value |= alarmd_curses_dim()
        case .selected: value |= alarmd_curses_reverse()
        case .accent, .tab: break
        case .warning, .error, .ringing: value |= alarmd_curses_bold()
        }
        if !usesColor {
            if style == .activeTab || style == .ringing { value |= alarmd_curses_reverse() }
            return value
        }
        if Self.colours(style) != nil, let index = Style.allCases.firstIndex(of: style) {
            value |= alarmd_curses_color_pair(Int16(index + 1))
        }
        return value
    }

    /// Foreground and background for a style (-1: the terminal's own);
    /// `nil` for styles drawn with attributes alone.
    private static func colours(_ style: Style) -> (foreground: Int16, background: Int16)? {
        switch style {
        case .accent: return (Int16(COLOR_CYAN), -1)
        case .warning: return (Int16(COLOR_YELLOW), -1)
        case .error: return (Int16(COLOR_RED), -1)
        case .ringing: return (Int16(COLOR_BLACK), Int16(COLOR_YELLOW))
        case .activeTab: return (Int16(COLOR_BLACK), Int16(COLOR_CYAN))
        case .plain, .bold, .dim, .selected, .tab: return nil
        }
    }
}

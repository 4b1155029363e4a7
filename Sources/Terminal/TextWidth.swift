// SPDX-License-Identifier: Apache-2.0
import CNcurses
import Glibc

/// Text as a terminal lays it out: by display columns (a CJK character or an
/// emoji takes two, a combining mark none), as the C library's `wcwidth`
/// says for the locale's character set. Text from outside (a label from a
/// calendar server) passes through ``sanitized(_:)`` first, so that no
/// control character reaches the terminal.
public enum TextWidth {
    /// The columns `scalar` takes once sanitized.
    public static func columns(_ scalar: Unicode.Scalar) -> Int {
        if isControl(scalar) { return 1 }
        let width = alarmd_wcwidth(wchar_t(bitPattern: scalar.value))
        return width < 0 ? 1 : Int(width)
    }

    /// The columns `text` takes.
    public static func columns(_ text: String) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += columns(scalar) }
        return total
    }

    /// C0 and C1 controls and DEL: a terminal would act on them.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    /// `text` on one line with nothing a terminal acts on: a line break or
    /// tab becomes a space, any other control character `�`.
    public static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: result.append(" ")
            case _ where isControl(scalar): result.append("\u{FFFD}")
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// `text` cut to at most `width` columns, ending in `…` when cut; a
    /// character that would straddle the edge is left out whole.
    public static func fit(_ text: String, _ width: Int) -> String {
        guard width > 0 else { return "" }
        if columns(text) <= width { return text }
        var result = String.UnicodeScalarView()
        var used = 0
        for scalar in text.unicodeScalars {
            let w = columns(scalar)
            if used + w > width - 1 { break }
            result.append(scalar)
            used += w
        }
        return String(result) + "…"
    }

    /// `text` in lines of at most `width` columns, broken at spaces, beside
    /// any wide character (Chinese has no spaces to break at), and between
    /// the characters of a run wider than a line. A run of narrow characters
    /// (`alarmctl` in `執行「alarmctl`) stays whole where it fits.
    public static func wrapped(_ text: String, _ width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        var line = "", used = 0
        func breakLine() {
            lines.append(line)
            (line, used) = ("", 0)
        }
        for word in text.split(separator: " ") {
            let wordWidth = columns(String(word))
            if used > 0, used + 1 + wordWidth <= width {
                line += " " + word
                used += 1 + wordWidth
                continue
            }
            for (index, piece) in pieces(word).enumerated() {
                let pieceWidth = columns(piece)
                let space = index == 0 && used > 0 ? 1 : 0
                if used > 0, used + space + pieceWidth > width {
                    breakLine()
                } else if space == 1 {
                    line += " "
                    used += 1
                }
                guard pieceWidth > width else {
                    line += piece
                    used += pieceWidth
                    continue
                }
                for character in piece {
                    let characterWidth = columns(String(character))
                    if used > 0, used + characterWidth > width { breakLine() }
                    line.append(character)
                    used += characterWidth
                }
            }
        }
        if used > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// A word as the pieces a line may break between: each wide character
    /// alone, each run of narrow ones together.
    static func pieces(_ word: Substring) -> [String] {
        var pieces: [String] = [], run = ""
        for character in word {
            guard columns(String(character)) >= 2 else {
                run.append(character)
                continue
            }
            if !run.isEmpty { pieces.append(run) }
            pieces.append(String(character))
            run = ""
        }
        if !run.isEmpty { pieces.append(run) }
        return pieces
    }

    /// `text` fitted into `width` columns and padded with spaces to fill
    /// them (on the left when `right`).
    public static func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fitted = fit(text, width)
        let padding = String(repeating: " ", count: max(0, width - columns(fitted)))
        return right ? padding + fitted : fitted + padding
    }
}

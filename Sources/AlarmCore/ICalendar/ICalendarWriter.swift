// SPDX-License-Identifier: Apache-2.0
/// Writes iCalendar text as RFC 5545 §3.1 asks of writers: CRLF line ends,
/// lines folded at 75 octets without splitting a UTF-8 sequence, `TEXT`
/// values escaped. What the reader (``ICalendarComponent/parse(_:maxBytes:)``)
/// and every calendar program read back.
public struct ICalendarWriter: Sendable {
    public private(set) var text = ""

    public init() {}

    public mutating func begin(_ component: String) { line("BEGIN:" + component) }
    public mutating func end(_ component: String) { line("END:" + component) }

    /// `NAME;P=v:value` with `value` written as is (a date, a number, a rule).
    public mutating func property(_ name: String, _ value: String, parameters: [(String, String)] = []) {
        var line = name
        for (parameter, parameterValue) in parameters {
            // A value with a separator in it must be quoted (§3.2); a quote
            // cannot be written at all, and such values are never made here.
            let needsQuotes = parameterValue.contains { $0 == ":" || $0 == ";" || $0 == "," }
            line += ";" + parameter + "=" + (needsQuotes ? "\"" + parameterValue + "\"" : parameterValue)
        }
        self.line(line + ":" + value)
    }

    /// `NAME:text`, the text escaped (`\\`, `\;`, `\,`, `\n`).
    public mutating func text(_ name: String, _ value: String, parameters: [(String, String)] = []) {
        property(name, Self.escaped(value), parameters: parameters)
    }

    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n", "\r": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// Appends one logical line, folded: at most 75 octets per physical
    /// line, a continuation starting with a space.
    private mutating func line(_ logical: String) {
        let bytes = Array(logical.utf8)
        var start = 0
        var limit = 75
        while bytes.count - start > limit {
            var cut = start + limit
            // Back up to the first byte of a UTF-8 sequence (never 10xxxxxx).
            while cut > start, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            text += String(decoding: bytes[start..<cut], as: UTF8.self) + "\r\n "
            start = cut
            limit = 74
        }
        text += String(decoding: bytes[start...], as: UTF8.self) + "\r\n"
    }
}

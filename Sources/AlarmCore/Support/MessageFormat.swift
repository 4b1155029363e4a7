/// Fills a translated message's placeholders: `%s` and `%d` in order,
/// `%1$s` by position (a language that puts the words in another order), and
/// `%%` for a percent sign. The arguments are already text; `%d` only tells
/// translators (and `msgfmt --check`) that a number goes there.
///
/// Hand-written rather than `String(format:)`: that one takes C varargs (a
/// `%s` wants a C string pointer), lives in the Foundation that alarmctl
/// leaves out, and crashes on a translation whose placeholders are wrong, where
/// this one shows what it has.
public enum MessageFormat {
    public static func fill(_ template: String, _ arguments: [String]) -> String {
        let percent = UInt8(ascii: "%")
        guard template.utf8.contains(percent) else { return template }
        // Bytes, not Characters: a command prints a few of these, and
        // grapheme breaking and Unicode digit properties made this the most
        // expensive part of `alarmctl add` (callgrind, BENCHMARKS.md).
        let bytes = Array(template.utf8)
        var result = ""
        result.reserveCapacity(bytes.count + arguments.reduce(0) { $0 + $1.utf8.count })
        var literalStart = 0, index = 0, next = 0
        func flush(to end: Int) {
            if end > literalStart { result += String(decoding: bytes[literalStart..<end], as: UTF8.self) }
        }
        while index < bytes.count {
            guard bytes[index] == percent else { index += 1; continue }
            var cursor = index + 1
            if cursor < bytes.count, bytes[cursor] == percent {
                flush(to: index)
                result += "%"
                index = cursor + 1
                literalStart = index
                continue
            }
            // `%2$s`: digits, then `$`.
            var number = 0, digits = 0
            while cursor < bytes.count, (0x30...0x39).contains(bytes[cursor]), digits < 3 {
                number = number * 10 + Int(bytes[cursor] - 0x30)
                cursor += 1
                digits += 1
            }
            var position: Int?
            if digits > 0 {
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "$") else { index += 1; continue }
                position = number - 1
                cursor += 1
            }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "s") || bytes[cursor] == UInt8(ascii: "d") else { index += 1; continue }
            flush(to: index)
            let argument = position ?? next
            next = argument + 1
            if arguments.indices.contains(argument) { result += arguments[argument] }
            index = cursor + 1
            literalStart = index
        }
        flush(to: bytes.count)
        return result
    }
}

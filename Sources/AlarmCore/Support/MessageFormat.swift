// SPDX-License-Identifier: Apache-2.0
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
        guard template.utf8.contains(UInt8(ascii: "%")) else { return template }
        let parsed = parse(template)
        var bytes = parsed.literals[0]
        for (slot, literal) in zip(parsed.slots, parsed.literals.dropFirst()) {
            if arguments.indices.contains(slot) { bytes += arguments[slot].utf8 }
            bytes += literal
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The arguments `template` was filled with to give `text`, in the
    /// template's argument order (`%2$s` is the second); `nil` when `text` is
    /// not that template filled. The inverse of `fill`, for English text that
    /// arrives already made (a warning over the wire) and is to be said again
    /// in the reader's language. Each placeholder takes the shortest text that
    /// lets the rest match, so a literal part must not occur inside an
    /// argument before its place; alarmd's phrases end their arguments at a
    /// parenthesis, a quote or the end.
    public static func match(_ text: String, template: String) -> [String]? {
        let text = Array(text.utf8)
        let (literals, slots) = parse(template)
        // `%0$s` names no argument (msgfmt refuses it too).
        guard slots.allSatisfy({ $0 >= 0 }) else { return nil }
        func starts(_ run: [UInt8], at offset: Int) -> Bool {
            offset + run.count <= text.count && text[offset..<(offset + run.count)].elementsEqual(run)
        }
        guard starts(literals[0], at: 0) else { return nil }
        var offset = literals[0].count
        var found = [String?](repeating: nil, count: (slots.max() ?? -1) + 1)
        for (number, slot) in slots.enumerated() {
            let following = literals[number + 1]
            var end = offset
            if number == slots.count - 1 {
                // The last argument runs to where the closing literal begins.
                guard text.count - following.count >= offset, starts(following, at: text.count - following.count) else { return nil }
                end = text.count - following.count
            } else {
                while end <= text.count, !starts(following, at: end) { end += 1 }
                guard end <= text.count else { return nil }
            }
            found[slot] = String(decoding: text[offset..<end], as: UTF8.self)
            offset = end + following.count
        }
        if slots.isEmpty, offset != text.count { return nil }
        return found.map { $0 ?? "" }
    }

    /// A template as its literal runs of UTF-8 and, between each two, the
    /// argument a placeholder takes: `%s` and `%d` the next one, `%2$s` the
    /// second, `%%` a percent sign in the literal; any other `%` is literal.
    /// Bytes, not Characters: grapheme breaking and Unicode digit properties
    /// made filling the most expensive part of `alarmctl add` (callgrind,
    /// BENCHMARKS.md).
    private static func parse(_ template: String) -> (literals: [[UInt8]], slots: [Int]) {
        let bytes = Array(template.utf8)
        var literals: [[UInt8]] = [[]], slots: [Int] = []
        var index = 0, next = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%"), index + 1 < bytes.count else { literals[literals.count - 1].append(byte); index += 1; continue }
            if bytes[index + 1] == UInt8(ascii: "%") { literals[literals.count - 1].append(byte); index += 2; continue }
            // `%2$s`: digits, then `$`.
            var cursor = index + 1, number = 0, digits = 0
            while cursor < bytes.count, (0x30...0x39).contains(bytes[cursor]), digits < 3 {
                number = number * 10 + Int(bytes[cursor] - 0x30)
                cursor += 1
                digits += 1
            }
            var position: Int?
            if digits > 0, cursor < bytes.count, bytes[cursor] == UInt8(ascii: "$") { position = number - 1; cursor += 1 } else if digits > 0 { cursor = index + 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "s") || bytes[cursor] == UInt8(ascii: "d") else {
                literals[literals.count - 1].append(byte)
                index += 1
                continue
            }
            let slot = position ?? next
            next = slot + 1
            slots.append(slot)
            literals.append([])
            index = cursor + 1
        }
        return (literals, slots)
    }
}

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
        guard template.contains("%") else { return template }
        var result = ""
        var next = 0
        var characters = template[...]
        while let percent = characters.firstIndex(of: "%") {
            result += characters[..<percent]
            var rest = characters[characters.index(after: percent)...]
            if rest.first == "%" {
                result += "%"
                characters = rest.dropFirst()
                continue
            }
            // `%2$s`: digits, then `$`.
            var position: Int?
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, rest.dropFirst(digits.count).first == "$" {
                position = Int(digits).map { $0 - 1 }
                rest = rest.dropFirst(digits.count + 1)
            }
            guard let conversion = rest.first, conversion == "s" || conversion == "d" else {
                result += "%"
                characters = characters[characters.index(after: percent)...]
                continue
            }
            let index = position ?? next
            next = index + 1
            result += arguments.indices.contains(index) ? arguments[index] : ""
            characters = rest.dropFirst()
        }
        return result + characters
    }
}

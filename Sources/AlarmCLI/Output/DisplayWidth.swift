// SPDX-License-Identifier: Apache-2.0
import Glibc

/// How many terminal columns text takes, as glibc's `wcwidth` says: East
/// Asian wide characters and emoji two, combining marks none. A table
/// aligned by characters breaks with 鬧鐘 or ☕ in a label.
///
/// `wcwidth` reads the thread's `LC_CTYPE`; under `C` or `POSIX` every
/// character beyond ASCII is "unprintable" (-1). alarmctl does not take the
/// person's locale for widths (a Latin-1 terminal is long gone): it uses
/// `C.UTF-8`, which glibc has built in, on the thread that draws tables.
enum DisplayWidth {
    private static let utf8Classes: Void = {
        if let locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) { _ = uselocale(locale) }
    }()

    /// glibc's `wcwidth`, looked up by name: `<wchar.h>` declares it only
    /// for `_XOPEN_SOURCE`, so the Glibc module does not import it.
    private typealias WidthFunction = @convention(c) (Int32) -> Int32
    private static let wcwidth: WidthFunction? = dlopen(nil, RTLD_NOW).flatMap { dlsym($0, "wcwidth") }.map { unsafeBitCast($0, to: WidthFunction.self) }

    static func of(_ text: some StringProtocol) -> Int {
        var width = 0
        for scalar in text.unicodeScalars { width += of(scalar) }
        return width
    }

    static func of(_ scalar: Unicode.Scalar) -> Int {
        if scalar.isASCII { return scalar.value >= 0x20 && scalar.value != 0x7F ? 1 : 0 }
        _ = utf8Classes
        let width = wcwidth?(Int32(bitPattern: scalar.value)) ?? -1
        // Unassigned or unprintable: one column, as terminals draw a box.
        return width < 0 ? 1 : Int(width)
    }

    /// `text` cut to at most `width` columns, ending in `…` when cut;
    /// combining marks stay with their character.
    static func truncated(_ text: String, to width: Int) -> String {
        guard of(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let columns = of(String(character))
            guard used + columns <= width - 1 else { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }
}

// SPDX-License-Identifier: Apache-2.0
import Glibc

/// How many terminal columns text takes, as glibc's `wcwidth` says: East
/// Asian wide characters and emoji two, combining marks none. A table
/// aligned by characters breaks with 鬧鐘 or ☕ in a label.
///
/// `wcwidth` reads the thread's `LC_CTYPE`; under `C` or `POSIX` every
/// character beyond ASCII is "unprintable" (-1). alarmctl does not take the
/// person's locale for widths (a Latin-1 terminal is long gone): it uses
/// `C.UTF-8`, which glibc has built in, for each call only. A locale made
/// the thread's for good would take the messages and time forms with it
/// (`newlocale` fills the other categories from C): every line after the
/// first table would be English, its clock `AM5:47`.
enum DisplayWidth {
    /// The C.UTF-8 `locale_t`, made once and never freed or changed, kept
    /// as its address so that any thread may read it (a C pointer is not
    /// Sendable); 0 when glibc cannot make it.
    private static let utf8Classes = Int(bitPattern: newlocale(LC_CTYPE_MASK, "C.UTF-8", nil))

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
        let previous = locale_t(bitPattern: utf8Classes).map { uselocale($0) }
        defer { if let previous { uselocale(previous) } }
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

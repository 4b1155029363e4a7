// SPDX-License-Identifier: Apache-2.0

/// A file path's parts, as text: what `dirname` and `basename` say, for the
/// daemon and its tools, which link no Foundation.
public enum PathText {
    /// The directory part: `/a/b` → `/a`, `/a` → `/`, `a` → `""`
    /// (trailing slashes are not part of the name).
    public static func directory(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The last component: `/usr/bin/paplay` → `paplay`.
    public static func lastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed != "/" else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// Where a helper program `name` of the program at `executable` may
    /// be, in the order to look: beside it (a build tree), then in
    /// `../libexec` from it (an install).
    public static func helperCandidates(_ name: String, besideExecutable executable: String) -> [String] {
        let own = directory(executable)
        return [own + "/" + name, directory(own) + "/libexec/" + name]
    }
}

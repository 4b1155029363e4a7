// SPDX-License-Identifier: Apache-2.0

extension String {
    /// The text without the ASCII spaces and tabs around it, for the
    /// modules that link no Foundation. Trims by Unicode scalar, not by
    /// `Character`: a blank followed by a combining mark is one
    /// `Character`, which trimming by character would keep whole (found by
    /// the config fuzzer).
    public func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }

    /// The text without the ASCII blanks around it: spaces, tabs, and the
    /// carriage returns and line feeds that end a protocol's lines.
    public func trimmingBlanks() -> String {
        var scalars = Substring(self).unicodeScalars
        let blanks: Set<Unicode.Scalar> = [" ", "\t", "\r", "\n"]
        while let first = scalars.first, blanks.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, blanks.contains(last) { scalars.removeLast() }
        return String(scalars)
    }

    /// The text with each `%XX` as the byte it stands for (RFC 3986); a `%`
    /// without two hex digits stays as it is, and bytes that are no UTF-8
    /// become U+FFFD.
    public func percentDecoded() -> String {
        var bytes: [UInt8] = []
        var utf8 = utf8[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

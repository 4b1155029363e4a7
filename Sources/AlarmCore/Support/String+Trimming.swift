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
}

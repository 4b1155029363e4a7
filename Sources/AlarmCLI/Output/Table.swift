// SPDX-License-Identifier: Apache-2.0
import AlarmCore
/// Text in aligned columns, two spaces apart, the last column unpadded so no
/// line ends in spaces.
struct Table {
    var header: [String]?
    var rows: [[String]]
    /// Columns whose cells are padded on the left (numbers).
    var rightAligned: Set<Int> = []
    /// The terminal's width, when the table goes to one: every line fits in
    /// it, by this rule. The `shrinkable` column (a label or title) is cut
    /// with `…`, first to ``minimumShrunk`` columns, which keeps most names
    /// whole; then, if the other columns still do not fit, to
    /// ``minimumCut``; a line still too wide (a long marker at its end) is cut
    /// itself. So a row never wraps onto a second line, and every column
    /// keeps its place.
    var maxWidth: Int?
    var shrinkable: Int?
    /// What the last column is owed before the shrinkable one is cut: the
    /// width of its values (a time), without the notes after them
    /// (`skips Dec 7–Dec 13`), which the end of the line cuts instead. A
    /// label stays readable where a note would have pushed it to `gym, …`.
    var lastColumnOwed: Int?

    /// The narrowest a shrinkable column is cut to while the rest fits.
    static let minimumShrunk = 12
    /// The narrowest it is cut to at all: a few letters and `…`.
    static let minimumCut = 6

    /// The header line (when there is one), then one line per row. Widths are
    /// display columns (``DisplayWidth``), not characters.
    var lines: [String] {
        var all = (header.map { [$0] } ?? []) + rows
        let columns = all.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], DisplayWidth.of(cell)) }
        }
        if let maxWidth, let shrinkable, shrinkable < columns {
            // Where a note follows the values, the end of the line cuts the
            // note, not a value: room for the values, two spaces and `…`.
            let values = lastColumnOwed ?? widths[columns - 1]
            let owed = widths[columns - 1] > values ? values + 3 : values
            let last = min(widths[columns - 1], max(owed, header.map { DisplayWidth.of($0[columns - 1]) } ?? 0))
            let total = widths.dropLast().reduce(0, +) + last + 2 * (columns - 1)
            let over = total - maxWidth
            let floor = widths[shrinkable] - over >= Self.minimumShrunk ? Self.minimumShrunk : Self.minimumCut
            let cut = max(floor, widths[shrinkable] - over)
            if over > 0, cut < widths[shrinkable] {
                widths[shrinkable] = cut
                for row in all.indices where shrinkable < all[row].count {
                    all[row][shrinkable] = DisplayWidth.truncated(all[row][shrinkable], to: cut)
                }
            }
        }
        let lines = all.map { row in
            var line = ""
            for (index, cell) in row.enumerated() {
                if index > 0 { line += "  " }
                let fill = String(repeating: " ", count: max(0, widths[index] - DisplayWidth.of(cell)))
                if rightAligned.contains(index) {
                    line += fill + cell
                } else {
                    line += index == row.count - 1 ? cell : cell + fill
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
        guard let maxWidth, shrinkable != nil else { return lines }
        return lines.map { DisplayWidth.of($0) > maxWidth ? DisplayWidth.truncated($0, to: maxWidth) : $0 }
    }
}

/// `key: value` lines with the values aligned, for `show` and `status`.
struct KeyValueList {
    var pairs: [(key: String, value: String)] = []

    mutating func add(_ key: String, _ value: String) { pairs.append((key, value)) }

    var text: String {
        let width = (pairs.map { DisplayWidth.of($0.key) }.max() ?? 0) + 3
        return pairs.map { pair in
            // Continuation lines of a multi-line value (notes) line up under its first line.
            let value = pair.value.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\n" + String(repeating: " ", count: width))
            // By display width: a Chinese key is two columns a character,
            // and its colon is a full-width one.
            let key = Lf("%s:", pair.key)
            return key + String(repeating: " ", count: max(1, width - DisplayWidth.of(key))) + value
        }.joined(separator: "\n") + "\n"
    }
}

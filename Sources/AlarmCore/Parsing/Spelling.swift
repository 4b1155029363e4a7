// SPDX-License-Identifier: Apache-2.0
/// Words a mistyped one probably meant: a command (`lsit`), an option
/// (`--hlep`), a day (`mnday`).
public enum Spelling {
    /// How many edits turn one short word into the other: a letter put in,
    /// taken out, changed, or two side by side swapped (`lsit`, `list`).
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// Those of `words` close enough to `typed` to be what was meant (one
    /// edit for a short word, two from six letters on), nearest first, ties
    /// in alphabetical order.
    public static func near(_ typed: String, among words: [String]) -> [String] {
        // Words far longer than the edits allowed are none of these; the cap
        // also keeps the table small for a hostile argument.
        guard typed.count <= 64 else { return [] }
        let allowed = max(1, min(2, typed.count / 3))
        // A word longer or shorter by more than the edits allowed is none of them: no table for it.
        let scored = words.filter { abs($0.count - typed.count) <= allowed }.map { ($0, distance(typed, $0)) }.filter { $0.1 <= allowed }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0)
    }
}

// SPDX-License-Identifier: Apache-2.0
/// One positional parameter of the command table.
struct Positional: Hashable, Sendable {
    /// As the synopsis writes it: `ID`, `TIME`.
    let name: String
    let kind: ValueKind
    /// May be left out (only the last ones may).
    let isOptional: Bool
    /// Takes every remaining argument (only the last one may).
    let isRepeated: Bool

    init(_ name: String, _ kind: ValueKind, optional: Bool = false, repeated: Bool = false) {
        self.name = name
        self.kind = kind
        self.isOptional = optional
        self.isRepeated = repeated
    }

    /// `ID`, `[ID]`, `ID...` or `[ID...]`.
    var synopsis: String {
        let shown = isRepeated ? name + "..." : name
        return isOptional ? "[\(shown)]" : shown
    }
}

// SPDX-License-Identifier: Apache-2.0

extension Collection<String> {
    /// The words with one space between each, as `joined(separator: " ")`
    /// makes them. alarmctl joins its words with this: the standard
    /// library's `joined(separator:)` is a generic function the compiler
    /// does not specialise, and its first call in a process builds the
    /// metadata of the collection's associated types from their mangled
    /// names, checking each requirement against every protocol conformance
    /// in the program: 170,000 instructions, a sixth of `alarmctl add`'s own
    /// (BENCHMARKS.md, "alarmctl add's own work"). This one is specialised
    /// where it is called.
    var spaced: String {
        var text = ""
        var first = true
        for word in self {
            if !first { text += " " }
            text += word
            first = false
        }
        return text
    }

    /// Whether every word is digits alone (`30`, `7 30`): a number where a
    /// label would go, which add and timer take for a slip.
    var isNumberAlone: Bool { allSatisfy { $0.allSatisfy(\.isASCIIDigit) } }
}

// SPDX-License-Identifier: Apache-2.0

/// A Varlink interface definition read from its text, for tests that hold
/// the Swift declarations to it: each method's parameters and reply, each
/// type's and error's members, as `name:type` lists without spaces
/// (`at:?string`). A type that is an enum lists its values.
public struct VarlinkDefinition: Sendable {
    public var interface = ""
    public var methods: [String: (parameters: [String], reply: [String])] = [:]
    public var types: [String: [String]] = [:]
    public var errors: [String: [String]] = [:]

    /// The types with members (structs), not the enums.
    public var structTypes: [String: [String]] { types.filter { $0.value.contains { $0.contains(":") } } }

    public init(_ text: String) {
        // Comments out, then one declaration per keyword.
        let code = text.split(separator: "\n").map { $0.prefix { $0 != "#" } }.joined(separator: " ")
        let words = code.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        var rest = Substring(" " + words + " ")
        func next(_ from: Substring) -> Range<Substring.Index>? {
            [" interface ", " method ", " type ", " error "].compactMap { from.firstRange(of: $0) }.min { $0.lowerBound < $1.lowerBound }
        }
        while let start = next(rest) {
            let keyword = rest[start]
            let end = next(rest[start.upperBound...])?.lowerBound ?? rest.endIndex
            let declaration = rest[start.upperBound..<end]
            rest = rest[end...]
            let name = String(declaration.prefix { $0 != " " && $0 != "(" })
            let groups = Self.groups(declaration)
            switch keyword {
            case " interface ": interface = name
            case " method ": methods[name] = (groups.first ?? [], groups.count > 1 ? groups[1] : [])
            case " error ": errors[name] = groups.first ?? []
            default: types[name] = groups.first ?? []
            }
        }
    }

    /// The members of each top-level parenthesised group, as `name:type`.
    static func groups(_ text: Substring) -> [[String]] {
        var result: [[String]] = []
        var depth = 0
        var current = ""
        for character in text {
            switch character {
            case "(":
                depth += 1
                if depth == 1 { current = "" } else { current.append(character) }
            case ")":
                depth -= 1
                if depth == 0 {
                    result.append(current.split(separator: ",").map { $0.filter { $0 != " " } }.filter { !$0.isEmpty })
                } else { current.append(character) }
            default:
                if depth >= 1 { current.append(character) }
            }
        }
        return result
    }
}

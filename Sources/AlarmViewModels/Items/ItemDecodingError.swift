// SPDX-License-Identifier: Apache-2.0
/// Why an object from the daemon could not be read as an item: the member
/// (`snooze.minutes`, `rule`) and what was wrong with it.
public struct ItemDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Problem: Equatable, Sendable {
        /// A required member is absent or null.
        case missing
        /// The member has another JSON type than `expected` (`string`, `int`).
        case wrongType(expected: String, found: String)
        /// The member has the right type but a value it may not have; why.
        case invalid(String)
    }

    /// The member's path within the object.
    public let field: String
    public let problem: Problem

    public init(field: String, problem: Problem) {
        self.field = field
        self.problem = problem
    }

    /// `time is missing`, `enabled must be a bool, got string`; English,
    /// for logs and bug reports.
    public var description: String {
        switch problem {
        case .missing: return "\(field) is missing"
        case .wrongType(let expected, let found): return "\(field) must be a \(expected), got \(found)"
        case .invalid(let why): return "\(field) is not valid: \(why)"
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
/// One member of an `io.alarmd.Wake` struct (a method's parameters or reply,
/// an error's parameters): its wire name, written only here, its type, and
/// whether it may be left out. The encoders, ``WakeMembers`` (the one reader)
/// and the check against `io.alarmd.Wake.varlink` all go through these.
public struct WakeField: Hashable, Sendable, CustomStringConvertible {
    /// The member types the interface uses, each with the bounds it is read with.
    public enum Kind: Hashable, Sendable {
        /// An RFC 3339 instant with an offset (`string` in the definition),
        /// at most ``WakeMembers/maxInstantBytes`` long.
        case instant
        /// Text for people (`string`).
        case string
        /// A whole number within ``WakeMembers/intRange`` (`int`).
        case int

        /// The type in the definition's notation.
        public var idl: String {
            switch self {
            case .instant, .string: "string"
            case .int: "int"
            }
        }
    }

    public let name: String
    public let kind: Kind
    public let optional: Bool

    public init(_ name: String, _ kind: Kind, optional: Bool = false) {
        self.name = name
        self.kind = kind
        self.optional = optional
    }

    public static func optional(_ name: String, _ kind: Kind) -> WakeField { WakeField(name, kind, optional: true) }

    /// `name: ?type`, as in the interface definition.
    public var description: String { "\(name): \(optional ? "?" : "")\(kind.idl)" }
}

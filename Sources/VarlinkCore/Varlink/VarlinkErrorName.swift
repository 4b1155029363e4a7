// SPDX-License-Identifier: Apache-2.0

/// The error names one Varlink interface declares, as an enum whose raw
/// values are the unqualified names (`NoSuchItem`); the interface's name
/// qualifies them on the wire (`io.alarmd.NoSuchItem`).
public protocol VarlinkErrorName: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// The interface that declares these errors: `io.alarmd`.
    static var interfaceName: String { get }
}

extension VarlinkErrorName {
    /// The name on the wire: `io.alarmd.NoSuchItem`.
    public var qualified: String { Self.interfaceName + "." + rawValue }

    /// The error a qualified name names, if the interface declares it.
    public init?(qualified: String) {
        let prefix = Self.interfaceName + "."
        guard qualified.hasPrefix(prefix) else { return nil }
        self.init(rawValue: String(qualified.dropFirst(prefix.count)))
    }
}

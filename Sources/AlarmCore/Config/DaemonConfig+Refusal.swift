// SPDX-License-Identifier: Apache-2.0
extension DaemonConfig {
    /// A value a key's ``ValueParser`` did not take: what the value must be,
    /// phrased to follow the key name (`must be 1–60`). ``parse(_:name:)``
    /// turns it into a ``ConfigError`` with the file, line and value.
    public struct Refusal: Error, Hashable, Sendable {
        public let requirement: String

        init(_ requirement: String) { self.requirement = requirement }
    }
}

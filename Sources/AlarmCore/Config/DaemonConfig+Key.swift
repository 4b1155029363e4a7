// SPDX-License-Identifier: Apache-2.0
extension DaemonConfig {
    /// One key of alarmd.conf, as systemd's gperf tables declare theirs: where
    /// it lives, what it means, its default as the file writes it, and how its
    /// value is read into a ``DaemonConfig``.
    public struct Key: Sendable, CustomStringConvertible {
        public let section: String
        public let name: String
        /// What the key does, one paragraph; ``defaultFileText`` wraps it into
        /// comment lines above the key.
        public let doc: String
        /// The built-in value as the file spells it (`5m`, `yes`, empty); it
        /// parses to the value `DaemonConfig()` holds, which tests check.
        public let defaultValue: String
        private let store: @Sendable (inout DaemonConfig, String) throws(Refusal) -> Void

        /// A key whose value `parser` reads and that lands at `field`.
        init<Value>(_ section: String, _ name: String, _ parser: ValueParser<Value>, _ field: WritableKeyPath<DaemonConfig, Value> & Sendable,
                    default defaultValue: String, doc: String) {
            self.section = section
            self.name = name
            self.doc = doc
            self.defaultValue = defaultValue
            store = { (config: inout DaemonConfig, text: String) throws(Refusal) in config[keyPath: field] = try parser.read(text) }
        }

        /// Reads `value` (as ``INIFile`` trimmed it) into `config`.
        public func apply(_ value: String, to config: inout DaemonConfig) throws(Refusal) {
            try store(&config, value)
        }

        /// `[Section] Name=`, as messages name a key.
        public var description: String { Self.id(section: section, name: name) }

        static func id(section: String, name: String) -> String { "[\(section)] \(name)=" }
    }
}

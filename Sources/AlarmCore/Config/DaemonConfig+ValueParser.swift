// SPDX-License-Identifier: Apache-2.0
extension DaemonConfig {
    /// How one key's value is read: from the text the file gives (trimmed) to
    /// the typed value the key stores, or a ``Refusal`` saying what the text
    /// must be. The kinds the keys use (``integer(_:)``,
    /// ``duration(_:like:off:)``, ``boolean``, …) are built in
    /// `DaemonConfig+ValueParsers.swift`.
    public struct ValueParser<Value>: Sendable {
        let read: @Sendable (String) throws(Refusal) -> Value

        /// A parser with one requirement: `read` returns `nil` for any text
        /// it does not take.
        init(_ requirement: String, _ read: @escaping @Sendable (String) -> Value?) {
            self.read = { (text: String) throws(Refusal) -> Value in
                guard let value = read(text) else { throw Refusal(requirement) }
                return value
            }
        }

        /// A parser that says which rule the text broke.
        init(refusing read: @escaping @Sendable (String) throws(Refusal) -> Value) {
            self.read = read
        }

        /// The same reading, its result turned into another type.
        func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> ValueParser<Other> {
            ValueParser<Other>(refusing: { [read] (text: String) throws(Refusal) -> Other in transform(try read(text)) })
        }
    }
}

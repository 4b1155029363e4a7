// SPDX-License-Identifier: Apache-2.0
/// A configuration problem that stops start-up, naming file, line and key.
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int
    /// The section of the refused key; `nil` when the line itself is wrong.
    public let section: String?
    public let key: String?
    /// The refused value as the file has it (trimmed); `nil` when the line itself is wrong.
    public let value: String?
    /// What follows the key in ``description``: the requirement and, for a
    /// refused value, that value quoted.
    public let message: String

    /// A line that is not a section header, a `Key=Value` line or a comment.
    init(file: String, line: Int, key: String?, message: String) {
        self.file = file
        self.line = line
        section = nil
        self.key = key
        value = nil
        self.message = message
    }

    /// A value its key's parser refused; `requirement` follows the key name
    /// (`must be 1–60`).
    init(file: String, line: Int, section: String, key: String, value: String, requirement: String) {
        self.file = file
        self.line = line
        self.section = section
        self.key = key
        self.value = value
        message = requirement + ", got " + ValidationError.quoted(value)
    }

    public var description: String {
        "\(file):\(line): " + (key.map { "\($0): " } ?? "") + message
    }
}

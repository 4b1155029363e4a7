// SPDX-License-Identifier: Apache-2.0
/// A systemd-style INI file: `[Section]` headers, `Key=Value` lines, `#` or `;`
/// comments, blank lines. Values keep inner spaces; surrounding spaces go.
public struct INIFile: Sendable {
    public struct Entry: Hashable, Sendable {
        public let section: String
        public let key: String
        public let value: String
        /// 1-based line number, for messages.
        public let line: Int
    }

    public let entries: [Entry]

    /// Parses `text`; `name` is only used in error messages.
    public init(parsing text: String, name: String) throws(ConfigError) {
        var entries: [Entry] = []
        var section = ""
        // Split on Character newlines: "\r\n" is one Character in Swift, so a CRLF
        // file would otherwise read as a single line.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNumber = index + 1
            let line = String(rawLine).trimmingSpaces().trimmingCarriageReturn()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw ConfigError(file: name, line: lineNumber, key: nil, message: "a section header must look like [Section], got \(ValidationError.quoted(line))")
                }
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigError(file: name, line: lineNumber, key: nil, message: "expected Key=Value, got \(ValidationError.quoted(line))")
            }
            let key = String(line[..<equals]).trimmingSpaces()
            let value = String(line[line.index(after: equals)...]).trimmingSpaces()
            guard !key.isEmpty else {
                throw ConfigError(file: name, line: lineNumber, key: nil, message: "a key is missing before '='")
            }
            guard !section.isEmpty else {
                throw ConfigError(file: name, line: lineNumber, key: key, message: "\(key)= must be inside a [Section]")
            }
            entries.append(Entry(section: section, key: key, value: value, line: lineNumber))
        }
        self.entries = entries
    }
}

extension String {
    func trimmingCarriageReturn() -> String { hasSuffix("\r") ? String(dropLast()) : self }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

// The kinds of value alarmd.conf's keys take. Each states its requirement in
// the words an error shows after the key (`must be 1–60`), built from the same
// range it checks, so a message cannot name other bounds than the parser's.

extension DaemonConfig.ValueParser where Value == Int {
    /// A whole number in `range`.
    static func integer(_ range: ClosedRange<Int>) -> Self {
        Self("must be \(range.lowerBound)–\(range.upperBound)") { Int($0).flatMap { range.contains($0) ? $0 : nil } }
    }

    /// A percentage in `range`, with or without a trailing `%`; `quantity`
    /// says what it measures (`a volume`).
    static func percent(_ range: ClosedRange<Int>, of quantity: String) -> Self {
        Self("must be \(quantity) of \(range.lowerBound)–\(range.upperBound) (%)") { text in
            Int(text.hasSuffix("%") ? String(text.dropLast()) : text).flatMap { range.contains($0) ? $0 : nil }
        }
    }

    /// A duration as ``DurationParser`` reads it (`90s`, `5m`, `1h30m`), in
    /// whole seconds within `range`; `example` is shown in the requirement. A
    /// range from 0 also takes `0`, which ``DurationParser`` refuses. `off`
    /// lists the words that mean 0 when the range starts above it, the one
    /// the requirement shows first (`["off", "0"]`: `off (or 0)`; `["0"]`:
    /// `0 (off)`).
    static func duration(_ range: ClosedRange<Int>, like example: String, off: [String] = []) -> Self {
        let span = "from \(durationText(range.lowerBound)) to \(durationText(range.upperBound)), like \(example)"
        let requirement: String
        let zeros: [String]
        if range.lowerBound == 0 {
            requirement = "must be 0 or a duration up to \(durationText(range.upperBound)), like \(example)"
            zeros = ["0"]
        } else if let first = off.first {
            let spelling = off.count == 1 ? "\(first) (off)" : "\(first) (or \(off.dropFirst().joined(separator: ", ")))"
            requirement = "must be \(spelling) or a duration " + span
            zeros = off
        } else {
            requirement = "must be a duration " + span
            zeros = []
        }
        return Self(requirement) { text in
            if zeros.contains(text) { return 0 }
            guard let seconds = try? DurationParser.parse(text), range.contains(Int(seconds)) else { return nil }
            return Int(seconds)
        }
    }

    /// A size written as a count of KiB with a `K`, `range` in KiB; read in bytes.
    static func kibibytes(_ range: ClosedRange<Int>, like example: String) -> Self {
        Self("must be a size in KiB from \(range.lowerBound)K to \(range.upperBound)K, like \(example)") { text in
            guard text.hasSuffix("K"), let count = Int(text.dropLast()), range.contains(count) else { return nil }
            return count << 10
        }
    }

    /// A size written as a count of KiB (`K`) or MiB (`M`), `range` in bytes;
    /// read in bytes.
    static func size(_ range: ClosedRange<Int>, like example: String) -> Self {
        Self("must be a size from \(sizeText(range.lowerBound)) to \(sizeText(range.upperBound)), like \(example)") { text in
            let unit = text.hasSuffix("M") ? 1 << 20 : text.hasSuffix("K") ? 1 << 10 : 0
            // The count is bounded before multiplying: a huge count must be
            // refused, not overflow.
            guard unit > 0, let count = Int(text.dropLast()), count > 0, count <= range.upperBound / unit, range.contains(count * unit) else { return nil }
            return count * unit
        }
    }
}

extension DaemonConfig.ValueParser where Value == TimeInterval {
    /// ``DaemonConfig/ValueParser/duration(_:like:off:)`` for a key stored as
    /// a `TimeInterval`.
    static func duration(_ range: ClosedRange<Int>, like example: String, off: [String] = []) -> Self {
        DaemonConfig.ValueParser<Int>.duration(range, like: example, off: off).map { TimeInterval($0) }
    }
}

extension DaemonConfig.ValueParser where Value == Bool {
    /// A boolean as systemd's unit files write it: yes/no, true/false, on/off,
    /// 1/0, in any case.
    static var boolean: Self {
        Self("must be yes or no") { text in
            switch text.lowercased() {
            case "yes", "true", "on", "1": true
            case "no", "false", "off", "0": false
            default: nil
            }
        }
    }
}

extension DaemonConfig.ValueParser where Value == [Int] {
    /// Up to `limit` different minute counts in `range`, comma-separated, in
    /// any order and with repeats; read ascending without them. Empty: none.
    /// `what` names them in the requirement (`snooze lengths`).
    static func minuteList(_ range: ClosedRange<Int>, atMost limit: Int, of what: String, like example: String) -> Self {
        Self("must be up to \(limit) \(what) in minutes (\(range.lowerBound)–\(range.upperBound)), comma-separated, like \(example), or empty for none") { text in
            if text.isEmpty { return [] }
            // The file's value is trimmed already; the words between commas are trimmed here.
            let words = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            let minutes = words.compactMap { Int($0) }.filter(range.contains)
            guard minutes.count == words.count, Set(minutes).count <= limit else { return nil }
            return Array(Set(minutes)).sorted()
        }
    }
}

extension DaemonConfig.ValueParser where Value == [String] {
    /// A command line run without a shell, split by ``ArgumentVector``; its
    /// program an absolute path or a name looked up on PATH. Empty: none.
    static var commandLine: Self {
        Self(refusing: { (text: String) throws(DaemonConfig.Refusal) -> [String] in
            let argv: [String]
            do throws(ArgumentVector.UnbalancedQuote) { argv = try ArgumentVector.split(text) } catch {
                // Trailing white space is trimmed from every value, so `a\ ` arrives as `a\`.
                throw DaemonConfig.Refusal(error.trailingEscape ? "must not end in a lone backslash (an escaped trailing space is trimmed; quote it instead)"
                                                                : "must be a command line with balanced quotes")
            }
            guard !argv.joined().unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw DaemonConfig.Refusal("must not contain control characters")
            }
            if let program = argv.first, !program.hasPrefix("/"), program.contains("/") {
                throw DaemonConfig.Refusal("must name a program on PATH or by absolute path")
            }
            return argv
        })
    }

    /// Up to `limit` absolute paths (`~/` for the home directory) of `what`
    /// (`iCalendar files`), separated by spaces and quoted as
    /// ``commandLine`` quotes. Empty: none.
    static func paths(atMost limit: Int, of what: String) -> Self {
        Self("must be up to \(limit) absolute paths of \(what) (~/ for the home directory), separated by spaces, quoted if they contain one") { text in
            guard let paths = try? ArgumentVector.split(text), paths.allSatisfy(isAbsolutePath), paths.count <= limit else { return nil }
            return paths
        }
    }
}

extension DaemonConfig.ValueParser where Value == String {
    /// An absolute path (`~/` for the home directory), or empty.
    static var path: Self {
        Self("must be an absolute path (~/ for the home directory)") { $0.isEmpty || isAbsolutePath($0) ? $0 : nil }
    }

    /// A sound theme's directory name, spelled as a sound-theme name.
    static var themeName: Self {
        Self("must be a theme directory name") { text in
            guard case .themed(let theme)? = try? Sound.parse(text) else { return nil }
            return theme
        }
    }

    /// A user name for HTTP authentication: Basic puts a colon after it, so
    /// it has none; at most 256 bytes. Empty: none.
    static var userName: Self {
        Self("must be a user name without a colon") { $0.utf8.count <= 256 && !$0.contains(":") ? $0 : nil }
    }

    /// A CalDAV collection's `http://` or `https://` address, read ending in
    /// `/` (the items' addresses go after it), or empty. The part before the
    /// path must not carry a user (or a password): `User=` and
    /// `PasswordFile=` say who, and only those are kept out of logs.
    static var collectionURL: Self {
        Self("must be the http:// or https:// address of a collection on a CalDAV server, without a user name in it (User= and PasswordFile= say who)") { text in
            if text.isEmpty { return text }
            let authority = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).first ?? ""
            guard text.hasPrefix("https://") || text.hasPrefix("http://"), text.utf8.count <= 2048, !text.contains(where: \.isWhitespace),
                  !authority.isEmpty, !authority.contains("@") else { return nil }
            return text.hasSuffix("/") ? text : text + "/"
        }
    }
}

extension DaemonConfig.ValueParser where Value == Sound {
    /// A freedesktop sound-theme name, an absolute file path, or `none`, as
    /// ``Sound/parse(_:field:)`` reads them.
    static var sound: Self {
        Self("must be a sound-theme name, an absolute path, or none") { try? Sound.parse($0) }
    }
}

extension DaemonConfig.ValueParser where Value == TimeOfDay {
    /// A local time of day as ``TimeOfDay/parse(_:field:)`` reads it.
    static func timeOfDay(like example: String) -> Self {
        Self("must be a time of day, like \(example)") { try? TimeOfDay.parse($0) }
    }
}

/// `/…` or `~/…`.
private func isAbsolutePath(_ path: String) -> Bool { path.hasPrefix("/") || path.hasPrefix("~/") }

/// Whole seconds in the largest unit that divides them: `90s`, `5m`, `1h`, `1d`.
private func durationText(_ seconds: Int) -> String {
    for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60)] where seconds >= size && seconds % size == 0 {
        return "\(seconds / size)\(unit)"
    }
    return "\(seconds)s"
}

/// Bytes in MiB where they are whole MiB, else in KiB: `64K`, `1024M`.
private func sizeText(_ bytes: Int) -> String {
    bytes % (1 << 20) == 0 ? "\(bytes >> 20)M" : "\(bytes >> 10)K"
}

// SPDX-License-Identifier: Apache-2.0
/// An `http` or `https` URL, read as RFC 3986 reads it, reduced to what a
/// request needs: scheme, host, port, path and query. A server's href is
/// resolved against the collection's URL (``resolve(_:)``, RFC 3986 §5.2)
/// and a request is made only when the result is on the same origin
/// (``member(_:)``), so that the user name and password never go to a host,
/// port or scheme other than the configured one.
///
/// What is refused rather than guessed at: a user name in the authority
/// (`http://a@b/` would send to `b`), any scheme but http and https, a host
/// with anything but letters, digits, `-`, `.` and `_` (or an IPv6 literal
/// of hex digits, `:` and `.`), a port outside 1…65535, control characters,
/// a malformed percent escape, an empty reference (it would name the
/// collection itself) and references longer than ``maxLength``.
/// Percent escapes are kept as written; other bytes a URL may not hold
/// (space, `"`, `<`, non-ASCII…) are percent-encoded.
package struct CalDAVURL: Hashable, Sendable, CustomStringConvertible {
    package enum Scheme: String, Sendable {
        case http, https
        var defaultPort: Int { self == .http ? 80 : 443 }
    }

    package let scheme: Scheme
    /// Lower case; an IPv6 literal keeps its brackets (`[::1]`).
    package let host: String
    /// The port requests go to, the scheme's default when none was written.
    package let port: Int
    /// Percent-encoded as written, dot segments removed; starts with `/`.
    package let path: String
    /// After `?`, as written; `nil` when there is no `?`.
    package let query: String?

    /// The longest reference read, in bytes.
    package static let maxLength = 8 << 10

    /// Why a reference is not used.
    package struct Refusal: Error, Equatable, CustomStringConvertible {
        package enum Reason: Equatable, Sendable {
            case empty, tooLong, controlCharacter, badPercentEscape, badScheme, notHTTP, notAbsolute
            case userInfo, noHost, badHost, badPort
            /// Resolved to a URL on another origin (the one it resolved to).
            case otherOrigin(String)
        }

        package let reference: String
        package let reason: Reason

        package var description: String {
            let what = "the href \"\(Self.shown(reference))\""
            switch reason {
            case .empty: return "\(what) is empty"
            case .tooLong: return "\(what) is longer than \(CalDAVURL.maxLength) bytes"
            case .controlCharacter: return "\(what) holds a control character"
            case .badPercentEscape: return "\(what) has a % not followed by two hex digits"
            case .badScheme: return "\(what) has a malformed scheme"
            case .notHTTP: return "\(what) is not an http or https address"
            case .notAbsolute: return "\(what) is not an absolute http or https address"
            case .userInfo: return "\(what) has a user name before its host, which is never used"
            case .noHost: return "\(what) has no host"
            case .badHost: return "\(what) has a malformed host"
            case .badPort: return "\(what) has a port that is not a number from 1 to 65535"
            case .otherOrigin(let origin): return "\(what) is on \(Self.shown(origin)), not on the collection's server"
            }
        }

        /// At most 200 characters, control characters as `?`: text from a
        /// server, bound for a log line.
        static func shown(_ text: String) -> String {
            let scalars = text.unicodeScalars
            let cleaned = String(String.UnicodeScalarView(scalars.prefix(200).map { $0.properties.generalCategory == .control ? "?" : $0 }))
            return scalars.count > 200 ? cleaned + "…" : cleaned
        }
    }

    /// `scheme://host[:port]`, the port left out when it is the scheme's default.
    package var origin: String {
        port == scheme.defaultPort ? "\(scheme.rawValue)://\(host)" : "\(scheme.rawValue)://\(host):\(port)"
    }

    /// The path and query, as they go on a request line.
    package var target: String { query.map { path + "?" + $0 } ?? path }

    package var description: String { origin + target }

    /// Whether `other` has the same scheme, host and port.
    package func isSameOrigin(_ other: CalDAVURL) -> Bool {
        scheme == other.scheme && host == other.host && port == other.port
    }

    /// An absolute `http` or `https` URL (a fragment is dropped).
    package init(_ text: String) throws(Refusal) {
        let reference = try Reference(text)
        guard let scheme = reference.scheme, let authority = reference.authority else {
            throw Refusal(reference: text, reason: reference.scheme == nil ? .notAbsolute : .noHost)
        }
        let (host, port) = try Self.authority(authority, scheme: scheme, text)
        self.init(scheme: scheme, host: host, port: port, path: Self.removingDotSegments(reference.path), query: reference.query)
    }

    private init(scheme: Scheme, host: String, port: Int, path: String, query: String?) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.path = path.isEmpty ? "/" : path
        self.query = query
    }

    /// `reference` resolved against this URL (RFC 3986 §5.2.2, strict): an
    /// absolute URL stands alone, `//host/path` takes this scheme, an
    /// absolute path this origin, a relative path goes after this path's
    /// last `/`, and an empty one is this URL. Dot segments are removed.
    package func resolve(_ reference: String) throws(Refusal) -> CalDAVURL {
        let parsed = try Reference(reference)
        if let authority = parsed.authority {
            let scheme = parsed.scheme ?? self.scheme
            let (host, port) = try Self.authority(authority, scheme: scheme, reference)
            return CalDAVURL(scheme: scheme, host: host, port: port, path: Self.removingDotSegments(parsed.path), query: parsed.query)
        }
        guard parsed.scheme == nil else { throw Refusal(reference: reference, reason: .noHost) }
        if parsed.path.isEmpty {
            return CalDAVURL(scheme: scheme, host: host, port: port, path: path, query: parsed.query ?? query)
        }
        let merged = parsed.path.hasPrefix("/") ? parsed.path : path[...(path.lastIndex(of: "/") ?? path.startIndex)] + parsed.path
        return CalDAVURL(scheme: scheme, host: host, port: port, path: Self.removingDotSegments(String(merged)), query: parsed.query)
    }

    /// `reference` resolved against this URL, refused unless it is on this
    /// URL's origin: what a request may be made to with this URL's credentials.
    package func member(_ reference: String) throws(Refusal) -> CalDAVURL {
        let resolved = try resolve(reference)
        guard isSameOrigin(resolved) else { throw Refusal(reference: reference, reason: .otherOrigin(resolved.origin)) }
        return resolved
    }

    // MARK: - Reading

    /// RFC 3986 Appendix B's split of a reference, after its bytes are checked
    /// and those a URL may not hold are percent-encoded.
    private struct Reference {
        var scheme: Scheme?
        var authority: String?
        var path: String
        var query: String?

        init(_ text: String) throws(Refusal) {
            guard !text.isEmpty else { throw Refusal(reference: text, reason: .empty) }
            guard text.utf8.count <= CalDAVURL.maxLength else { throw Refusal(reference: text, reason: .tooLong) }
            let bytes = try CalDAVURL.encoded(text)
            var rest = bytes[...]
            // A scheme is what comes before the first ':' when no '/', '?' or
            // '#' comes earlier.
            if let colon = rest.firstIndex(where: { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
               rest[colon] == UInt8(ascii: ":") {
                let name = rest[..<colon]
                guard let first = name.first, Self.isAlpha(first),
                      name.allSatisfy({ Self.isAlpha($0) || Self.isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
                    throw Refusal(reference: text, reason: .badScheme)
                }
                guard let scheme = Scheme(rawValue: String(decoding: name, as: UTF8.self).lowercased()) else {
                    throw Refusal(reference: text, reason: .notHTTP)
                }
                self.scheme = scheme
                rest = rest[(colon + 1)...]
            }
            if let hash = rest.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
            if rest.starts(with: "//".utf8) {
                rest = rest.dropFirst(2)
                let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
                authority = String(decoding: rest[..<end], as: UTF8.self)
                rest = rest[end...]
            }
            if let mark = rest.firstIndex(of: UInt8(ascii: "?")) {
                query = String(decoding: rest[(mark + 1)...], as: UTF8.self)
                rest = rest[..<mark]
            }
            path = String(decoding: rest, as: UTF8.self)
        }

        static func isAlpha(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    }

    /// The bytes of `text` with control characters refused, percent escapes
    /// checked, and every byte RFC 3986 does not allow in a URL encoded.
    private static func encoded(_ text: String) throws(Refusal) -> [UInt8] {
        let allowed = Array("-._~:/?#[]@!$&'()*+,;=".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count)
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F { throw Refusal(reference: text, reason: .controlCharacter) }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else {
                    throw Refusal(reference: text, reason: .badPercentEscape)
                }
                result.append(contentsOf: bytes[index...(index + 2)])
                index += 3
                continue
            }
            if Reference.isAlpha(byte) || Reference.isDigit(byte) || allowed.contains(byte) {
                result.append(byte)
            } else {
                let digits = Array("0123456789ABCDEF".utf8)
                result += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
            index += 1
        }
        return result
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        Reference.isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// The host (lower case) and port of an authority; a user name, an empty
    /// or malformed host and a malformed port are refused.
    private static func authority(_ authority: String, scheme: Scheme, _ reference: String) throws(Refusal) -> (host: String, port: Int) {
        guard !authority.contains("@") else { throw Refusal(reference: reference, reason: .userInfo) }
        var host: Substring
        var afterHost: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw Refusal(reference: reference, reason: .badHost) }
            host = authority[...close]
            afterHost = authority[authority.index(after: close)...]
            let inside = host.dropFirst().dropLast()
            guard inside.contains(":"), inside.unicodeScalars.allSatisfy({ $0 == ":" || $0 == "." || $0.properties.isASCIIHexDigit }) else {
                throw Refusal(reference: reference, reason: .badHost)
            }
        } else {
            let colon = authority.firstIndex(of: ":") ?? authority.endIndex
            host = authority[..<colon]
            afterHost = authority[colon...]
            guard host.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "." || $0 == "_") }) else {
                throw Refusal(reference: reference, reason: .badHost)
            }
        }
        guard !host.isEmpty else { throw Refusal(reference: reference, reason: .noHost) }
        var port = scheme.defaultPort
        if !afterHost.isEmpty {
            guard afterHost.first == ":" else { throw Refusal(reference: reference, reason: .badHost) }
            let digits = afterHost.dropFirst()
            if !digits.isEmpty {
                guard digits.count <= 16, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }), let number = Int(digits), (1...65535).contains(number) else {
                    throw Refusal(reference: reference, reason: .badPort)
                }
                port = number
            }
        }
        return (host.lowercased(), port)
    }

    /// RFC 3986 §5.2.4: `.` and `..` segments taken out of `path`.
    private static func removingDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        // The output as segments, each with the '/' before it.
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }
}

// SPDX-License-Identifier: Apache-2.0
/// Why bytes are not a JSON value, with the byte offset where that became clear.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public let offset: Int
    public let reason: String
    public var description: String { "\(reason) at byte \(offset)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes: no comments, no trailing commas,
/// no duplicate keys, valid UTF-8 only, nesting bounded so hostile input cannot
/// exhaust the stack.
public struct JSONParser {
    public static let maxDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses exactly one value, with only whitespace around it.
    public static func parse<C: Collection<UInt8>>(_ input: C) throws(JSONError) -> JSONValue {
        let array = Array(input)
        let result: Result<JSONValue, JSONError> = array.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            do throws(JSONError) {
                parser.skipWhitespace()
                let value = try parser.value()
                parser.skipWhitespace()
                guard parser.index == buffer.count else { throw parser.error("unexpected data after the value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    public static func parse(_ text: String) throws(JSONError) -> JSONValue { try parse(Array(text.utf8)) }

    private func error(_ reason: String) -> JSONError { JSONError(offset: index, reason: reason) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func expect(_ literal: StaticString, _ value: JSONValue) throws(JSONError) -> JSONValue {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw error("invalid literal")
        }
        index += count
        return value
    }

    private mutating func value() throws(JSONError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("unexpected character")
        }
    }

    private mutating func nest() throws(JSONError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nested deeper than \(Self.maxDepth) levels") }
    }

    private mutating func object() throws(JSONError) -> JSONValue {
        try nest()
        defer { depth -= 1 }
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(object) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyOffset = index
            let key = try string()
            guard object[key] == nil else { throw JSONError(offset: keyOffset, reason: "duplicate key \"\(key)\"") }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            object[key] = try value()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(object)
            default: throw error("expected ',' or '}'")
            }
        }
    }

    private mutating func array() throws(JSONError) -> JSONValue {
        try nest()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try value())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw error("expected ',' or ']'")
            }
        }
    }

    private mutating func number() throws(JSONError) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first >= 0x30, first <= 0x39 else { throw error("expected a digit") }
        if first == 0x30 { index += 1 } else { skipDigits() }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let digit = current, digit >= 0x30, digit <= 0x39 else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, digit >= 0x30, digit <= 0x39 else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else { throw JSONError(offset: start, reason: "number out of range") }
        return .number(number)
    }

    private mutating func skipDigits() {
        while let byte = current, byte >= 0x30, byte <= 0x39 { index += 1 }
    }

    private mutating func string() throws(JSONError) -> String {
        index += 1
        // Most strings have no escapes: check the bytes (control characters,
        // UTF-8) and take them as they are, with no per-character appends.
        let start = index
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            case UInt8(ascii: "\\"):
                let prefix = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                return try escapedString(after: prefix)
            case 0..<0x20:
                throw error("control character in a string")
            case 0..<0x80:
                index += 1
            default:
                _ = try multibyte()
            }
        }
        throw error("unterminated string")
    }

    /// The rest of a string that has escapes, `prefix` being what came before
    /// the first one.
    private mutating func escapedString(after prefix: String) throws(JSONError) -> String {
        var scalars = prefix.unicodeScalars
        while true {
            guard let byte = current else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                index += 1
                scalars.append(try escape())
            case 0..<0x20:
                throw error("control character in a string")
            case 0..<0x80:
                scalars.append(Unicode.Scalar(byte))
                index += 1
            default:
                scalars.append(try multibyte())
            }
        }
    }

    private mutating func escape() throws(JSONError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800..<0xDC00).contains(high) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("unpaired surrogate")
                }
                index += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired surrogate") }
            return scalar
        default:
            throw error("invalid escape")
        }
    }

    private mutating func hex4() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// Decodes one UTF-8 sequence, rejecting overlong forms, surrogates and
    /// truncation: invalid UTF-8 is an error, never replaced silently.
    private mutating func multibyte() throws(JSONError) -> Unicode.Scalar {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: throw error("invalid UTF-8")
        }
        guard index + length <= bytes.count else { throw error("invalid UTF-8") }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { throw error("invalid UTF-8") }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, value <= 0x10FFFF, let scalar = Unicode.Scalar(value) else { throw error("invalid UTF-8") }
        index += length
        return scalar
    }
}

// SPDX-License-Identifier: Apache-2.0
extension JSONValue {
    /// Compact JSON text, members in order.
    public var jsonText: String { String(decoding: jsonBytes, as: UTF8.self) }

    /// Compact JSON as UTF-8 bytes, members in order: what goes on the wire.
    /// Written byte by byte, not through a `String`: appending to a `String`
    /// a scalar at a time was most of the cost of a small reply.
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value):
            let text = value.rounded() == value && abs(value) <= 9_007_199_254_740_992 ? String(Int64(value)) : "\(value)"
            out.append(contentsOf: text.utf8)
        case .string(let value): JSONValue.writeString(value, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (index, member) in object.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\r`,
    /// `\t` or `\u00XX`; everything else, non-ASCII included, as its UTF-8 bytes.
    static func writeString(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            // Most strings need no escape: copy them whole.
            guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                out.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): out.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): out.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): out.append(contentsOf: #"\t"#.utf8)
                case ..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: #"\u00"#.utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

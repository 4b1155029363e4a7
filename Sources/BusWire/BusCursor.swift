// SPDX-License-Identifier: Apache-2.0
import SystemCalls

/// Reads D-Bus values from received bytes in one pass: each read checks its
/// alignment padding and its length against the end first, so a hostile or
/// broken message fails with ``SystemError`` (`EBADMSG`), never a read out of
/// bounds, and no length in it makes the reader hold or loop more than the
/// bytes there are.
struct BusCursor {
    let bytes: [UInt8]
    let bigEndian: Bool
    var offset: Int
    /// Where the values end (the header's fields end before the body).
    var end: Int

    init(_ bytes: [UInt8], bigEndian: Bool, offset: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.bigEndian = bigEndian
        self.offset = offset
        self.end = end ?? bytes.count
    }

    var remaining: Int { end - offset }

    /// Skips the padding to `alignment` (counted from the start of `bytes`),
    /// which must be zeros.
    mutating func align(_ alignment: Int) throws(SystemError) {
        let aligned = (offset + alignment - 1) / alignment * alignment
        guard aligned <= end else { throw BusMessage.malformed("ends inside padding") }
        guard bytes[offset..<aligned].allSatisfy({ $0 == 0 }) else { throw BusMessage.malformed("non-zero padding at \(offset)") }
        offset = aligned
    }

    mutating func fixed<Value: FixedWidthInteger>(_: Value.Type) throws(SystemError) -> Value {
        let size = MemoryLayout<Value>.size
        try align(size)
        guard size <= remaining else { throw BusMessage.malformed("ends inside a \(size)-byte value") }
        var value = Value.zero
        withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<offset + size]) }
        offset += size
        return bigEndian ? Value(bigEndian: value) : Value(littleEndian: value)
    }

    /// A string or object path (4-byte length), or with `lengthBytes` 1 a
    /// signature: the bytes, which must end in the one NUL they hold.
    mutating func text(lengthBytes: Int = 4) throws(SystemError) -> [UInt8] {
        let length = lengthBytes == 1 ? Int(try fixed(UInt8.self)) : Int(try fixed(UInt32.self))
        guard length < remaining else { throw BusMessage.malformed("a string of \(length) bytes overruns the message") }
        let value = bytes[offset..<offset + length]
        guard bytes[offset + length] == 0, !value.contains(0) else { throw BusMessage.malformed("a string not ended by its one NUL") }
        offset += length + 1
        return Array(value)
    }

    mutating func string() throws(SystemError) -> String {
        String(decoding: try text(), as: UTF8.self)
    }

    /// Passes over one value of the complete type that starts at `index` of
    /// `signature` (a header field alarmd does not know may be of any type),
    /// and gives the index after that type. An array is passed over by its
    /// length, without reading its elements; nesting is bounded.
    mutating func skip(_ signature: [UInt8], at index: Int, depth: Int = 0) throws(SystemError) -> Int {
        guard depth <= 2 * BusMessage.maximumDepth, index < signature.count else { throw BusMessage.malformed("a signature that ends inside a type, or nests too deep") }
        switch signature[index] {
        case UInt8(ascii: "y"): _ = try fixed(UInt8.self)
        case UInt8(ascii: "n"), UInt8(ascii: "q"): _ = try fixed(UInt16.self)
        case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"): _ = try fixed(UInt32.self)
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): _ = try fixed(UInt64.self)
        case UInt8(ascii: "s"), UInt8(ascii: "o"): _ = try text()
        case UInt8(ascii: "g"): _ = try text(lengthBytes: 1)
        case UInt8(ascii: "v"):
            let held = try text(lengthBytes: 1)
            guard try skip(held, at: 0, depth: depth + 1) == held.count else { throw BusMessage.malformed("a variant of more than one type") }
        case UInt8(ascii: "a"):
            let length = Int(try fixed(UInt32.self))
            let element = index + 1
            let end = try Self.typeEnd(signature, at: element, depth: depth + 1)
            try align(BusMessage.alignment(of: signature[element]))
            guard length <= remaining else { throw BusMessage.malformed("an array of \(length) bytes overruns the message") }
            offset += length
            return end
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close = signature[index] == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            try align(8)
            var next = index + 1
            while next < signature.count, signature[next] != close { next = try skip(signature, at: next, depth: depth + 1) }
            guard next < signature.count, next > index + 1 else { throw BusMessage.malformed("an empty or unclosed structure") }
            return next + 1
        default:
            throw BusMessage.malformed("type code \(signature[index])")
        }
        return index + 1
    }

    /// The index after the complete type that starts at `index`, read from
    /// the signature alone.
    static func typeEnd(_ signature: [UInt8], at index: Int, depth: Int) throws(SystemError) -> Int {
        guard depth <= 2 * BusMessage.maximumDepth, index < signature.count else { throw BusMessage.malformed("a signature that ends inside a type, or nests too deep") }
        switch signature[index] {
        case UInt8(ascii: "a"):
            return try typeEnd(signature, at: index + 1, depth: depth + 1)
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            let close = signature[index] == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
            var next = index + 1
            while next < signature.count, signature[next] != close { next = try typeEnd(signature, at: next, depth: depth + 1) }
            guard next < signature.count, next > index + 1 else { throw BusMessage.malformed("an empty or unclosed structure") }
            return next + 1
        case UInt8(ascii: ")"), UInt8(ascii: "}"):
            throw BusMessage.malformed("a structure closed that was not opened")
        default:
            return index + 1
        }
    }

    /// An array of strings (`as`): its length, then strings to exactly there.
    mutating func strings() throws(SystemError) -> [String] {
        let length = Int(try fixed(UInt32.self))
        guard length <= remaining else { throw BusMessage.malformed("an array of \(length) bytes overruns the message") }
        let arrayEnd = offset + length
        var strings: [String] = []
        while offset < arrayEnd {
            strings.append(try string())
            guard offset <= arrayEnd else { throw BusMessage.malformed("an array's last string overruns it") }
        }
        return strings
    }
}

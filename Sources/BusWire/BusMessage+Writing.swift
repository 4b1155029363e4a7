// SPDX-License-Identifier: Apache-2.0
import Glibc
import SystemCalls

/// Appending arguments to a message being built, in the order of the
/// method's signature; containers take a closure that appends their contents.
extension BusMessage {
    public func append(_ value: String) throws(SystemError) { try appendText(UInt8(ascii: "s"), value) }

    public func append(_ value: UInt32) throws(SystemError) { try appendFixed(UInt8(ascii: "u"), value) }

    public func append(_ value: Int32) throws(SystemError) { try appendFixed(UInt8(ascii: "i"), value) }

    public func append(_ value: UInt64) throws(SystemError) { try appendFixed(UInt8(ascii: "t"), value) }

    public func append(byte value: UInt8) throws(SystemError) { try appendFixed(UInt8(ascii: "y"), value) }

    /// D-Bus booleans travel as 32-bit integers.
    public func append(_ value: Bool) throws(SystemError) { try appendFixed(UInt8(ascii: "b"), UInt32(value ? 1 : 0)) }

    /// Appends `contents` inside a container: `a` array (of the one type
    /// `contents`), `e` dictionary entry, `v` variant, `r` structure.
    public func container(_ type: Character, _ contents: String, _ body: () throws(SystemError) -> Void) throws(SystemError) {
        guard depth < Self.maximumDepth, let first = contents.utf8.first else { throw Self.malformed("container \(type)\(contents)") }
        let outermost = depth == 0
        depth += 1
        defer { depth -= 1 }
        switch type {
        case "a":
            if outermost { signature += ("a" + contents).utf8 }
            pad(to: 4)
            let lengthAt = self.body.count
            self.body += [0, 0, 0, 0]
            pad(to: Self.alignment(of: first))
            let start = self.body.count
            try body()
            let length = UInt32(self.body.count - start)
            withUnsafeBytes(of: length.littleEndian) { self.body.replaceSubrange(lengthAt..<lengthAt + 4, with: $0) }
        case "r", "e":
            if outermost { signature += (type == "r" ? "(" + contents + ")" : "{" + contents + "}").utf8 }
            pad(to: 8)
            try body()
        case "v":
            if outermost { signature.append(UInt8(ascii: "v")) }
            try appendRawText(Array(contents.utf8), lengthBytes: 1)
            try body()
        default:
            throw Self.malformed("container \(type)\(contents)")
        }
        guard self.body.count <= Self.maximumLength else { throw Self.malformed("longer than \(Self.maximumLength) bytes") }
    }

    /// A dictionary entry `{sv}` whose variant holds `signature` written by `value`.
    public func hint(_ key: String, _ signature: String, _ value: () throws(SystemError) -> Void) throws(SystemError) {
        try container("e", "sv") { () throws(SystemError) in
            try append(key)
            try container("v", signature, value)
        }
    }

    /// A unit property `(sv)`, as `StartTransientUnit` takes them: `name`
    /// and a variant holding `signature` written by `value`.
    public func property(_ name: String, _ signature: String, _ value: () throws(SystemError) -> Void) throws(SystemError) {
        try container("r", "sv") { () throws(SystemError) in
            try append(name)
            try container("v", signature, value)
        }
    }

    /// A value of the outermost level goes into the signature; one inside a
    /// container is part of the container's.
    private func note(_ code: UInt8) {
        if depth == 0 { signature.append(code) }
    }

    func pad(to alignment: Int) {
        while body.count % alignment != 0 { body.append(0) }
    }

    private func appendFixed<Value: FixedWidthInteger>(_ code: UInt8, _ value: Value) throws(SystemError) {
        note(code)
        pad(to: MemoryLayout<Value>.size)
        withUnsafeBytes(of: value.littleEndian) { body += $0 }
    }

    /// A string (`s`), object path (`o`) or signature (`g`).
    private func appendText(_ code: UInt8, _ value: String) throws(SystemError) {
        note(code)
        try appendRawText(Array(value.utf8), lengthBytes: code == UInt8(ascii: "g") ? 1 : 4)
    }

    /// The length (4 bytes, aligned, or 1 for a signature), the bytes and a NUL.
    private func appendRawText(_ bytes: [UInt8], lengthBytes: Int) throws(SystemError) {
        guard !bytes.contains(0) else { throw Self.malformed("a string holds a NUL byte") }
        guard body.count + bytes.count < Self.maximumLength, lengthBytes == 4 || bytes.count <= 255 else {
            throw Self.malformed("a string of \(bytes.count) bytes is too long")
        }
        if lengthBytes == 4 {
            pad(to: 4)
            withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { body += $0 }
        } else {
            body.append(UInt8(bytes.count))
        }
        body += bytes
        body.append(0)
    }
}

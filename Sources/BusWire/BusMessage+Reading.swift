// SPDX-License-Identifier: Apache-2.0
import Glibc
import SystemCalls

/// Reading a received message's arguments in order, each checked against
/// the body's signature (or, with `inVariant`, against the signature of the
/// variant that holds it, as `org.freedesktop.DBus.Properties.Get` answers).
extension BusMessage {
    /// A string-like value: `s` (string), `o` (object path) or `g` (signature).
    public func readString(type: Character = "s", inVariant: Bool = false) throws(SystemError) -> String {
        let code = type.asciiValue ?? 0
        return try reading([code], inVariant: inVariant) { (cursor: inout BusCursor) throws(SystemError) in
            String(decoding: try cursor.text(lengthBytes: code == UInt8(ascii: "g") ? 1 : 4), as: UTF8.self)
        }
    }

    /// An array of strings (`as`).
    public func readStringArray(inVariant: Bool = false) throws(SystemError) -> [String] {
        try reading(Array("as".utf8), inVariant: inVariant) { (cursor: inout BusCursor) throws(SystemError) in try cursor.strings() }
    }

    public func readUInt32() throws(SystemError) -> UInt32 {
        try reading([UInt8(ascii: "u")], inVariant: false) { (cursor: inout BusCursor) throws(SystemError) in try cursor.fixed(UInt32.self) }
    }

    public func readBool(inVariant: Bool = false) throws(SystemError) -> Bool {
        try reading([UInt8(ascii: "b")], inVariant: inVariant) { (cursor: inout BusCursor) throws(SystemError) in
            try cursor.fixed(UInt32.self) != 0
        }
    }

    /// A file descriptor (`h`), as a duplicate of one's own (close-on-exec):
    /// the message's copy closes with the message.
    public func readFileDescriptor() throws(SystemError) -> FileDescriptor {
        let count = fileDescriptors.count
        let index = try reading([UInt8(ascii: "h")], inVariant: false) { (cursor: inout BusCursor) throws(SystemError) in
            let index = Int(try cursor.fixed(UInt32.self))
            guard index < count else { throw Self.malformed("descriptor \(index) of \(count) sent") }
            return index
        }
        return FileDescriptor(try systemCall("fcntl(F_DUPFD_CLOEXEC)") { fcntl(fileDescriptors[index].rawValue, F_DUPFD_CLOEXEC, 3) })
    }

    /// The first argument when it is a string: a match rule's `arg0`, an error's text.
    public var firstString: String? {
        guard signature.first == UInt8(ascii: "s") else { return nil }
        var cursor = BusCursor(body, bigEndian: bigEndian)
        return try? cursor.string()
    }

    /// Checks that the next value is of type `contents` (in a variant
    /// holding one, with `inVariant`), then reads it with `read`.
    private func reading<Value>(_ contents: [UInt8], inVariant: Bool,
                                _ read: (inout BusCursor) throws(SystemError) -> Value) throws(SystemError) -> Value {
        let expected = inVariant ? [UInt8(ascii: "v")] : contents
        guard signature.count - signatureOffset >= expected.count,
              signature[signatureOffset..<signatureOffset + expected.count].elementsEqual(expected) else {
            throw Self.malformed("expected \(String(decoding: expected, as: UTF8.self)) at argument \(signatureOffset), the body is \(signatureText)")
        }
        var cursor = BusCursor(body, bigEndian: bigEndian, offset: bodyOffset)
        if inVariant {
            let held = try cursor.text(lengthBytes: 1)
            guard held == contents else {
                throw Self.malformed("a variant holds \(String(decoding: held, as: UTF8.self)), not \(String(decoding: contents, as: UTF8.self))")
            }
        }
        let value = try read(&cursor)
        bodyOffset = cursor.offset
        signatureOffset += expected.count
        return value
    }
}

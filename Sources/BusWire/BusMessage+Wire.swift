// SPDX-License-Identifier: Apache-2.0
import SystemCalls

/// A message as bytes on the connection: the fixed header (byte order,
/// kind, flags, version, body length, serial), the header fields as an
/// array of `(yv)`, padding to 8, the body.
extension BusMessage {
    /// The bytes to send, numbered `serial`.
    public func encoded(serial: UInt32) throws(SystemError) -> [UInt8] {
        self.serial = serial
        var out: [UInt8] = [UInt8(ascii: "l"), kind.rawValue, flags, 1]
        appendUInt32(UInt32(body.count), to: &out)
        appendUInt32(serial, to: &out)
        appendUInt32(0, to: &out)
        let fieldsStart = out.count
        func field(_ field: Field, _ type: UInt8, _ value: [UInt8]) {
            padZeros(&out, to: 8)
            out += [field.rawValue, 1, type, 0]
            if type == UInt8(ascii: "g") {
                out.append(UInt8(value.count))
            } else {
                padZeros(&out, to: 4)
                appendUInt32(UInt32(value.count), to: &out)
            }
            out += value
            out.append(0)
        }
        for (name, value, type) in [(Field.path, path, UInt8(ascii: "o")), (.interface, interface, UInt8(ascii: "s")),
                                    (.member, member, UInt8(ascii: "s")), (.errorName, errorName, UInt8(ascii: "s")),
                                    (.destination, destination, UInt8(ascii: "s"))] {
            guard let value else { continue }
            let bytes = Array(value.utf8)
            // Bus, interface, member and error names are at most 255 bytes; a path has no limit of its own.
            guard !bytes.contains(0), name == .path || bytes.count <= 255 else { throw Self.malformed("header field \(name) \(value)") }
            field(name, type, bytes)
        }
        if let replySerial {
            padZeros(&out, to: 8)
            out += [Field.replySerial.rawValue, 1, UInt8(ascii: "u"), 0]
            appendUInt32(replySerial, to: &out)
        }
        guard signature.count <= 255 else { throw Self.malformed("a body of \(signature.count) arguments: a signature holds 255 at most") }
        if !signature.isEmpty { field(.signature, UInt8(ascii: "g"), signature) }
        let fieldsLength = UInt32(out.count - fieldsStart)
        withUnsafeBytes(of: fieldsLength.littleEndian) { out.replaceSubrange(12..<16, with: $0) }
        padZeros(&out, to: 8)
        out += body
        guard out.count <= Self.maximumLength else { throw Self.malformed("longer than \(Self.maximumLength) bytes") }
        return out
    }

    /// An error reply to `call` (a method call alarmd does not serve).
    public static func errorReply(to call: BusMessage, name: String, text: String) -> BusMessage {
        let reply = BusMessage(kind: .error)
        reply.errorName = name
        reply.replySerial = call.serial
        reply.destination = call.sender
        reply.flags = noReplyExpected
        try? reply.append(text)
        return reply
    }

    /// How long the message is whose first 16 bytes `header` holds (the
    /// body's and the fields' lengths), before any of it is taken: a stream
    /// that does not start a message here cannot be read on.
    public static func frameLength(_ header: ArraySlice<UInt8>) throws(SystemError) -> Int {
        guard header.count >= 16 else { throw malformed("a header of \(header.count) bytes") }
        let order = header[header.startIndex]
        guard order == UInt8(ascii: "l") || order == UInt8(ascii: "B"), header[header.startIndex + 3] == 1 else {
            throw malformed("not a version 1 message")
        }
        var cursor = BusCursor(Array(header.prefix(16)), bigEndian: order == UInt8(ascii: "B"), offset: 4)
        let bodyLength = Int(try cursor.fixed(UInt32.self))
        _ = try cursor.fixed(UInt32.self)
        let fieldsLength = Int(try cursor.fixed(UInt32.self))
        return 16 + (fieldsLength + 7) / 8 * 8 + bodyLength
    }

    /// The message `bytes` (exactly one, as framed by ``frameLength(_:)``)
    /// hold. It takes as many of `descriptors`, from the front, as its header
    /// says it carries.
    public static func decode(_ bytes: [UInt8], descriptors: inout [FileDescriptor]) throws(SystemError) -> BusMessage {
        let length = try frameLength(bytes[...])
        guard length == bytes.count, let kind = Kind(rawValue: bytes[1]) else { throw malformed("a message of unknown kind or length") }
        let message = BusMessage(kind: kind)
        message.bigEndian = bytes[0] == UInt8(ascii: "B")
        message.flags = bytes[2]
        var cursor = BusCursor(bytes, bigEndian: message.bigEndian, offset: 8)
        message.serial = try cursor.fixed(UInt32.self)
        let fieldsEnd = 16 + Int(try cursor.fixed(UInt32.self))
        cursor.end = fieldsEnd
        var descriptorCount = 0
        while cursor.offset < fieldsEnd {
            try cursor.align(8)
            let code = try cursor.fixed(UInt8.self)
            let type = try cursor.text(lengthBytes: 1)
            guard type.count == 1 else {
                // A field this reader does not know may be of any one type, and is passed over.
                guard Field(rawValue: code) == nil, try cursor.skip(type, at: 0) == type.count else {
                    throw malformed("header field \(code) of type \(String(decoding: type, as: UTF8.self))")
                }
                continue
            }
            switch (Field(rawValue: code), type[0]) {
            case (.path?, UInt8(ascii: "o")): message.path = try cursor.string()
            case (.interface?, UInt8(ascii: "s")): message.interface = try cursor.string()
            case (.member?, UInt8(ascii: "s")): message.member = try cursor.string()
            case (.errorName?, UInt8(ascii: "s")): message.errorName = try cursor.string()
            case (.replySerial?, UInt8(ascii: "u")): message.replySerial = try cursor.fixed(UInt32.self)
            case (.destination?, UInt8(ascii: "s")): message.destination = try cursor.string()
            case (.sender?, UInt8(ascii: "s")): message.sender = try cursor.string()
            case (.signature?, UInt8(ascii: "g")): message.signature = try cursor.text(lengthBytes: 1)
            case (.unixFileDescriptors?, UInt8(ascii: "u")): descriptorCount = Int(try cursor.fixed(UInt32.self))
            case (.some(let field), _): throw malformed("header field \(field) of type \(String(decoding: type, as: UTF8.self))")
            case (nil, _): _ = try cursor.skip(type, at: 0)
            }
        }
        let required: Bool = switch kind {
        case .methodCall: message.path != nil && message.member != nil
        case .signal: message.path != nil && message.interface != nil && message.member != nil
        case .error: message.errorName != nil && message.replySerial != nil
        case .methodReturn: message.replySerial != nil
        }
        guard required, message.serial != 0 else { throw malformed("a \(kind) without the header fields it needs") }
        guard descriptorCount <= descriptors.count else { throw malformed("\(descriptorCount) descriptors announced, \(descriptors.count) received") }
        message.fileDescriptors = Array(descriptors.prefix(descriptorCount))
        descriptors.removeFirst(descriptorCount)
        cursor.end = bytes.count
        try cursor.align(8)
        message.body = Array(bytes[cursor.offset...])
        return message
    }

    private func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    private func padZeros(_ out: inout [UInt8], to alignment: Int) {
        while out.count % alignment != 0 { out.append(0) }
    }
}

// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: what alarmd reads from a D-Bus connection (BusFramer,
// BusMessage.decode and the argument readers), as its bus client does, with
// no socket.
//
// The input is the byte stream from the bus, fed to the framer in pieces
// whose sizes the input's own bytes pick. Every message framed is read with
// each reader alarmd uses, in an order its serial picks. Invariants:
//   - the framer never holds more than one message's worth and one piece;
//   - a decoded message has the header fields its kind requires;
//   - every read either returns or throws a typed error; a read that throws
//     takes nothing, so the same read throws again;
//   - no more descriptors are claimed than the stream carried (none here).
@testable import BusWire
import SystemCalls

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var framer = BusFramer()
    var offset = 0
    var messages = 0
    while offset < bytes.count, messages < 64 {
        let piece = 1 + Int(bytes[offset]) * 97 % 4096
        let end = min(bytes.count, offset + piece)
        bytes[offset..<end].withUnsafeBytes { framer.receive($0) }
        offset = end
        check(framer.buffered <= BusMessage.maximumLength + 4096, "the framer holds \(framer.buffered) bytes")
        while messages < 64 {
            let message: BusMessage?
            do throws(SystemError) { message = try framer.next() } catch {
                check(error.code != 0, "an error without a code")
                return 0
            }
            guard let message else { break }
            messages += 1
            read(message)
        }
    }
    return 0
}

func read(_ message: BusMessage) {
    switch message.kind {
    case .methodCall: check(message.path != nil && message.member != nil, "a call without path or member")
    case .signal: check(message.path != nil && message.interface != nil && message.member != nil, "a signal without path, interface or member")
    case .error: check(message.errorName != nil && message.replySerial != nil, "an error without name or reply serial")
    case .methodReturn: check(message.replySerial != nil, "a return without reply serial")
    }
    check(message.fileDescriptors.isEmpty, "descriptors claimed that never came")
    _ = message.firstString
    for step in 0..<12 {
        let reader = (Int(message.serial) + step * 7) % 10
        do throws(SystemError) { try use(reader, message) } catch {
            let (body, signature) = (message.bodyOffset, message.signatureOffset)
            do throws(SystemError) { try use(reader, message) } catch {
                check(message.bodyOffset == body && message.signatureOffset == signature, "a failed read moved the reader")
                continue
            }
            check(false, "a read failed, then succeeded")
        }
    }
}

/// Reads one value the way alarmd's bus client may: reader 0 to 9.
func use(_ reader: Int, _ message: BusMessage) throws(SystemError) {
    switch reader {
    case 0: _ = try message.readString()
    case 1: _ = try message.readString(type: "o")
    case 2: _ = try message.readString(type: "g")
    case 3: _ = try message.readUInt32()
    case 4: _ = try message.readBool()
    case 5: _ = try message.readBool(inVariant: true)
    case 6: _ = try message.readString(inVariant: true)
    case 7: _ = try message.readStringArray()
    case 8: _ = try message.readStringArray(inVariant: true)
    default: _ = try message.readFileDescriptor()
    }
}

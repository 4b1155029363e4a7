// SPDX-License-Identifier: Apache-2.0
@testable import BusWire
import Glibc
import SystemCalls
import Testing

/// D-Bus messages in the wire format: what alarmd writes is the
/// specification's bytes, what it reads back is what was written, and
/// received bytes, however broken or hostile, give a typed error and hold
/// no more than their own length, never a crash.
@Suite struct BusMessageTests {
    /// `AddMatch` with one string, numbered 7, as the specification lays it
    /// out (computed independently: Python's `struct`, field by field).
    static let addMatch = "6c01000112000000070000007f00000001016f00150000002f6f72672f667265656465736b746f702f4442757300000002017300140000006f72672e667265656465736b746f702e444275730000000003017300080000004164644d61746368000000000000000006017300140000006f72672e667265656465736b746f702e444275730000000008016700017300000d000000747970653d277369676e616c2700"

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }

    static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = Substring(hex)
        while !rest.isEmpty {
            bytes.append(UInt8(rest.prefix(2), radix: 16)!)
            rest = rest.dropFirst(2)
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8]) throws(SystemError) -> BusMessage {
        var none: [FileDescriptor] = []
        return try BusMessage.decode(bytes, descriptors: &none)
    }

    @Test func aMethodCallIsTheSpecificationsBytes() throws {
        let message = BusMessage.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "AddMatch")
        try message.append("type='signal'")
        #expect(Self.hex(try message.encoded(serial: 7)) == Self.addMatch)
    }

    @Test func whatIsWrittenReadsBack() throws {
        let message = BusMessage.methodCall(destination: "org.example", path: "/org/example", interface: "org.example.Test", member: "Everything")
        try message.append("第一")
        try message.append(UInt32(0xDEAD_BEEF))
        try message.append(true)
        try message.container("a", "s") { () throws(SystemError) in
            try message.append("snooze")
            try message.append("")
            try message.append("dismiss")
        }
        try message.container("a", "{sv}") { () throws(SystemError) in
            try message.hint("urgency", "y") { () throws(SystemError) in try message.append(byte: 2) }
            try message.hint("resident", "b") { () throws(SystemError) in try message.append(false) }
        }
        try message.property("AccuracyUSec", "t") { () throws(SystemError) in try message.append(UInt64(1_000_000)) }
        try message.container("v", "b") { () throws(SystemError) in try message.append(true) }
        try message.container("v", "as") { () throws(SystemError) in
            try message.container("a", "s") { () throws(SystemError) in try message.append("alarmd.service") }
        }
        #expect(message.signatureText == "subasa{sv}(sv)vv")
        let read = try Self.decode(try message.encoded(serial: 42))
        #expect(read.kind == .methodCall && read.serial == 42 && read.member == "Everything" && read.path == "/org/example")
        #expect(read.interface == "org.example.Test" && read.destination == "org.example" && read.signatureText == "subasa{sv}(sv)vv")
        #expect(try read.readString() == "第一")
        #expect(try read.readUInt32() == 0xDEAD_BEEF)
        #expect(try read.readBool())
        #expect(try read.readStringArray() == ["snooze", "", "dismiss"])
        // A type other than the signature's next is refused, and nothing is taken.
        #expect(throws: SystemError.self) { try read.readString() }
        #expect(read.firstString == "第一")
    }

    @Test func aVariantIsReadOnlyAsTheTypeItHolds() throws {
        let message = BusMessage.methodCall(destination: nil, path: "/", interface: nil, member: "Get")
        try message.container("v", "b") { () throws(SystemError) in try message.append(true) }
        try message.container("v", "as") { () throws(SystemError) in
            try message.container("a", "s") { () throws(SystemError) in try message.append("a.service") }
        }
        let read = try Self.decode(try message.encoded(serial: 1))
        #expect(throws: SystemError.self) { try read.readString(inVariant: true) }
        #expect(try read.readBool(inVariant: true))
        #expect(try read.readStringArray(inVariant: true) == ["a.service"])
    }

    @Test func stringsWithANulAndNestingBeyondTheBoundAreRefusedWhenWritten() throws {
        let message = BusMessage.methodCall(destination: nil, path: "/", interface: nil, member: "M")
        #expect(throws: SystemError.self) { try message.append("a\u{0}b") }
        func nest(_ depth: Int) throws(SystemError) {
            guard depth > 0 else { return try message.append("deep") }
            try message.container("v", "v") { () throws(SystemError) in try nest(depth - 1) }
        }
        #expect(throws: SystemError.self) { try nest(BusMessage.maximumDepth + 1) }
    }

    @Test func everyTruncationOfAMessageIsATypedErrorAndNeverACrash() throws {
        let whole = Self.bytes(Self.addMatch)
        for length in 0..<whole.count {
            #expect(throws: SystemError.self) { try Self.decode(Array(whole.prefix(length))) }
        }
        #expect(try Self.decode(whole).member == "AddMatch")
    }

    @Test func lengthsAndPaddingThatLieAreRefused() throws {
        let whole = Self.bytes(Self.addMatch)
        // The body's string says it is 4 GiB long.
        var long = whole
        long[144..<148] = [0xF0, 0xFF, 0xFF, 0xFF]
        let message = try Self.decode(long)
        #expect(throws: SystemError.self) { try message.readString() }
        // The string's NUL replaced.
        var unterminated = whole
        unterminated[unterminated.count - 1] = UInt8(ascii: "x")
        #expect(throws: SystemError.self) { try Self.decode(unterminated).readString() }
        // Padding that is not zero.
        var padded = whole
        padded[46] = 1
        #expect(throws: SystemError.self) { try Self.decode(padded) }
        // A header field the reader does not know, of a type that is not one whole type.
        var unknown = whole
        unknown[136..<140] = [0x7F, 0x01, UInt8(ascii: "a"), 0x00]
        #expect(throws: SystemError.self) { try Self.decode(unknown) }
        // One descriptor announced (the signature field turned into
        // UNIX_FDS=1, the fields' length with it), none arrived.
        var announced = whole
        announced[12..<16] = [0x80, 0, 0, 0]
        announced[136..<144] = [9, 1, UInt8(ascii: "u"), 0, 1, 0, 0, 0]
        #expect(throws: SystemError.self) { try Self.decode(announced) }
        let descriptor = FileDescriptor(dup(0))
        var received = [descriptor]
        #expect(try BusMessage.decode(announced, descriptors: &received).fileDescriptors.count == 1)
        #expect(received.isEmpty)
        // A kind the specification does not define.
        var kindless = whole
        kindless[1] = 9
        #expect(throws: SystemError.self) { try Self.decode(kindless) }
    }

    /// The specification's rule: a header field of a code it does not
    /// define is ignored, whatever its type (here `as`, between the path and
    /// the member; computed with Python's `struct`).
    @Test func aHeaderFieldOfAnUnknownCodeIsPassedOverWhateverItsType() throws {
        let withUnknown = "6c01000112000000070000005f00000001016f00150000002f6f72672f667265656465736b746f702f444275730000007f026173000000000f000000010000007800000002000000797a00000000000003017300080000004164644d61746368000000000000000008016700017300000d000000747970653d277369676e616c2700"
        let message = try Self.decode(Self.bytes(withUnknown))
        #expect(message.path == "/org/freedesktop/DBus" && message.member == "AddMatch")
        #expect(try message.readString() == "type='signal'")
    }

    @Test func aBodyOfMoreArgumentsThanASignatureHoldsIsRefusedWhenWritten() throws {
        let message = BusMessage.methodCall(destination: nil, path: "/", interface: nil, member: "M")
        for value in 0..<256 { try message.append(UInt32(value)) }
        #expect(throws: SystemError.self) { try message.encoded(serial: 1) }
    }

    @Test func theFramerPassesOverAnOverlongMessageWithoutHoldingItAndReadsTheNext() throws {
        var framer = BusFramer()
        // A header announcing a body of 64 MiB, then that many bytes in
        // pieces, then a whole message.
        var header = Self.bytes(Self.addMatch).prefix(16)
        header[header.startIndex + 4..<header.startIndex + 8] = [0, 0, 0, 4]
        Array(header).withUnsafeBytes { framer.receive($0) }
        #expect(try framer.next() == nil)
        let piece = [UInt8](repeating: 0x55, count: 65_536)
        var passed = 16
        let total = try BusMessage.frameLength(header)
        while passed < total {
            let count = min(piece.count, total - passed)
            piece.withUnsafeBytes { framer.receive(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            passed += count
            #expect(try framer.next() == nil)
        }
        Self.bytes(Self.addMatch).withUnsafeBytes { framer.receive($0) }
        #expect(try framer.next()?.member == "AddMatch")
        #expect(framer.dropped == 1)
    }

    @Test func aStreamThatStopsMakingSenseIsAnError() {
        var framer = BusFramer()
        Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8).withUnsafeBytes { framer.receive($0) }
        #expect(throws: SystemError.self) { try framer.next() }
    }

    @Test func busAddressesAreReadAsTheSpecificationWritesThem() {
        #expect(BusAddress.parse("unix:path=/run/user/1000/bus") == [.path("/run/user/1000/bus")])
        #expect(BusAddress.parse("tcp:host=localhost,port=1;unix:abstract=/tmp/dbus-x%2cy,guid=0123") == [.abstract("/tmp/dbus-x,y")])
        #expect(BusAddress.parse("unix:path=/a;unix:path=/b") == [.path("/a"), .path("/b")])
        #expect(BusAddress.parse("unix:path=%zz").isEmpty)
        #expect(BusAddress.parse("").isEmpty)
    }
}

// SPDX-License-Identifier: Apache-2.0
import Glibc
import SystemCalls

/// One D-Bus message in the specification's wire format, little-endian:
/// a method call built by appending its arguments, or a message received
/// (a reply, an error, a signal) read back argument by argument.
///
/// Hand-written rather than through sd-bus: alarmd makes a handful of calls
/// with a dozen argument types, and libsystemd would be the only reason for
/// seven of its shared libraries (libsystemd and what it links: libgcrypt,
/// libgpg-error, liblz4, liblzma, libzstd, libcap). Received messages are
/// untrusted: ``BusMessage/decode(_:descriptors:)`` and the readers
/// check every length and offset against the bytes there are, in one pass.
public final class BusMessage {
    public enum Kind: UInt8, Sendable {
        case methodCall = 1, methodReturn = 2, error = 3, signal = 4
    }

    /// The header fields the specification defines, by their codes.
    enum Field: UInt8 {
        case path = 1, interface, member, errorName, replySerial, destination, sender, signature, unixFileDescriptors
    }

    /// The flag that asks for no reply.
    public static let noReplyExpected: UInt8 = 0x1

    public let kind: Kind
    public var flags: UInt8 = 0
    /// Set by the connection that sends the message, or as received.
    public internal(set) var serial: UInt32 = 0
    public internal(set) var path: String?
    public internal(set) var interface: String?
    public internal(set) var member: String?
    public internal(set) var errorName: String?
    public internal(set) var replySerial: UInt32?
    public internal(set) var destination: String?
    public internal(set) var sender: String?

    /// The body's type signature: the types of the arguments, in order.
    var signature: [UInt8] = []
    /// The body, whose offset 0 sits at an 8-byte boundary of the message
    /// (alignment in the body is alignment in the message).
    var body: [UInt8] = []
    /// The descriptors a received message carries, closed with it.
    var fileDescriptors: [FileDescriptor] = []

    /// A received message in big-endian order (a peer on a big-endian machine).
    var bigEndian = false
    /// While writing: how deep in containers the next value goes (the
    /// signature records the outermost values only).
    var depth = 0
    /// While reading: where the next value starts, in the body and in the signature.
    var bodyOffset = 0
    var signatureOffset = 0

    init(kind: Kind) { self.kind = kind }

    /// A method call to `member` of `interface` on `path` of `destination`.
    public static func methodCall(destination: String?, path: String, interface: String?, member: String) -> BusMessage {
        let message = BusMessage(kind: .methodCall)
        message.destination = destination
        message.path = path
        message.interface = interface
        message.member = member
        return message
    }

    /// The body's signature as text (`su`, `a{sv}`).
    public var signatureText: String { String(decoding: signature, as: UTF8.self) }

    /// The largest message alarmd sends or takes: far above any it exchanges
    /// (a notification with its hints is under a kilobyte), far below the
    /// specification's 128 MiB, so that a peer cannot make it hold much.
    public static let maximumLength = 1 << 20
    /// The deepest nesting of containers taken (the specification's limit is
    /// 32 arrays and 32 structures; alarmd sends and reads 4 at most).
    public static let maximumDepth = 16

    static func malformed(_ what: String) -> SystemError {
        SystemError("D-Bus message: \(what)", code: EBADMSG)
    }

    /// The alignment of a value whose type code is `code`.
    static func alignment(of code: UInt8) -> Int {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"),
             UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "r"), UInt8(ascii: "e"): 8
        default: 4
        }
    }
}

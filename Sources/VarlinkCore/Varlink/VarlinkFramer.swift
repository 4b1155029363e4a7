// SPDX-License-Identifier: Apache-2.0
/// Splits a Varlink byte stream into messages: each is JSON followed by a NUL.
///
/// Bytes arrive in whatever pieces the socket delivers — half a message, or
/// several at once — and are buffered until a NUL completes one. A message that
/// grows past its limit is an error: the peer is broken or hostile, and the
/// connection should be closed rather than buffered further.
///
/// Two limits apply. Every message may be `maxMessageSize` long; a call that
/// opens as a call of one of `largeMethods` (its first member is `"method"`,
/// as every Varlink library writes it) may be `maxLargeSize` long. alarmd
/// names its `io.alarmd.Import` and `io.alarmd.ImportCalendar`, which carry
/// every item in one document; a client reading replies names none and sets
/// `maxMessageSize` high instead.
/// The framer knows Varlink, not any interface.
public struct VarlinkFramer: Sendable {
    /// 1 MiB: any request but an import (`[Control] MaxMessageSize=`).
    public static let defaultMaxMessageSize = 1 << 20
    /// 64 MiB: an `Import`, or an `Export` reply, of about 180,000 alarms
    /// (`[Control] MaxImportSize=`).
    public static let defaultMaxLargeSize = 64 << 20

    public struct Oversize: Error, Hashable, Sendable {
        /// The limit that applied: the larger one for a call of a large method.
        public let limit: Int

        public init(limit: Int) { self.limit = limit }
    }

    public let maxMessageSize: Int
    /// The methods (`interface.Member`) whose calls may be `maxLargeSize` long.
    public let largeMethods: [String]
    /// The limit for a call of a large method; never below `maxMessageSize`.
    public let maxLargeSize: Int
    /// Each large method's `"<name>"`, as the bytes to look for.
    private let largeMethodTokens: [[UInt8]]
    private var buffer: [UInt8] = []
    /// Where the search for the next NUL resumes, so each byte is scanned once.
    private var scanned = 0
    /// Whether the message being buffered opens as a large call (looked at
    /// once, when it first outgrows `maxMessageSize`).
    private var pendingIsLarge: Bool?

    public init(maxMessageSize: Int = VarlinkFramer.defaultMaxMessageSize, largeMethods: [String] = [], maxLargeSize: Int = VarlinkFramer.defaultMaxLargeSize) {
        self.maxMessageSize = maxMessageSize
        self.largeMethods = largeMethods
        self.maxLargeSize = largeMethods.isEmpty ? maxMessageSize : max(maxLargeSize, maxMessageSize)
        largeMethodTokens = largeMethods.map { Array("\"\($0)\"".utf8) }
    }

    /// Bytes received but not yet part of a complete message.
    public var pendingByteCount: Int { buffer.count }

    /// Whether the pending message opens as a call of a large method; `false`
    /// until enough of it has arrived to tell.
    public var pendingIsLargeCall: Bool { pendingIsLarge ?? (!buffer.isEmpty && opensAsLargeCall(buffer[...])) }

    /// Adds received bytes and returns the messages they complete (without NULs).
    public mutating func append(_ bytes: ArraySlice<UInt8>) throws(Oversize) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        return try takeMessages()
    }

    /// Adds received bytes and returns the messages they complete (without NULs).
    public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(Oversize) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        return try takeMessages()
    }

    /// Adds received bytes and returns the messages they complete (without
    /// NULs). Readers call the overloads above: a generic call from another
    /// module is not made for its type, and alarmctl spent some 170,000
    /// instructions (callgrind) appending one 462-byte reply through it.
    public mutating func append<C: Collection<UInt8>>(_ bytes: C) throws(Oversize) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        return try takeMessages()
    }

    private mutating func takeMessages() throws(Oversize) -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var start = 0
        while let end = buffer[scanned...].firstIndex(of: 0) {
            // A message that arrived whole in one read is held to its limit too.
            try check(buffer[start..<end], isLarge: start == 0 ? pendingIsLarge : nil)
            messages.append(Array(buffer[start..<end]))
            start = end + 1
            scanned = start
            pendingIsLarge = nil
        }
        if start > 0 {
            buffer.removeFirst(start)
            scanned -= start
        }
        scanned = buffer.count
        if buffer.count > maxMessageSize {
            let isLarge = pendingIsLarge ?? opensAsLargeCall(buffer[...])
            pendingIsLarge = isLarge
            try check(buffer[...], isLarge: isLarge)
        }
        return messages
    }

    private func check(_ message: ArraySlice<UInt8>, isLarge: Bool?) throws(Oversize) {
        guard message.count > maxMessageSize else { return }
        let large = isLarge ?? opensAsLargeCall(message)
        guard large, message.count <= maxLargeSize else { throw Oversize(limit: large ? maxLargeSize : maxMessageSize) }
    }

    /// Whether `bytes` start `{"method": "<a large method>"`, with any JSON
    /// white space between the tokens.
    func opensAsLargeCall(_ bytes: ArraySlice<UInt8>) -> Bool {
        largeMethodTokens.contains { opens(bytes, as: $0) }
    }

    private func opens(_ bytes: ArraySlice<UInt8>, as methodToken: [UInt8]) -> Bool {
        var index = bytes.startIndex
        func skipSpace() {
            while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        func take<S: Sequence<UInt8>>(_ token: S) -> Bool {
            skipSpace()
            for byte in token {
                guard index < bytes.endIndex, bytes[index] == byte else { return false }
                index += 1
            }
            return true
        }
        return take("{".utf8) && take("\"method\"".utf8) && take(":".utf8) && take(methodToken)
    }

    /// Frames one message for sending.
    public static func frame(_ message: JSONValue) -> [UInt8] {
        var bytes = message.jsonBytes
        bytes.append(0)
        return bytes
    }
}

/// Splits a Varlink byte stream into messages: each is JSON followed by a NUL.
///
/// Bytes arrive in whatever pieces the socket delivers — half a message, or
/// several at once — and are buffered until a NUL completes one. A message that
/// grows past `maxMessageSize` without ending is an error: the peer is broken or
/// hostile, and the connection should be closed rather than buffered further.
public struct VarlinkFramer: Sendable {
    /// 64 MiB: an `Import` or `Export` of about 180,000 alarms. The daemon's
    /// limit is `[Control] MaxMessageSize=`.
    public static let defaultMaxMessageSize = 64 << 20

    public struct Oversize: Error, Hashable, Sendable {
        public let limit: Int
    }

    public let maxMessageSize: Int
    private var buffer: [UInt8] = []
    /// Where the search for the next NUL resumes, so each byte is scanned once.
    private var scanned = 0

    public init(maxMessageSize: Int = VarlinkFramer.defaultMaxMessageSize) {
        self.maxMessageSize = maxMessageSize
    }

    /// Bytes received but not yet part of a complete message.
    public var pendingByteCount: Int { buffer.count }

    /// Adds received bytes and returns the messages they complete (without NULs).
    public mutating func append<C: Collection<UInt8>>(_ bytes: C) throws(Oversize) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        var messages: [[UInt8]] = []
        var start = 0
        while let end = buffer[scanned...].firstIndex(of: 0) {
            messages.append(Array(buffer[start..<end]))
            start = end + 1
            scanned = start
        }
        if start > 0 {
            buffer.removeFirst(start)
            scanned -= start
        }
        scanned = buffer.count
        if buffer.count > maxMessageSize { throw Oversize(limit: maxMessageSize) }
        return messages
    }

    /// Frames one message for sending.
    public static func frame(_ message: JSONValue) -> [UInt8] {
        var bytes = message.jsonBytes
        bytes.append(0)
        return bytes
    }
}

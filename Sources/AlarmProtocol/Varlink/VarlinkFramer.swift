/// Splits a Varlink byte stream into messages: each is JSON followed by a NUL.
///
/// Bytes arrive in whatever pieces the socket delivers — half a message, or
/// several at once — and are buffered until a NUL completes one. A message that
/// grows past its limit is an error: the peer is broken or hostile, and the
/// connection should be closed rather than buffered further.
///
/// Two limits apply. Every request may be `maxMessageSize` long; a request
/// that opens as a call of `io.alarmd.Import` (its first member is `"method"`,
/// as every Varlink library writes it) may be `maxImportSize` long, because an
/// import carries every item in one document.
public struct VarlinkFramer: Sendable {
    /// 1 MiB: any request but an import (`[Control] MaxMessageSize=`).
    public static let defaultMaxMessageSize = 1 << 20
    /// 64 MiB: an `Import`, or an `Export` reply, of about 180,000 alarms
    /// (`[Control] MaxImportSize=`).
    public static let defaultMaxImportSize = 64 << 20

    public struct Oversize: Error, Hashable, Sendable {
        /// The limit that applied: the import limit for an import.
        public let limit: Int

        public init(limit: Int) { self.limit = limit }
    }

    public let maxMessageSize: Int
    /// The limit for an `io.alarmd.Import` call; never below `maxMessageSize`.
    public let maxImportSize: Int
    private var buffer: [UInt8] = []
    /// Where the search for the next NUL resumes, so each byte is scanned once.
    private var scanned = 0
    /// Whether the message being buffered opens as an import (looked at once,
    /// when it first outgrows `maxMessageSize`).
    private var pendingIsImport: Bool?

    public init(maxMessageSize: Int = VarlinkFramer.defaultMaxMessageSize, maxImportSize: Int = VarlinkFramer.defaultMaxImportSize) {
        self.maxMessageSize = maxMessageSize
        self.maxImportSize = max(maxImportSize, maxMessageSize)
    }

    /// Bytes received but not yet part of a complete message.
    public var pendingByteCount: Int { buffer.count }

    /// Whether the pending message opens as an `Import` call; `false` until
    /// enough of it has arrived to tell.
    public var pendingIsAnImport: Bool { pendingIsImport ?? (!buffer.isEmpty && Self.opensAsImport(buffer[...])) }

    /// Adds received bytes and returns the messages they complete (without NULs).
    public mutating func append<C: Collection<UInt8>>(_ bytes: C) throws(Oversize) -> [[UInt8]] {
        buffer.append(contentsOf: bytes)
        var messages: [[UInt8]] = []
        var start = 0
        while let end = buffer[scanned...].firstIndex(of: 0) {
            // A message that arrived whole in one read is held to its limit too.
            try check(buffer[start..<end], isImport: start == 0 ? pendingIsImport : nil)
            messages.append(Array(buffer[start..<end]))
            start = end + 1
            scanned = start
            pendingIsImport = nil
        }
        if start > 0 {
            buffer.removeFirst(start)
            scanned -= start
        }
        scanned = buffer.count
        if buffer.count > maxMessageSize {
            let isImport = pendingIsImport ?? Self.opensAsImport(buffer[...])
            pendingIsImport = isImport
            try check(buffer[...], isImport: isImport)
        }
        return messages
    }

    private func check(_ message: ArraySlice<UInt8>, isImport: Bool?) throws(Oversize) {
        guard message.count > maxMessageSize else { return }
        let importing = isImport ?? Self.opensAsImport(message)
        guard importing, message.count <= maxImportSize else { throw Oversize(limit: importing ? maxImportSize : maxMessageSize) }
    }

    /// Whether `bytes` start `{"method": "io.alarmd.Import"`, with any JSON
    /// white space between the tokens.
    static func opensAsImport(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        func skipSpace() {
            while index < bytes.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        func take(_ token: String) -> Bool {
            skipSpace()
            for byte in token.utf8 {
                guard index < bytes.endIndex, bytes[index] == byte else { return false }
                index += 1
            }
            return true
        }
        return take("{") && take("\"method\"") && take(":") && take("\"io.alarmd.Import\"")
    }

    /// Frames one message for sending.
    public static func frame(_ message: JSONValue) -> [UInt8] {
        var bytes = message.jsonBytes
        bytes.append(0)
        return bytes
    }
}

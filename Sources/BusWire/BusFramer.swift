// SPDX-License-Identifier: Apache-2.0
import SystemCalls

/// Cuts a bus connection's byte stream into messages. It holds at most one
/// message's worth (``BusMessage/maximumLength``) and what one read brought:
/// a longer message is passed over as it arrives, without being kept, and
/// one that cannot be decoded is dropped; both are counted. Only a stream
/// that no longer starts a message where one should start is an error, after
/// which the connection is beyond use.
public struct BusFramer {
    private var buffer: [UInt8] = []
    private var start = 0
    /// Descriptors received and not yet claimed by a message.
    private var descriptors: [FileDescriptor] = []
    /// Bytes of an over-long message still to pass over.
    private var skipping = 0
    public private(set) var dropped = 0
    /// Bytes held, not yet framed.
    var buffered: Int { buffer.count - start }

    /// The kernel passes at most 253 descriptors in one message (SCM_MAX_FD);
    /// more than that held unclaimed are closed.
    static let maximumDescriptors = 253

    public init() {}

    /// Takes bytes (and descriptors) read from the connection.
    public mutating func receive(_ bytes: UnsafeRawBufferPointer, descriptors received: [FileDescriptor] = []) {
        descriptors += received
        if descriptors.count > Self.maximumDescriptors { descriptors.removeFirst(descriptors.count - Self.maximumDescriptors) }
        var bytes = bytes[...]
        if skipping > 0 {
            let passed = min(skipping, bytes.count)
            skipping -= passed
            bytes = bytes.dropFirst(passed)
        }
        buffer += bytes
    }

    /// The next whole message, or `nil` until more bytes arrive.
    public mutating func next() throws(SystemError) -> BusMessage? {
        while true {
            let available = buffer.count - start
            guard available >= 16 else { break }
            let length = try BusMessage.frameLength(buffer[start..<start + 16])
            if length > BusMessage.maximumLength {
                let passed = min(available, length)
                start += passed
                skipping = length - passed
                // Whose they were cannot be told without the message.
                descriptors.removeAll()
                dropped += 1
                continue
            }
            guard available >= length else { break }
            let bytes = Array(buffer[start..<start + length])
            start += length
            do throws(SystemError) {
                return try BusMessage.decode(bytes, descriptors: &descriptors)
            } catch {
                descriptors.removeAll()
                dropped += 1
            }
        }
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        return nil
    }
}

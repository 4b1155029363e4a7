// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials
import Glibc

/// `alarmd-sync`'s end of the socketpair to alarmd: blocking, one message
/// at a time. As the ``SyncHost`` of a round it sends a request and waits
/// for its ``SyncMessage/answer(id:error:)``.
package final class ParentChannel: SyncHost {
    /// The channel's end goes here (alarmd passes it as descriptor 3).
    package static let descriptor: Int32 = 3

    package struct Closed: Error, CustomStringConvertible {
        package let description: String
    }

    private let fd: Int32
    private var framer = VarlinkFramer(maxMessageSize: SyncMessage.maxSize)
    private var frames: [[UInt8]] = []
    private var nextID = 1
    /// Set when alarmd asked the process to leave while a round waited on it.
    package private(set) var stopRequested = false

    package init(fd: Int32 = ParentChannel.descriptor) { self.fd = fd }

    package func send(_ message: SyncMessage) throws(Closed) {
        let bytes = VarlinkFramer.frame(message.json)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Closed(description: "writing to alarmd: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// The next message from alarmd; ``Closed`` at its end or on a message
    /// that does not read (alarmd never sends one).
    package func receive() throws(Closed) -> SyncMessage {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while frames.isEmpty {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Closed(description: "reading from alarmd: \(String(cString: strerror(errno)))")
            }
            guard count > 0 else { throw Closed(description: "alarmd closed the channel") }
            do throws(VarlinkFramer.Oversize) { frames += try framer.append(buffer[..<count]) } catch {
                throw Closed(description: "a message from alarmd over \(error.limit) bytes")
            }
        }
        do throws(VarlinkError) { return try SyncMessage(frame: frames.removeFirst()) } catch {
            throw Closed(description: "a message from alarmd that does not read: \(error)")
        }
    }

    private func request(_ make: (Int) -> SyncMessage) throws(SyncHostError) {
        let id = nextID
        nextID += 1
        var refusal: String?
        do throws(Closed) {
            try send(make(id))
            waiting: while true {
                switch try receive() {
                case .answer(id, let error):
                    refusal = error
                    break waiting
                case .stop: stopRequested = true
                default: continue
                }
            }
        } catch { throw SyncHostError(error.description) }
        if let refusal { throw SyncHostError(refusal) }
    }

    package func merge(alarms: [Alarm], reminders: [Reminder]) throws(SyncHostError) {
        let document = ExportDocument.json(alarms: alarms, reminders: reminders, zone: .utc)
        try request { .merge(id: $0, items: document) }
    }

    package func remove(_ ids: [UUID], kind: ItemKind) throws(SyncHostError) {
        try request { .remove(id: $0, kind: kind, ids: ids) }
    }

    package func log(_ line: SyncLogLine) { try? send(.log(line)) }

    package func reading(_ href: String) { try? send(.reading(href: href)) }
}

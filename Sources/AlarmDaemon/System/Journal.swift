// SPDX-License-Identifier: Apache-2.0
import CSystemd
import FoundationEssentials
import Glibc
import Synchronization
import SystemCalls

/// Structured logging to the systemd journal through `sd_journal_sendv` (Swift
/// cannot call the variadic `sd_journal_send`). Without a journal socket, or
/// when a send fails, the entry goes to stderr as one readable line instead.
public final class Journal: Sendable {
    public enum Priority: Int {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    }

    public let identifier: String
    private let socketPath: String
    /// Keeps lines written to stderr from different threads whole.
    private let stderrLock = Mutex(())

    public init(identifier: String = "alarmd", socketPath: String = "/run/systemd/journal/socket") {
        self.identifier = identifier
        self.socketPath = socketPath
    }

    /// Whether a journal is there to receive entries right now.
    public var isAvailable: Bool { access(socketPath, W_OK) == 0 }

    /// Sends one entry: MESSAGE, PRIORITY and SYSLOG_IDENTIFIER plus `fields`
    /// (upper-case journal field names, values as given).
    public func send(_ message: String, priority: Priority, messageID: String? = nil, fields: [(String, String)] = []) {
        var all: [(String, String)] = [("MESSAGE", message), ("PRIORITY", String(priority.rawValue)), ("SYSLOG_IDENTIFIER", identifier)]
        if let messageID { all.append(("MESSAGE_ID", messageID)) }
        all += fields
        if isAvailable, sendv(all) { return }
        let extra = fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        let line = "\(identifier)[\(getpid())] <\(priority.rawValue)> \(message)" + (extra.isEmpty ? "" : "  [\(extra)]") + "\n"
        stderrLock.withLock { _ in writeStandardError(line) }
    }

    private func sendv(_ fields: [(String, String)]) -> Bool {
        // Keep every "KEY=value" buffer alive until the call returns.
        let buffers = fields.map { Array("\($0.0)=\($0.1)".utf8) }
        var iovecs: [iovec] = []
        iovecs.reserveCapacity(buffers.count)
        return withBuffers(buffers[...], into: &iovecs) { vector in
            sd_journal_sendv(vector.baseAddress, Int32(vector.count)) >= 0
        }
    }

    private func withBuffers(_ rest: ArraySlice<[UInt8]>, into iovecs: inout [iovec], _ body: (UnsafeBufferPointer<iovec>) -> Bool) -> Bool {
        guard let first = rest.first else { return iovecs.withUnsafeBufferPointer(body) }
        return first.withUnsafeBytes { bytes in
            iovecs.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count))
            return withBuffers(rest.dropFirst(), into: &iovecs, body)
        }
    }
}

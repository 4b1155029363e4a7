// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc
import Synchronization

/// Structured entries for the systemd journal, by its native protocol: one
/// datagram per entry to journald's socket, each field `NAME=value` and a
/// newline, or, for a value that holds a newline, `NAME`, a newline, the
/// value's length as 64-bit little-endian, the value and a newline. An entry
/// too long for one datagram goes as a sealed memfd, as journald accepts.
/// Hand-written (about what `sd_journal_sendv` does) so that neither alarmd
/// nor alarmd-wake links libsystemd for it. Without a journal socket, or
/// when a send fails, the entry goes to standard error as one readable line.
public final class Journal: Sendable {
    public enum Priority: Int, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    }

    public let identifier: String
    private let socketPath: String
    /// One datagram socket for every entry; safe to send on from any thread.
    private let socket: FileDescriptor?
    /// Keeps lines written to stderr from different threads whole.
    private let stderrLock = Mutex(())

    public init(identifier: String = "alarmd", socketPath: String = "/run/systemd/journal/socket") {
        self.identifier = identifier
        self.socketPath = socketPath
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        socket = fd >= 0 ? FileDescriptor(fd) : nil
    }

    /// Whether a journal is there to receive entries right now.
    public var isAvailable: Bool { access(socketPath, W_OK) == 0 }

    /// Sends one entry: MESSAGE, PRIORITY and SYSLOG_IDENTIFIER plus `fields`
    /// (upper-case journal field names, values as given).
    public func send(_ message: String, priority: Priority, messageID: String? = nil, fields: [(String, String)] = []) {
        var all: [(String, String)] = [("MESSAGE", message), ("PRIORITY", String(priority.rawValue)), ("SYSLOG_IDENTIFIER", identifier)]
        if let messageID { all.append(("MESSAGE_ID", messageID)) }
        all += fields
        if sent(Self.entry(all)) { return }
        let extra = fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        let line = "\(identifier)[\(getpid())] <\(priority.rawValue)> \(message)" + (extra.isEmpty ? "" : "  [\(extra)]") + "\n"
        stderrLock.withLock { _ in writeStandardError(line) }
    }

    /// An entry in the native protocol's form.
    static func entry(_ fields: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in fields {
            bytes += name.utf8
            if value.utf8.contains(UInt8(ascii: "\n")) {
                bytes.append(UInt8(ascii: "\n"))
                withUnsafeBytes(of: UInt64(value.utf8.count).littleEndian) { bytes += $0 }
            } else {
                bytes.append(UInt8(ascii: "="))
            }
            bytes += value.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    private func sent(_ entry: [UInt8]) -> Bool {
        guard let socket, isAvailable else { return false }
        return (try? UnixAddress.path(socketPath).withSockaddr { address, length in
            let result = entry.withUnsafeBytes { sendto(socket.rawValue, $0.baseAddress, $0.count, alarmd_msg_nosignal(), address, length) }
            if result >= 0 { return true }
            // Too long for one datagram: the entry in a sealed memfd instead.
            guard errno == EMSGSIZE || errno == ENOBUFS else { return false }
            let memfd = entry.withUnsafeBytes { alarmd_sealed_memfd($0.baseAddress, $0.count) }
            guard memfd >= 0 else { return false }
            defer { close(memfd) }
            return alarmd_send_descriptor(socket.rawValue, address, length, memfd) >= 0
        }) ?? false
    }
}

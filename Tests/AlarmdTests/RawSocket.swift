// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import Foundation
import Glibc

/// A bare Unix stream socket client for the control socket: it sends exactly the
/// bytes it is given (so tests can send broken messages, split messages, or
/// several at once) and reads NUL-terminated replies with a timeout.
final class RawSocket {
    /// What one read produced.
    enum Received: Equatable, CustomStringConvertible {
        /// One message, without its NUL.
        case message([UInt8])
        /// The peer closed the connection (or reset it) before a complete message.
        case closed(pending: [UInt8])
        /// Nothing complete arrived in time.
        case timedOut(pending: [UInt8])

        var description: String {
            switch self {
            case .message(let bytes): return "message \(String(decoding: bytes, as: UTF8.self))"
            case .closed(let pending): return pending.isEmpty ? "closed" : "closed after \(pending.count) bytes without a NUL"
            case .timedOut(let pending): return "timed out" + (pending.isEmpty ? "" : " with \(pending.count) bytes pending")
            }
        }
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    /// The first `scanned` bytes of `buffer` hold no NUL: each read looks only
    /// at what it added (rescanning a 25 MB reply at every 64 KiB was quadratic).
    private var scanned = 0
    private var sawEOF = false

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError(description: "socket: \(String(cString: strerror(errno)))") }
        guard let connected = withUnixAddress(path, { connect(fd, $0, $1) }) else {
            Glibc.close(fd)
            throw HarnessError(description: "socket path too long: \(path)")
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw HarnessError(description: "connect \(path): \(reason)")
        }
        // A server that stops reading must not hang a test forever.
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private var isClosed = false

    /// Hangs up (also done when the socket goes away).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }

    deinit { close() }

    /// Sends all of `bytes`; returns `false` (instead of throwing) when the peer
    /// closed or reset the connection part way, which some tests expect.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends `json` followed by the NUL that ends a Varlink message.
    @discardableResult
    func sendMessage(_ json: String) -> Bool { send(Array(json.utf8) + [0]) }

    /// Reads until a NUL completes a message, the peer closes, or `timeout` passes.
    func receive(timeout: TimeInterval = 10) -> Received {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = buffer[scanned...].firstIndex(of: 0) {
                let message = Array(buffer[..<end])
                buffer.removeFirst(end + 1)
                scanned = 0
                return .message(message)
            }
            scanned = buffer.count
            if sawEOF { return .closed(pending: buffer) }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return .timedOut(pending: buffer) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { sawEOF = true; continue }
            if ready <= 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                sawEOF = true  // EOF, or ECONNRESET: either way the server is done with us.
            }
        }
    }

    /// Reads one reply and decodes it; throws when none arrives.
    func reply(timeout: TimeInterval = 10) throws -> VarlinkReply {
        switch receive(timeout: timeout) {
        case .message(let bytes):
            do { return try VarlinkReply(message: bytes) } catch {
                throw HarnessError(description: "undecodable reply \(String(decoding: bytes, as: UTF8.self)): \(error)")
            }
        case let other:
            throw HarnessError(description: "no reply: \(other)")
        }
    }

    /// One call, one reply, on this connection.
    func call(_ json: String, timeout: TimeInterval = 10) throws -> VarlinkReply {
        guard sendMessage(json) else { throw HarnessError(description: "send failed: \(String(cString: strerror(errno)))") }
        return try reply(timeout: timeout)
    }

    /// A call on a fresh connection.
    static func call(_ path: String, _ json: String, timeout: TimeInterval = 10) throws -> VarlinkReply {
        try RawSocket(path: path).call(json, timeout: timeout)
    }
}

extension VarlinkReply {
    /// The reply's parameters when it is not an error.
    var parameters: JSONObject? {
        if case .parameters(let parameters, _) = self { return parameters }
        return nil
    }

    /// The error when it is one.
    var error: VarlinkError? {
        if case .error(let error) = self { return error }
        return nil
    }

    var text: String { json.jsonText }
}

/// Calls `body` with a `sockaddr_un` for `path`, or returns `nil` when the path
/// does not fit in one.
func withUnixAddress<Result>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result? {
    (try? UnixSocketAddress(path))?.withSockaddr(body)
}

/// Whether a process is receiving on the datagram socket at `path`. A socket
/// file outlives the process that bound it (a journald that was stopped leaves
/// /run/systemd/journal/socket behind), so only a connect tells.
func datagramSocketIsListening(_ path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { Glibc.close(fd) }
    return withUnixAddress(path, { connect(fd, $0, $1) }) == 0
}

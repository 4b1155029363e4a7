// SPDX-License-Identifier: Apache-2.0
import Glibc

/// A filesystem path as a Unix-domain socket address (`sockaddr_un`), and the
/// one routine that connects a stream socket to it.
///
/// Here because alarmd (to probe its socket, and bind it), alarmctl and the
/// bench all reach the daemon this way, and AlarmProtocol is the lowest module
/// they share that may do I/O: AlarmCore is pure. It is the Varlink transport,
/// as the framer is its byte stream.
public struct UnixSocketAddress {
    /// A failed step, with `errno` (`ENAMETOOLONG` for a path that does not fit).
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let operation: String
        public let code: Int32

        public var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    /// The longest path a `sockaddr_un` holds (its NUL takes the last byte).
    public static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    public let path: String
    private var address = sockaddr_un()

    public init(_ path: String) throws(Failure) {
        let bytes = Array(path.utf8)
        guard bytes.count <= Self.maxPathLength else { throw Failure(operation: "socket path \(path)", code: ENAMETOOLONG) }
        self.path = path
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
    }

    /// Calls `body` with the address as bind(2) and connect(2) take it.
    public func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result) rethrows -> Result {
        var address = address
        return try withUnsafePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// A new blocking, close-on-exec stream socket connected here; the caller
    /// owns the descriptor. `timeout` (seconds), when given, bounds every send
    /// and receive on it, and the connect itself when the listener's backlog
    /// is full (SO_SNDTIMEO does that for Unix sockets).
    public func connect(timeout: Double? = nil) throws(Failure) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(operation: "socket", code: errno) }
        if let timeout {
            var value = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
        // Not retried on EINTR: the connection then goes on being made, and a
        // second connect(2) would fail with EALREADY. The daemon's signal
        // handlers are SA_RESTART, and alarmctl catches none.
        let result = withSockaddr { Glibc.connect(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure(operation: "connect \(path)", code: code)
        }
        return fd
    }
}

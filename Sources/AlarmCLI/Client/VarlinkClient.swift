import AlarmProtocol
import Glibc

/// A blocking Varlink connection over a Unix stream socket: send a call, read
/// its replies. One connection serves several calls in turn.
final class VarlinkClient {
    /// Why talking to the daemon failed below the level of Varlink errors.
    enum Failure: Error {
        /// The socket could not be connected to; `reason` is `strerror`'s text.
        case cannotConnect(reason: String)
        /// Connected, but sending or receiving failed, timed out, or the peer hung up.
        case connectionLost(reason: String)
        /// The daemon sent something that is not a Varlink reply.
        case badReply(reason: String)
    }

    private let descriptor: Int32
    /// Replies may be as long as the longest request: an `Export` is an import's size.
    private var framer = VarlinkFramer(maxMessageSize: VarlinkFramer.defaultMaxImportSize)
    /// Complete messages received but not yet returned (a read can carry several).
    private var pending: [[UInt8]] = []

    /// Connects to `path`. `timeout` bounds every later send and receive
    /// (`nil`: wait forever, as `watch` must); a stuck daemon then ends the
    /// command instead of hanging it.
    init(path: String, timeout: Double?) throws(Failure) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let bytes = Array(path.utf8)
        guard bytes.count < capacity else {
            throw .cannotConnect(reason: "the path is longer than \(capacity - 1) bytes, the limit for a Unix socket")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotConnect(reason: Self.errorText(errno)) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        if let timeout {
            // SO_SNDTIMEO also bounds connect() on a Unix socket whose backlog is full.
            var value = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw .cannotConnect(reason: Self.errorText(code))
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Sends `call` (framed with its NUL).
    func send(_ call: VarlinkCall) throws(Failure) {
        let bytes = VarlinkFramer.frame(call.json)
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a daemon that went away must be an error here, not a SIGPIPE.
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .connectionLost(reason: Self.transferErrorText(errno, sending: true))
            }
            offset += written
        }
    }

    /// Reads the next reply.
    func receive() throws(Failure) -> VarlinkReply {
        while pending.isEmpty {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .connectionLost(reason: Self.transferErrorText(errno, sending: false))
            }
            if count == 0 { throw .connectionLost(reason: "alarmd closed the connection") }
            do throws(VarlinkFramer.Oversize) {
                pending += try framer.append(buffer[0..<count])
            } catch {
                throw .badReply(reason: "a reply is larger than \(error.limit) bytes")
            }
        }
        let message = pending.removeFirst()
        do throws(VarlinkError) { return try VarlinkReply(message: message) } catch {
            throw .badReply(reason: error.description)
        }
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func transferErrorText(_ code: Int32, sending: Bool) -> String {
        if code == EAGAIN || code == EWOULDBLOCK { return "alarmd did not " + (sending ? "accept the request" : "answer") + " in time" }
        return errorText(code)
    }
}

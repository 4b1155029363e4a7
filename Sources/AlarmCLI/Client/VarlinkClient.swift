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
    private var framer = VarlinkFramer(maxMessageSize: VarlinkFramer.defaultMaxLargeSize)
    /// Complete messages received but not yet returned (a read can carry several).
    private var pending: [[UInt8]] = []

    /// Connects to `path`. `timeout` bounds every later send and receive
    /// (`nil`: wait forever, as `watch` must); a stuck daemon then ends the
    /// command instead of hanging it.
    init(path: String, timeout: Double?) throws(Failure) {
        do throws(UnixSocketAddress.Failure) {
            descriptor = try UnixSocketAddress(path).connect(timeout: timeout)
        } catch where error.code == ENAMETOOLONG {
            throw .cannotConnect(reason: Lf("the path is longer than %d bytes, the limit for a Unix socket", UnixSocketAddress.maxPathLength))
        } catch {
            throw .cannotConnect(reason: Self.errorText(error.code))
        }
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
            if count == 0 { throw .connectionLost(reason: L("alarmd closed the connection")) }
            do throws(VarlinkFramer.Oversize) {
                pending += try framer.append(buffer[0..<count])
            } catch {
                throw .badReply(reason: Lf("a reply is larger than %d bytes", error.limit))
            }
        }
        let message = pending.removeFirst()
        do throws(VarlinkError) { return try VarlinkReply(message: message) } catch {
            throw .badReply(reason: error.description)
        }
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func transferErrorText(_ code: Int32, sending: Bool) -> String {
        if code == EAGAIN || code == EWOULDBLOCK { return sending ? L("alarmd did not accept the request in time") : L("alarmd did not answer in time") }
        return errorText(code)
    }
}

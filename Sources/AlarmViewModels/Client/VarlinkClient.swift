// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import Glibc

/// A Varlink connection over a Unix stream socket: send a call, read its
/// replies, blocking or (for a GUI's main loop) only what has arrived. One
/// connection serves several calls in turn.
///
/// Holds no text for people: a failure carries its cause, and whoever shows
/// it words it in the reader's language (``Cause/text(in:)``).
public final class VarlinkClient {
    /// Why talking to the daemon failed below the level of Varlink errors.
    public enum Failure: Error, Equatable, Sendable {
        /// The socket could not be connected to.
        case cannotConnect(Cause)
        /// Connected, but sending or receiving failed, timed out, or the peer hung up.
        case connectionLost(Cause)
        /// The daemon sent something that is not a Varlink reply.
        case badReply(Cause)

        /// The cause, whichever step failed.
        public var cause: Cause {
            switch self {
            case .cannotConnect(let cause), .connectionLost(let cause), .badReply(let cause): return cause
            }
        }
    }

    /// What went wrong, as data.
    public enum Cause: Equatable, Sendable {
        /// A system call failed with this `errno`.
        case system(errno: Int32)
        /// The socket path does not fit a `sockaddr_un` (`limit` bytes).
        case pathTooLong(limit: Int)
        /// A send (`sending: true`) or receive took longer than the timeout.
        case timedOut(sending: Bool)
        /// The peer closed the connection.
        case closedByPeer
        /// A reply grew past `limit` bytes without its terminating NUL.
        case oversize(limit: Int)
        /// A complete message that is not a Varlink reply, or a reply that
        /// is not its method's; the error says why.
        case malformed(VarlinkError)
    }

    /// The connected socket, for a main loop to watch for input
    /// (``receiveAvailable()`` then reads it). Owned by this object: closed
    /// when it goes away.
    public let descriptor: Int32
    /// Replies may be as long as the longest request: an `Export` is an import's size.
    private var framer = VarlinkFramer(maxMessageSize: VarlinkFramer.defaultMaxLargeSize)
    /// Complete messages received but not yet returned (a read can carry several).
    private var pending: [[UInt8]] = []
    /// The peer closed the connection after the messages in `pending`.
    private var reachedEnd = false
    /// Where each read lands before the framer takes it: allocated once, and
    /// never zeroed (only what `recv` wrote is passed on).
    private let received: UnsafeMutableRawBufferPointer

    /// Connects to `path`. `timeout` (seconds) bounds every later blocking
    /// send and receive (`nil`: wait forever, as a `Watch` reader may); a
    /// stuck daemon then ends the call instead of hanging it.
    public init(path: String, timeout: Double?) throws(Failure) {
        do throws(UnixSocketAddress.Failure) {
            descriptor = try UnixSocketAddress(path).connect(timeout: timeout)
        } catch where error.code == ENAMETOOLONG {
            throw .cannotConnect(.pathTooLong(limit: UnixSocketAddress.maxPathLength))
        } catch {
            throw .cannotConnect(.system(errno: error.code))
        }
        // Allocated once connected, so that a failed connect leaves nothing behind.
        received = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
    }

    deinit {
        close(descriptor)
        received.deallocate()
    }

    /// Whether the peer may still be there: false once it has closed its end
    /// (a daemon closes a connection idle for its `IdleTimeout=`) or the
    /// connection failed. Checked without waiting, before a kept connection
    /// is used again.
    public var isOpen: Bool {
        guard !reachedEnd else { return false }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 0) >= 0 else { return false }
        if entry.revents & (Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0 { return false }
        // Readable between calls: the end of the stream (the peer closed),
        // or bytes no call asked for, which put the stream out of step.
        return entry.revents & Int16(POLLIN) == 0
    }

    /// Sends `call` (framed with its NUL).
    public func send(_ call: VarlinkCall) throws(Failure) {
        let bytes = VarlinkFramer.frame(call.json)
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a daemon that went away must be an error here, not a SIGPIPE.
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                throw .connectionLost(Self.transferCause(code, sending: true))
            }
            offset += written
        }
    }

    /// Reads the next reply, waiting for it (up to the timeout).
    public func receive() throws(Failure) -> VarlinkReply {
        while pending.isEmpty {
            if reachedEnd { throw .connectionLost(.closedByPeer) }
            try read(flags: 0)
        }
        return try decode(pending.removeFirst())
    }

    /// The replies complete now, without waiting: what a main loop calls
    /// when the descriptor is readable. Empty when nothing complete has
    /// arrived. Once the peer has closed the connection, the replies that
    /// came before are returned first, then `connectionLost(.closedByPeer)`.
    public func receiveAvailable() throws(Failure) -> [VarlinkReply] {
        while !reachedEnd {
            guard try read(flags: Int32(MSG_DONTWAIT)) else { break }
        }
        if pending.isEmpty, reachedEnd { throw .connectionLost(.closedByPeer) }
        var replies: [VarlinkReply] = []
        while !pending.isEmpty { replies.append(try decode(pending.removeFirst())) }
        return replies
    }

    /// One recv(2) into the framer. `false` when a non-blocking read found
    /// nothing to read; end of stream sets `reachedEnd`.
    @discardableResult
    private func read(flags: Int32) throws(Failure) -> Bool {
        while true {
            let count = recv(descriptor, received.baseAddress, received.count, flags)
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if flags & Int32(MSG_DONTWAIT) != 0, code == EAGAIN || code == EWOULDBLOCK { return false }
                throw .connectionLost(Self.transferCause(code, sending: false))
            }
            if count == 0 {
                reachedEnd = true
                return false
            }
            do throws(VarlinkFramer.Oversize) {
                pending += try framer.append(UnsafeRawBufferPointer(rebasing: received[..<count]))
            } catch {
                throw .badReply(.oversize(limit: error.limit))
            }
            return true
        }
    }

    private func decode(_ message: [UInt8]) throws(Failure) -> VarlinkReply {
        do throws(VarlinkError) { return try VarlinkReply(message: message) } catch {
            throw .badReply(.malformed(error))
        }
    }

    private static func transferCause(_ code: Int32, sending: Bool) -> Cause {
        code == EAGAIN || code == EWOULDBLOCK ? .timedOut(sending: sending) : .system(errno: code)
    }
}

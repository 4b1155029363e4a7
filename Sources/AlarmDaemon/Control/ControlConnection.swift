import AlarmProtocol
import Dispatch
import Glibc

/// The one receive buffer of all connections: they are read on the server's
/// queue, one at a time, and a fresh 64 KiB array for every read cost a
/// memset of it per request.
final class ReceiveBuffer {
    let bytes: UnsafeMutableRawBufferPointer

    init(size: Int = 65_536) { bytes = .allocate(byteCount: size, alignment: 16) }

    deinit { bytes.deallocate() }
}

/// One client connection: reads framed calls, writes replies without ever
/// blocking, and closes itself on EOF, error, oversize input, idleness, or a
/// `Watch` subscriber that stopped reading. Confined to the server's queue.
final class ControlConnection {
    let fd: Int32
    let peer: PeerCredentials
    private let queue: DispatchQueue
    private let loop: EventLoop
    private let limits: ControlServer.Limits
    private let buffer: ReceiveBuffer
    private var framer: VarlinkFramer
    private var output: [UInt8] = []
    private var writeSource: DispatchSourceWrite?
    private var writeArmed = false
    private var idleTimer: DispatchSourceTimer?
    /// When the client last sent something; the idle timer checks this when
    /// it fires instead of being re-armed for every message (each re-arm is a
    /// trip through Dispatch's manager thread).
    private var lastActivity = DispatchTime.now()
    private var closeAfterFlush = false
    private(set) var isClosed = false
    /// Set while the connection streams `Watch` events.
    var onClose: (() -> Void)?
    var isWatching = false
    /// Gets each complete call; the call is answered through ``finishCall(_:)``.
    private var handler: ((ControlConnection, [UInt8]) -> Void)?
    /// Calls received while another is being answered. One call is handed
    /// over at a time, so replies keep the order of the calls (Varlink's rule)
    /// even when a change waits for its commit.
    private var waitingCalls: [[UInt8]] = []
    private var callInProgress = false
    /// Calls a client may send ahead of its replies; one more is refused and
    /// the connection closed, rather than queued without end.
    static let maxWaitingCalls = 64

    init(fd: Int32, peer: PeerCredentials, queue: DispatchQueue, loop: EventLoop, limits: ControlServer.Limits, buffer: ReceiveBuffer) {
        self.fd = fd
        self.buffer = buffer
        self.peer = peer
        self.queue = queue
        self.loop = loop
        self.limits = limits
        framer = VarlinkFramer(maxMessageSize: limits.maxMessageSize, maxImportSize: limits.maxImportSize)
    }

    /// Starts reading; `handle` gets each complete call, one at a time.
    /// Reads come through the event loop (one thread wake-up a request);
    /// a reply that does not fit in the socket waits for a Dispatch write source.
    func start(handle: @escaping (ControlConnection, [UInt8]) -> Void) {
        handler = handle
        let write = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        write.setEventHandler { [unowned self] in flush() }
        // The descriptor is closed once Dispatch has let go of it; the event
        // loop has stopped watching it before that (see close()).
        let fd = fd
        write.setCancelHandler { Glibc.close(fd) }
        writeSource = write
        resetIdleTimer()
        do throws(SystemError) {
            try loop.add(fd) { [weak self] in
                guard let self, !self.isClosed else { return }
                self.readAvailable()
            }
        } catch {
            close()
        }
    }

    private func readAvailable() {
        let bytes = buffer.bytes
        while !isClosed {
            let count = recv(fd, bytes.baseAddress, bytes.count, 0)
            if count > 0 {
                resetIdleTimer()
                let messages: [[UInt8]]
                do { messages = try framer.append(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) } catch {
                    // The peer is broken or hostile: say why, then hang up
                    // rather than buffer without end.
                    send(.error(.invalidRequest("message longer than \(error.limit) bytes; closing the connection")))
                    closeWhenFlushed()
                    return
                }
                for message in messages where !isClosed && !closeAfterFlush { receive(message) }
                if count < bytes.count { return }
            } else if count == 0 {
                close()
                return
            } else {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { close() }
                return
            }
        }
    }

    private func receive(_ call: [UInt8]) {
        guard waitingCalls.count < Self.maxWaitingCalls else {
            send(.error(.invalidRequest("more than \(Self.maxWaitingCalls) calls waiting for their replies; closing the connection")))
            closeWhenFlushed()
            return
        }
        waitingCalls.append(call)
        startNextCall()
    }

    private func startNextCall() {
        guard !callInProgress, !isClosed, !closeAfterFlush, !waitingCalls.isEmpty, let handler else { return }
        callInProgress = true
        handler(self, waitingCalls.removeFirst())
    }

    /// The call handed over last is done: send its reply (none for a oneway
    /// call or a `Watch` that goes on streaming) and hand over the next.
    func finishCall(_ reply: VarlinkReply?) {
        callInProgress = false
        if let reply { send(reply) }
        startNextCall()
    }

    /// Queues a reply and writes what the socket takes now.
    func send(_ reply: VarlinkReply) {
        guard !isClosed else { return }
        output += VarlinkFramer.frame(reply.json)
        flush()
        if isWatching, output.count > limits.maxWatchBacklog {
            // A subscriber that does not read must not make the daemon hold
            // events for it without bound.
            close()
        }
    }

    func closeWhenFlushed() {
        closeAfterFlush = true
        flush()
    }

    private func flush() {
        guard !isClosed else { return }
        while !output.isEmpty {
            let written = output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                output.removeFirst(written)
            } else if written < 0, errno == EINTR {
                continue
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                if !writeArmed { writeArmed = true; writeSource?.resume() }
                return
            } else {
                close()
                return
            }
        }
        if writeArmed { writeArmed = false; writeSource?.suspend() }
        if closeAfterFlush { close() }
    }

    /// Streaming connections stay open as long as they read; others time out.
    private func resetIdleTimer() {
        lastActivity = .now()
        guard !isWatching else { idleTimer?.cancel(); idleTimer = nil; return }
        guard idleTimer == nil else { return }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [unowned self] in idleTimerFired() }
        timer.schedule(deadline: .now() + limits.idleTimeout)
        timer.resume()
        idleTimer = timer
    }

    private func idleTimerFired() {
        let deadline = lastActivity + limits.idleTimeout
        if deadline <= .now() {
            close()
        } else {
            idleTimer?.schedule(deadline: deadline)
        }
    }

    func startWatching() {
        isWatching = true
        resetIdleTimer()
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        idleTimer?.cancel()
        idleTimer = nil
        // A suspended source must be resumed before it can be cancelled.
        if let writeSource {
            if !writeArmed { writeSource.resume() }
            writeSource.cancel()
        }
        loop.remove(fd)
        writeSource = nil
        waitingCalls.removeAll()
        handler = nil
        onClose?()
        onClose = nil
    }
}

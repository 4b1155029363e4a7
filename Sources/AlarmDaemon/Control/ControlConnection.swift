// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import CLinux
import Dispatch
import Glibc
import SystemCalls

/// The one receive buffer of all connections: they are read on the server's
/// queue, one at a time, and a fresh 64 KiB array for every read cost a
/// memset of it per request.
final class ReceiveBuffer {
    let bytes: UnsafeMutableRawBufferPointer

    init(size: Int = 65_536) { bytes = .allocate(byteCount: size, alignment: 16) }

    deinit { bytes.deallocate() }
}

/// One client connection: reads framed calls, writes replies without ever
/// blocking, and closes itself on EOF, error, oversize input, idleness, a
/// request that does not arrive whole in time, unfinished requests over the
/// shared budget, replies its client does not read in time, or a `Watch`
/// subscriber that stopped reading. Confined to the server's queue.
///
/// What waits to be sent is bounded the same way for replies and events:
/// past `limits.maxReplyBacklog` bytes the connection takes no more calls
/// and is not read (so it cannot make more replies) until its client has
/// read it back under, and it is closed if that has not happened
/// `limits.requestTimeout` after it went over; a `Watch` subscriber past
/// `limits.maxWatchBacklog` is dropped at once, since events cannot wait.
/// A client that reads nothing at all for `limits.idleTimeout` is idle,
/// whatever still waits for it.
final class ControlConnection {
    let fd: Int32
    let peer: PeerCredentials
    private let queue: DispatchQueue
    /// The owner's queue, which the connection is confined to.
    var ownerQueue: DispatchQueue { queue }
    private let loop: EventLoop
    private let limits: ControlServer.Limits
    private let buffer: ReceiveBuffer
    private let budget: RequestBudget
    /// Bytes of the unfinished request counted in `budget`.
    private var charged = 0
    private let replies: ReplyBudget
    /// Bytes not yet sent counted in `replies`.
    private var repliesCharged = 0
    /// When more than `limits.maxReplyBacklog` bytes came to wait to be
    /// sent; `nil` while no more do. Meanwhile the socket is out of the event
    /// loop and no call is handed over.
    private var overSince: DispatchTime?
    private var readingPaused: Bool { overSince != nil }
    private var framer: VarlinkFramer
    /// Bytes to send; those before `outputSent` are out already. Sending moves
    /// the offset, not the bytes: removing each written piece from the front
    /// of a 25 MB reply moved the rest every time, quadratic in its size.
    private var output: [UInt8] = []
    private var outputSent = 0
    private var unsent: Int { output.count - outputSent }
    /// Whether the loop watches for room to write (a reply that did not fit).
    private var writeArmed = false
    /// Asks the server to look at this connection by then (see
    /// ``ControlServer``'s deadline timer, one for all connections).
    private let wake: (DispatchTime) -> Void
    /// When the client last sent something or took some of what was sent
    /// (for the idle timeout).
    private var lastActivity = DispatchTime.now()
    /// When the first byte of the request still arriving came; `nil` between
    /// requests. A request must be whole `limits.requestTimeout` after it, so
    /// a byte now and then cannot hold a connection open for good.
    private var requestStarted: DispatchTime?
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

    init(fd: Int32, peer: PeerCredentials, queue: DispatchQueue, loop: EventLoop, limits: ControlServer.Limits, buffer: ReceiveBuffer, budget: RequestBudget,
         replies: ReplyBudget, wake: @escaping (DispatchTime) -> Void) {
        self.fd = fd
        self.wake = wake
        self.buffer = buffer
        self.budget = budget
        self.replies = replies
        self.peer = peer
        self.queue = queue
        self.loop = loop
        self.limits = limits
        framer = VarlinkFramer(maxMessageSize: limits.maxMessageSize, largeMethods: ControlServer.importMethods, maxLargeSize: limits.maxImportSize)
    }

    /// Starts reading; `handle` gets each complete call, one at a time.
    /// Reads come through the event loop (one thread wake-up a request);
    /// a reply that does not fit in the socket waits until the loop sees
    /// room (``waitUntilWritable()``).
    func start(handle: @escaping (ControlConnection, [UInt8]) -> Void) {
        assertOnOwner()
        handler = handle
        askForCheck()
        watchReadable()
    }

    /// Puts the socket in the event loop, reading from it whenever it is readable.
    private func watchReadable() {
        do throws(SystemError) {
            try loop.add(fd) { [weak self] in
                guard let self, !self.isClosed, !self.readingPaused else { return }
                self.readAvailable()
            }
        } catch {
            close()
        }
    }

    private func readAvailable() {
        let bytes = buffer.bytes
        while !isClosed, !readingPaused {
            let count = recv(fd, bytes.baseAddress, bytes.count, 0)
            if count > 0 {
                lastActivity = .now()
                let messages: [[UInt8]]
                do { messages = try framer.append(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) } catch {
                    // The peer is broken or hostile: say why, then hang up
                    // rather than buffer without end.
                    send(.error(.invalidRequest("message longer than \(error.limit) bytes; closing the connection")))
                    closeWhenFlushed()
                    return
                }
                for message in messages where !isClosed && !closeAfterFlush { receive(message) }
                guard !isClosed, trackUnfinishedRequest(startedAfresh: !messages.isEmpty) else { return }
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
        guard !callInProgress, !isClosed, !closeAfterFlush, !readingPaused, !waitingCalls.isEmpty, let handler else { return }
        callInProgress = true
        handler(self, waitingCalls.removeFirst())
    }

    /// The call handed over last is done: send its reply (none for a oneway
    /// call or a `Watch` that goes on streaming) and hand over the next.
    func finishCall(_ reply: VarlinkReply?) {
        assertOnOwner()
        finishCall(framed: reply.map { VarlinkFramer.frame($0.json) })
    }

    /// The same with the reply already framed (encoded on a worker).
    func finishCall(framed reply: [UInt8]?) {
        assertOnOwner()
        callInProgress = false
        lastActivity = .now()
        if let reply { send(framed: reply) }
        startNextCall()
    }

    /// Queues a reply and writes what the socket takes now.
    func send(_ reply: VarlinkReply) {
        assertOnOwner()
        send(framed: VarlinkFramer.frame(reply.json))
    }

    /// Replies at least this large leave glibc's allocator holding the pages
    /// they used (freed memory stays in its arenas): once one is out, the
    /// buffer is let go and the allocator asked to return what it can, so a
    /// list of 100,000 alarms does not leave the daemon 350 MB larger for good.
    static let trimAfterBytes = 4 << 20
    private var sentLargeReply = false

    func send(framed bytes: [UInt8]) {
        assertOnOwner()
        guard !isClosed else { return }
        if bytes.count >= Self.trimAfterBytes { sentLargeReply = true }
        if unsent == 0 {
            // Taken as it is: appending would copy a reply of megabytes.
            output = bytes
            outputSent = 0
        } else {
            output += bytes
        }
        flush()
        if isWatching, unsent > limits.maxWatchBacklog {
            // A subscriber that does not read must not make the daemon hold
            // events for it without bound.
            close()
        }
    }

    func closeWhenFlushed() {
        assertOnOwner()
        closeAfterFlush = true
        flush()
    }

    private func flush() {
        guard !isClosed else { return }
        defer { followBacklog() }
        while unsent > 0 {
            let written = output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + outputSent, $0.count - outputSent, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                outputSent += written
                lastActivity = .now()
            } else if written < 0, errno == EINTR {
                continue
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                waitUntilWritable()
                return
            } else {
                close()
                return
            }
        }
        if writeArmed {
            writeArmed = false
            loop.stopWritable(fd)
        }
        outputSent = 0
        if sentLargeReply {
            sentLargeReply = false
            output = []
            DispatchQueue.global(qos: .utility).async { _ = malloc_trim(0) }
        } else {
            output.removeAll(keepingCapacity: true)
        }
        if closeAfterFlush { close() }
    }

    /// After a flush: counts what waits in the shared reply budget, and
    /// stops or resumes reading as it passes `limits.maxReplyBacklog`.
    private func followBacklog() {
        guard !isClosed else { return }
        let waiting = unsent
        if waiting != repliesCharged {
            let charged = repliesCharged
            repliesCharged = waiting
            replies.recharge(from: charged, to: waiting)
        }
        let over = waiting > limits.maxReplyBacklog
        if over, overSince == nil {
            overSince = .now()
            loop.stopReadable(fd)
            askForCheck()
        } else if !over, overSince != nil {
            overSince = nil
            watchReadable()
            startNextCall()
        }
    }

    /// The socket is full: flushing goes on once the client has read.
    private func waitUntilWritable() {
        guard !writeArmed else { return }
        do throws(SystemError) {
            try loop.addWritable(fd) { [weak self] in
                guard let self, !isClosed else { return }
                flush()
            }
            writeArmed = true
        } catch {
            close()
        }
    }

    /// After a read: starts the request deadline when a new request is left
    /// unfinished, and counts what is held in the shared budget. A request
    /// that arrived whole (nearly all) costs two comparisons. `false` when the
    /// budget refused the read and the connection is closed.
    private func trackUnfinishedRequest(startedAfresh: Bool) -> Bool {
        let pending = framer.pendingByteCount
        if pending == 0 {
            requestStarted = nil
        } else if startedAfresh || requestStarted == nil {
            // The last read completed the previous request, if any, so this one began in it.
            requestStarted = lastActivity
            askForCheck()
        }
        let isImport = framer.pendingIsLargeCall
        guard pending != charged || isImport else { return true }
        guard let charge = budget.recharge(ObjectIdentifier(self), from: charged, pending: pending, isImport: isImport) else {
            refuse("unfinished requests would hold more than \(budget.limit) bytes across all connections")
            return false
        }
        charged = charge
        return true
    }

    /// The next moment to look at the connection: its request's deadline,
    /// and unless it streams `Watch` events (those stay open as long as they
    /// read, bounded by their backlog) its idle deadline and the one by which
    /// its client must have read its replies back under the backlog. `nil`
    /// once closed.
    var nextDeadline: DispatchTime? {
        guard !isClosed else { return nil }
        let request = requestStarted.map { $0 + limits.requestTimeout }
        guard !isWatching else { return request }
        var due = lastActivity + limits.idleTimeout
        if let request { due = min(due, request) }
        if let overSince { due = min(due, overSince + limits.requestTimeout) }
        return due
    }

    private func askForCheck() {
        if let deadline = nextDeadline { wake(deadline) }
    }

    /// `nextDeadline` has passed (the server looks when the earliest of all
    /// connections' has): a request not whole in time is refused, a
    /// connection whose client has not read its replies in time or that is
    /// idle is closed. One still being answered is not idle: its idle time
    /// starts over.
    func deadlinePassed(now: DispatchTime) {
        assertOnOwner()
        if let requestStarted, requestStarted + limits.requestTimeout <= now {
            refuse("request not complete \(Int(limits.requestTimeout)) s after its first byte")
        } else if !isWatching, let overSince, overSince + limits.requestTimeout <= now {
            // Its client does not read: an error would only wait behind the rest.
            close()
        } else if callInProgress {
            lastActivity = now
        } else if !isWatching, lastActivity + limits.idleTimeout <= now {
            close()
        }
    }

    /// Says why, then hangs up at once, whether or not the client reads the
    /// reply: what the connection holds is freed now.
    private func refuse(_ reason: String) {
        send(.error(.invalidRequest(reason + "; closing the connection")))
        close()
    }

    /// From now on only a request's deadline applies (see ``nextDeadline``).
    func startWatching() {
        assertOnOwner()
        isWatching = true
    }

    func close() {
        assertOnOwner()
        guard !isClosed else { return }
        isClosed = true
        budget.release(ObjectIdentifier(self), charged: charged)
        charged = 0
        replies.recharge(from: repliesCharged, to: 0)
        repliesCharged = 0
        // What was never sent is let go now, not with the connection.
        let large = output.count >= Self.trimAfterBytes
        output = []
        outputSent = 0
        if large { DispatchQueue.global(qos: .utility).async { _ = malloc_trim(0) } }
        loop.remove(fd)
        Glibc.close(fd)
        writeArmed = false
        waitingCalls.removeAll()
        handler = nil
        onClose?()
        onClose = nil
    }
}

extension ControlConnection {
    /// A connection is the owner's: every entry asserts it, in debug builds.
    @inline(__always)
    func assertOnOwner() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(ownerQueue))
        #endif
    }
}

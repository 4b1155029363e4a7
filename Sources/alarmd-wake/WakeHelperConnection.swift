// SPDX-License-Identifier: Apache-2.0
import AlarmWake
import CLinux
import Dispatch
import Glibc
import VarlinkCore

/// One client of `alarmd-wake`, on the helper's queue: reads messages of at
/// most ``WakeInterface/maxMessageSize`` bytes, hands each to the helper, and
/// writes the replies, buffering at most ``WakeHelper/maxPendingOutput`` for a
/// peer that does not read. A message over the limit is answered with
/// `InvalidParameter` and the connection closed.
final class WakeHelperConnection {
    let fd: Int32
    /// Who is on the other end (`SO_PEERCRED` at accept).
    let uid: UInt32
    /// When (monotonic nanoseconds) the helper closes this connection unless
    /// a whole message comes first; `nil` while it holds its user's wake-up.
    var deadline: UInt64?
    private let queue: DispatchQueue
    private unowned let helper: WakeHelper
    private var framer = VarlinkFramer(maxMessageSize: WakeInterface.maxMessageSize)
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
    private var pending: [UInt8] = []
    /// Set once the last reply is queued: close when it is out.
    private var closing = false

    init(fd: Int32, uid: UInt32, queue: DispatchQueue, helper: WakeHelper) {
        self.fd = fd
        self.uid = uid
        self.queue = queue
        self.helper = helper
    }

    func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in self?.readAvailable() }
        source.resume()
        readSource = source
    }

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !closing {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, alarmd_msg_dontwait()) }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            guard count > 0 else { return finish() }
            let messages: [[UInt8]]
            do throws(VarlinkFramer.Oversize) { messages = try framer.append(buffer[..<count]) } catch {
                closing = true
                return send(.error(WakeError.oversize(error).varlinkError))
            }
            for message in messages {
                if let reply = helper.handle(message, from: self) { send(reply) }
                if closing { return }
            }
        }
    }

    private func send(_ reply: VarlinkReply) {
        pending += VarlinkFramer.frame(reply.json)
        guard pending.count <= WakeHelper.maxPendingOutput else { return finish() }
        flush()
    }

    private func flush() {
        while !pending.isEmpty {
            let sent = pending.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, alarmd_msg_nosignal() | alarmd_msg_dontwait()) }
            if sent < 0, errno == EINTR { continue }
            if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                if writeSource == nil {
                    let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
                    source.setEventHandler { [weak self] in self?.flush() }
                    source.resume()
                    writeSource = source
                }
                return
            }
            guard sent > 0 else { return finish() }
            pending.removeFirst(sent)
        }
        writeSource?.cancel()
        writeSource = nil
        if closing { finish() }
    }

    /// Stops watching the socket, closes it once Dispatch has let go of it
    /// in both sources (the write source's cancellation first, then the
    /// read source's, whose handler closes), and tells the helper.
    func finish() {
        closing = true
        guard let source = readSource else { return }
        readSource = nil
        let fd = fd
        source.setCancelHandler { close(fd) }
        if let writeSource {
            writeSource.setCancelHandler { source.cancel() }
            writeSource.cancel()
        } else {
            source.cancel()
        }
        writeSource = nil
        helper.closed(self)
    }
}

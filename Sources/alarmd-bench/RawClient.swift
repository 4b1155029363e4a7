// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import Glibc

/// A blocking Varlink connection on a raw Unix stream socket, as lean as a
/// client can be: requests are pre-framed bytes (JSON + NUL) and replies are
/// handed back as raw bytes, so the hot loops measure the daemon, not a JSON
/// library.
final class RawClient {
    enum Failure: Error, CustomStringConvertible {
        case connect(String)
        case send(String, sent: Int)
        case receive(String)
        case closed(received: Int)
        case timedOut

        var description: String {
            switch self {
            case .connect(let reason): return "cannot connect: \(reason)"
            case .send(let reason, let sent): return "send failed after \(sent) bytes: \(reason)"
            case .receive(let reason): return "receive failed: \(reason)"
            case .closed(let received): return "the daemon closed the connection (\(received) bytes unread in the last message)"
            case .timedOut: return "timed out waiting for the daemon"
            }
        }
    }

    let fd: Int32
    /// Received bytes not yet returned; messages start at `start`.
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the NUL search resumes.
    private var scanned = 0
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    init(path: String) throws(Failure) {
        do throws(UnixSocketAddress.Failure) { fd = try UnixSocketAddress(path).connect() } catch {
            throw .connect(error.description)
        }
    }

    deinit { close(fd) }

    /// Frames a call: `{"method": M, "parameters": P}` and a NUL.
    /// The frames of a run of calls: `{n}` in `parameters` becomes each
    /// call's number (`"label":"add {n}"`), so that calls which must differ,
    /// as adds of alarms that are not twins do, can; without it, one frame
    /// serves every call.
    struct Frames {
        private let method: String, parameters: String, numbered: Bool
        private let fixed: [UInt8]
        init(method: String, parameters: String) {
            (self.method, self.parameters, numbered) = (method, parameters, parameters.contains("{n}"))
            fixed = RawClient.frame(method: method, parameters: parameters)
        }
        func callNumber(_ n: Int) -> [UInt8] {
            numbered ? RawClient.frame(method: method, parameters: parameters.replacing("{n}", with: String(n))) : fixed
        }
    }

    static func frame(method: String, parameters: String = "{}", more: Bool = false) -> [UInt8] {
        var text = "{\"method\":\"\(method)\",\"parameters\":\(parameters)"
        if more { text += ",\"more\":true" }
        text += "}"
        var bytes = Array(text.utf8)
        bytes.append(0)
        return bytes
    }

    /// Writes all of `bytes`.
    func send(_ bytes: [UInt8]) throws(Failure) {
        try Self.send(bytes, on: fd)
    }

    /// Writes all of `bytes` to the stream socket `fd` (the floor server's
    /// replies come this way too).
    static func send(_ bytes: [UInt8], on fd: Int32) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw .send(String(cString: strerror(errno)), sent: offset)
            }
            offset += written
        }
    }

    /// Reads more bytes into the buffer; returns how many (0 at end of stream).
    @discardableResult
    func fill() throws(Failure) -> Int {
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { throw .timedOut }
                throw .receive(String(cString: strerror(code)))
            }
            if count > 0 {
                if start > 0 && start == buffer.count {
                    buffer.removeAll(keepingCapacity: true)
                    start = 0
                    scanned = 0
                }
                buffer.append(contentsOf: chunk[0..<count])
            }
            return count
        }
    }

    /// The next complete message, if one is buffered.
    func nextBuffered() -> ArraySlice<UInt8>? {
        var index = scanned
        while index < buffer.count {
            if buffer[index] == 0 {
                let message = buffer[start..<index]
                start = index + 1
                scanned = start
                return message
            }
            index += 1
        }
        scanned = buffer.count
        return nil
    }

    /// Blocks until a whole message is there and returns it (without the NUL).
    func receive() throws(Failure) -> ArraySlice<UInt8> {
        while true {
            if let message = nextBuffered() { return message }
            compact()
            if try fill() == 0 { throw .closed(received: buffer.count - start) }
        }
    }

    /// Drops consumed bytes once they dominate the buffer.
    private func compact() {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
    }

    /// One request, one reply.
    @inline(__always)
    func call(_ request: [UInt8]) throws(Failure) -> ArraySlice<UInt8> {
        try send(request)
        return try receive()
    }
}

extension ArraySlice<UInt8> {
    /// Whether this reply is a Varlink error (`{"error":…`; the daemon writes
    /// compact JSON with `error` first).
    var isVarlinkError: Bool {
        let prefix: [UInt8] = Array("{\"error\"".utf8)
        return starts(with: prefix)
    }

    var text: String { String(decoding: self, as: UTF8.self) }

    /// Whether `needle` occurs in these bytes.
    func contains(bytes needle: [UInt8]) -> Bool {
        guard needle.count <= count, let first = needle.first else { return false }
        var index = startIndex
        let last = endIndex - needle.count
        while index <= last {
            if self[index] == first && self[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}

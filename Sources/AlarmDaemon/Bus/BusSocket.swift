// SPDX-License-Identifier: Apache-2.0
import BusWire
import CLinux
import Glibc
import SystemCalls

/// A bus connection's socket: connecting to one of a bus address's Unix
/// sockets, the authentication that opens a D-Bus connection (`EXTERNAL`,
/// by the process's uid, and descriptor passing asked for), and the blocking
/// and non-blocking reads and writes of the byte stream. The descriptor is
/// non-blocking; whatever waits does so in poll(2), until a deadline.
enum BusSocket {
    /// The first of `addresses` that accepts a connection and authenticates
    /// it before `deadline` (a `CLOCK_MONOTONIC` instant in microseconds).
    static func open(_ addresses: [UnixAddress], deadline: Int64) throws(SystemError) -> FileDescriptor {
        var failure = SystemError("D-Bus: no Unix socket in the bus address", code: ENOENT)
        for address in addresses {
            do throws(SystemError) {
                let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                let fd = FileDescriptor(try systemCall("socket") { socket(AF_UNIX, flags, 0) })
                try connect(fd.rawValue, to: address, deadline: deadline)
                try authenticate(fd.rawValue, deadline: deadline)
                return fd
            } catch {
                failure = error
            }
        }
        throw failure
    }

    /// A non-blocking connect: a Unix socket whose listener's backlog is full
    /// refuses with `EAGAIN` rather than waiting, so it is tried again, every
    /// 10 ms, until `deadline`.
    private static func connect(_ fd: Int32, to address: UnixAddress, deadline: Int64) throws(SystemError) {
        while true {
            let result = try address.withSockaddr { Glibc.connect(fd, $0, $1) }
            if result == 0 { return }
            switch errno {
            case EINTR: continue
            case EAGAIN where clockMicroseconds(CLOCK_MONOTONIC) < deadline: usleep(10_000)
            case EINPROGRESS:
                try wait(fd, for: Int16(POLLOUT), deadline: deadline)
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 else {
                    throw SystemError("D-Bus connect \(address)", code: failure == 0 ? errno : failure)
                }
                return
            case let code: throw SystemError("D-Bus connect \(address)", code: code)
            }
        }
    }

    /// The longest line the bus may answer with while authenticating.
    static let maximumAuthenticationLine = 512

    /// A NUL byte and `AUTH EXTERNAL` with the uid in hex, answered `OK`;
    /// `NEGOTIATE_UNIX_FD`, answered either way; `BEGIN`. Each answer is
    /// waited for before the next line goes.
    private static func authenticate(_ fd: Int32, deadline: Int64) throws(SystemError) {
        let uid = Array(String(getuid()).utf8).map { String($0, radix: 16) }.joined()
        try send(fd, [0] + Array("AUTH EXTERNAL \(uid)\r\n".utf8), deadline: deadline)
        guard try line(fd, deadline: deadline).hasPrefix("OK ") else { throw SystemError("D-Bus authentication refused", code: EACCES) }
        try send(fd, Array("NEGOTIATE_UNIX_FD\r\n".utf8), deadline: deadline)
        // A bus that cannot pass descriptors says ERROR, and the connection goes on without.
        _ = try line(fd, deadline: deadline)
        try send(fd, Array("BEGIN\r\n".utf8), deadline: deadline)
    }

    /// One line of the authentication dialogue, read a byte at a time so that
    /// nothing after it is taken from the stream.
    private static func line(_ fd: Int32, deadline: Int64) throws(SystemError) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < maximumAuthenticationLine {
            let count = read(fd, &byte, 1)
            if count == 1 {
                if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
                if byte != UInt8(ascii: "\r") { bytes.append(byte) }
                continue
            }
            if count == 0 { throw SystemError("D-Bus authentication: the bus closed the connection", code: ECONNRESET) }
            guard errno == EAGAIN || errno == EINTR else { throw SystemError("D-Bus authentication", code: errno) }
            try wait(fd, for: Int16(POLLIN), deadline: deadline)
        }
        throw SystemError("D-Bus authentication: an answer longer than \(maximumAuthenticationLine) bytes", code: EBADMSG)
    }

    /// Writes all of `bytes`, waiting for room until `deadline`. `ETIMEDOUT`
    /// only when nothing was written; a message cut short is `EPROTO`: the
    /// stream is then out of step, and the connection beyond use.
    static func send(_ fd: Int32, _ bytes: [UInt8], deadline: Int64) throws(SystemError) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, alarmd_msg_nosignal()) }
            if count > 0 {
                sent += count
                continue
            }
            guard count < 0, errno == EAGAIN || errno == EINTR else { throw SystemError("D-Bus send", code: count == 0 ? EPIPE : errno) }
            do throws(SystemError) { try wait(fd, for: Int16(POLLOUT), deadline: deadline) } catch {
                throw sent == 0 ? error : SystemError("D-Bus send: a message cut short after \(sent) of \(bytes.count) bytes", code: EPROTO)
            }
        }
    }

    /// What one read brought.
    enum Received {
        case bytes
        case nothing
        case closed
    }

    /// Reads what is there (bytes and descriptors) into `framer`, without waiting.
    static func receive(_ fd: Int32, into framer: inout BusFramer) throws(SystemError) -> Received {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var descriptors = [Int32](repeating: -1, count: 16)
        var count: Int32 = 0
        let result = buffer.withUnsafeMutableBytes { alarmd_receive(fd, $0.baseAddress, $0.count, &descriptors, Int32(descriptors.count), &count) }
        let received = descriptors.prefix(Int(count)).map(FileDescriptor.init)
        if result > 0 {
            buffer.withUnsafeBytes { framer.receive(UnsafeRawBufferPointer(rebasing: $0.prefix(result)), descriptors: received) }
            return .bytes
        }
        if result == 0 { return .closed }
        guard errno == EAGAIN || errno == EINTR else { throw SystemError("D-Bus receive", code: errno) }
        return .nothing
    }

    /// Waits until `fd` is ready for `events`, or throws `ETIMEDOUT` at `deadline`.
    static func wait(_ fd: Int32, for events: Int16, deadline: Int64) throws(SystemError) {
        while true {
            let left = (deadline - clockMicroseconds(CLOCK_MONOTONIC) + 999) / 1000
            guard left > 0 else { throw SystemError("D-Bus: no answer in time", code: ETIMEDOUT) }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(left, Int64(Int32.max))))
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw SystemError("D-Bus poll", code: errno) }
        }
    }
}

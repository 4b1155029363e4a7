// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import Foundation
import Glibc

/// `floor`: a server that does nothing, for the machine's floor under the
/// `Status` round trip. It answers every NUL-terminated message on its socket
/// with a fixed reply of `--reply-bytes` bytes (the size of a `Status` reply),
/// reading and writing on one blocking thread per connection: one thread
/// wake-up per call, as alarmd's event loop has.
///
/// On a two-vCPU virtual machine a round trip costs about 6 µs when the
/// kernel keeps client and server on one vCPU and about 100 µs when it puts
/// them on two (each wake-up of a halted vCPU goes through the hypervisor).
/// `bench/run` times the same `rtt` client against this and against alarmd in
/// one run, so the report shows how much of alarmd's figure is the machine's.
enum FloorServer {
    static func run(_ options: Options) throws {
        let path = try options.required("socket")
        let replyBytes = max(1, try options.int("reply-bytes", default: 460))
        let address = try UnixSocketAddress(path)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno)))") }
        unlink(path)
        let bound = address.withSockaddr { Glibc.bind(listener, $0, $1) }
        guard bound == 0, listen(listener, 16) == 0 else { throw BenchError("bind/listen \(path): \(String(cString: strerror(errno)))") }
        // The harness waits for this line before it starts the client.
        FileHandle.standardOutput.write(Data("LISTENING\n".utf8))
        let reply = [UInt8](repeating: UInt8(ascii: "x"), count: replyBytes - 1) + [0]
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                throw BenchError("accept: \(String(cString: strerror(errno)))")
            }
            let thread = Thread { serve(connection, reply: reply) }
            thread.start()
        }
    }

    /// Answers each complete message until the client closes.
    private static func serve(_ fd: Int32, reply: [UInt8]) {
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            // Clients here send one call and wait for its reply, so each NUL
            // read is one call to answer.
            let calls = chunk[..<count].reduce(0) { $0 + ($1 == 0 ? 1 : 0) }
            for _ in 0..<calls {
                do { try RawClient.send(reply, on: fd) } catch { return }
            }
        }
    }
}

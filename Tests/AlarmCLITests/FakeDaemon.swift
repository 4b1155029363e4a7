// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc

/// A stand-in for alarmd on a Unix socket: records each Varlink call alarmctl
/// makes and answers with canned replies, so output can be compared exactly
/// with fixed ids and times, and requests checked member by member.
final class FakeDaemon: @unchecked Sendable {
    /// One call as received.
    struct Call {
        let method: String
        let parameters: [String: Any]
        let more: Bool
    }

    /// Replies for one call: JSON texts of whole reply messages, sent in order.
    typealias Handler = @Sendable (Call) -> [String]

    let directory: String
    let socketPath: String
    private let listener: Int32
    private let handler: Handler
    private let lock = NSLock()
    private var received: [Call] = []

    init(_ handler: @escaping Handler) {
        var template = Array((NSTemporaryDirectory() + "/alarmctl-fake-XXXXXX").utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        socketPath = directory + "/io.alarmd"
        self.handler = handler
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in socketPath.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        precondition(bound == 0 && listen(listener, 8) == 0, "fake daemon cannot listen: \(errno)")
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Answers every call of `method` with `parameters`, and anything else with MethodNotFound.
    convenience init(replies: [String: String]) {
        self.init { call in
            let member = String(call.method.split(separator: ".").last ?? "")
            guard let parameters = replies[member] else {
                return [#"{"error":"org.varlink.service.MethodNotFound","parameters":{"method":"\#(call.method)"}}"#]
            }
            return [parameters.hasPrefix(#"{"error""#) ? parameters : #"{"parameters":\#(parameters)}"#]
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        try? FileManager.default.removeItem(atPath: directory)
    }

    var calls: [Call] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            buffer += chunk[0..<count]
            while let end = buffer.firstIndex(of: 0) {
                let message = Data(buffer[..<end])
                buffer.removeFirst(end + 1)
                guard let object = try? JSONSerialization.jsonObject(with: message) as? [String: Any] else { return }
                let call = Call(method: object["method"] as? String ?? "", parameters: object["parameters"] as? [String: Any] ?? [:], more: object["more"] as? Bool ?? false)
                lock.lock()
                received.append(call)
                lock.unlock()
                for reply in handler(call) {
                    let bytes = Array(reply.utf8) + [0]
                    let sent = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard sent == bytes.count else { return }
                }
            }
        }
    }
}

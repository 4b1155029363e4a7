// SPDX-License-Identifier: Apache-2.0
import CLinux
import Dispatch
import Glibc

/// Delivers signals on a Dispatch queue instead of in an async-signal
/// context: the handlers are installed with sigaction before `init` returns,
/// and each only writes the signal's number to a socket read on `queue`.
final class SignalPipe {
    private let source: DispatchSourceRead

    init(_ signals: [Int32], queue: DispatchQueue, handler: @escaping (Int32) -> Void) throws(SystemError) {
        let (fd, writeFD) = try HelperSocket.pair()
        // A full socket drops the byte rather than block inside a signal handler.
        HelperSocket.setNonBlocking(writeFD)
        HelperSocket.setNonBlocking(fd)
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setCancelHandler { close(fd) }
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                for byte in bytes.prefix(count) { handler(Int32(byte)) }
            }
        }
        source.resume()
        // The write end stays open for the life of the process: the handlers
        // stay installed, and a late signal's byte must not land in a file
        // that reused the number.
        for number in signals {
            _ = try systemCall("sigaction \(number)") { alarmd_catch_signal(number, writeFD) }
        }
    }

    deinit { source.cancel() }
}

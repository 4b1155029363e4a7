// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// Delivers signals on the owner instead of in an async-signal context.
///
/// The handlers are installed with sigaction before `init` returns (so a
/// signal sent the moment READY=1 goes out is not lost); each only writes the
/// signal's number to a socket, which the owner's event loop reads.
final class SignalWatcher {
    /// The read end; the write end is the signal handlers', kept open for
    /// the life of the process (see `init`).
    private let source: LoopSource

    init(_ signals: [Int32], owner: Owner, handler: @escaping (Int32) -> Void) throws(SystemError) {
        let (fd, writeFD) = try UnixSocket.pair()
        // A full socket drops the byte rather than block inside a signal handler.
        UnixSocket.setNonBlocking(writeFD)
        UnixSocket.setNonBlocking(fd)
        source = LoopSource(fd: fd, loop: owner.loop)
        do throws(SystemError) {
            try source.activate {
                var bytes = [UInt8](repeating: 0, count: 64)
                while true {
                    let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                    guard count > 0 else { return }
                    for byte in bytes.prefix(count) { handler(Int32(byte)) }
                }
            }
        } catch {
            close(writeFD)
            throw error
        }
        // The write end is never closed: the handlers stay installed after
        // this watcher goes, and a closed number may be reused by any file,
        // which a late signal's byte would then be written into.
        for number in signals {
            _ = try systemCall("sigaction \(number)") { alarmd_catch_signal(number, writeFD) }
        }
    }
}

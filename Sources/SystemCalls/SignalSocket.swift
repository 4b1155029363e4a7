// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// Signals by the self-pipe trick: the handlers, installed with sigaction
/// before ``install(_:)`` returns, only write the signal's number to a
/// non-blocking socket, which its owner reads on its own queue or loop.
public enum SignalSocket {
    /// Installs handlers for `signals`; the returned descriptor is the read
    /// end, non-blocking. The write end is never closed: the handlers stay
    /// installed for the life of the process, and a closed number may be
    /// reused by any file, which a late signal's byte would then be written into.
    public static func install(_ signals: [Int32]) throws(SystemError) -> Int32 {
        let (readFD, writeFD) = try StreamSocket.pair()
        // A full socket drops the byte rather than block inside a signal handler.
        StreamSocket.setNonBlocking(writeFD)
        StreamSocket.setNonBlocking(readFD)
        for number in signals {
            _ = try systemCall("sigaction \(number)") { alarmd_catch_signal(number, writeFD) }
        }
        return readFD
    }

    /// Reads every signal number waiting on `fd`, each to `handler`.
    public static func drain(_ fd: Int32, _ handler: (Int32) -> Void) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            for byte in bytes.prefix(count) { handler(Int32(byte)) }
        }
    }
}

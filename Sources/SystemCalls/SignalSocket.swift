// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// Signals by the self-pipe trick: the handlers only write the signal's
/// number to a non-blocking socket, which its owner reads on its own queue
/// or loop. The owner watches the read end of ``pair()`` first, then
/// installs the handlers with ``catchSignals(_:writingTo:)``, so that no
/// handler ever writes to a socket nobody reads.
public enum SignalSocket {
    /// The two ends, both non-blocking: a full socket drops the byte rather
    /// than block inside a signal handler.
    public static func pair() throws(SystemError) -> (read: Int32, write: Int32) {
        let (readFD, writeFD) = try StreamSocket.pair()
        StreamSocket.setNonBlocking(readFD)
        StreamSocket.setNonBlocking(writeFD)
        return (readFD, writeFD)
    }

    /// Installs handlers for `signals` (sigaction) writing to `writeFD`,
    /// which is never closed after: the handlers stay installed for the life
    /// of the process, and a closed number may be reused by any file, which
    /// a late signal's byte would then be written into.
    public static func catchSignals(_ signals: [Int32], writingTo writeFD: Int32) throws(SystemError) {
        for number in signals {
            _ = try systemCall("sigaction \(number)") { alarmd_catch_signal(number, writeFD) }
        }
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

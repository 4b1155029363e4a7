// SPDX-License-Identifier: Apache-2.0
import Glibc
import SystemCalls

/// Delivers signals on the owner instead of in an async-signal context
/// (``SignalSocket``): the handlers are installed before `init` returns, so
/// a signal sent the moment READY=1 goes out is not lost.
final class SignalWatcher {
    /// The read end; the write end is the signal handlers', kept open for
    /// the life of the process.
    private let source: LoopSource

    init(_ signals: [Int32], owner: Owner, handler: @escaping (Int32) -> Void) throws(SystemError) {
        let (fd, writeFD) = try SignalSocket.pair()
        source = LoopSource(fd: fd, loop: owner.loop)
        do throws(SystemError) {
            try source.activate { SignalSocket.drain(fd, handler) }
        } catch {
            close(writeFD)
            throw error
        }
        try SignalSocket.catchSignals(signals, writingTo: writeFD)
    }
}

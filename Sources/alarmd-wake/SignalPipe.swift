// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Glibc
import SystemCalls

/// Delivers signals on a Dispatch queue instead of in an async-signal
/// context (``SignalSocket``): the handlers are installed, once the queue
/// watches the socket, before `init` returns.
final class SignalPipe {
    private let source: DispatchSourceRead

    init(_ signals: [Int32], queue: DispatchQueue, handler: @escaping (Int32) -> Void) throws(SystemError) {
        let (fd, writeFD) = try SignalSocket.pair()
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setCancelHandler { close(fd) }
        source.setEventHandler { SignalSocket.drain(fd, handler) }
        source.resume()
        try SignalSocket.catchSignals(signals, writingTo: writeFD)
    }

    deinit { source.cancel() }
}

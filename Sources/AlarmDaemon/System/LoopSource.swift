// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization
import SystemCalls

/// A descriptor the owner's ``EventLoop`` watches for reading, owned by this
/// source: closed when the source is cancelled or goes, right after the loop
/// has stopped watching it.
///
/// The handler runs on the owner and only while the source is active: a
/// handler the loop picked up just before ``cancel()`` does not run on a
/// closed descriptor, or on another file given its number since.
final class LoopSource: Sendable {
    let fd: Int32
    private let loop: EventLoop
    private let cancelled = Atomic<Bool>(false)

    /// Watches `fd` once activated.
    init(fd: Int32, loop: EventLoop) {
        self.fd = fd
        self.loop = loop
    }

    /// Runs `handler` on the owner whenever the descriptor is readable.
    func activate(_ handler: @escaping () -> Void) throws(SystemError) {
        try loop.add(fd) { [weak self] in
            guard let self, !cancelled.load(ordering: .relaxed) else { return }
            handler()
        }
    }

    /// Stops watching and closes the descriptor. Safe to call more than once.
    func cancel() {
        guard !cancelled.exchange(true, ordering: .relaxed) else { return }
        loop.remove(fd)
        close(fd)
    }

    deinit { cancel() }
}

// SPDX-License-Identifier: Apache-2.0
import Glibc
import Synchronization

/// A descriptor the owner's ``EventLoop`` watches for reading, owned by this
/// source: given back (closed, or `release`d) when the source is cancelled or
/// goes, right after the loop has stopped watching it.
///
/// The handler runs on the owner and only while the source is active: a
/// handler the loop picked up just before ``cancel()`` does not run on a
/// closed descriptor, or on another file given its number since.
final class LoopSource: Sendable {
    let fd: Int32
    private let loop: EventLoop
    private let release: @Sendable () -> Void
    private let active = Atomic<Bool>(false)
    private let released = Atomic<Bool>(false)

    /// Watches `fd` once activated. `release` gives the descriptor back;
    /// `close(2)` when `nil` (a library that owns the descriptor, like
    /// sd-bus, passes its own).
    init(fd: Int32, loop: EventLoop, release: (@Sendable () -> Void)? = nil) {
        self.fd = fd
        self.loop = loop
        self.release = release ?? { close(fd) }
    }

    /// Runs `handler` on the owner whenever the descriptor is readable.
    func activate(_ handler: @escaping () -> Void) throws(SystemError) {
        active.store(true, ordering: .relaxed)
        try loop.add(fd) { [weak self] in
            guard let self, active.load(ordering: .relaxed) else { return }
            handler()
        }
    }

    /// Stops watching and gives the descriptor back. Safe to call more than once.
    func cancel() {
        active.store(false, ordering: .relaxed)
        guard !released.exchange(true, ordering: .relaxed) else { return }
        loop.remove(fd)
        release()
    }

    deinit { cancel() }
}

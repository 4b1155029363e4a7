// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Glibc
import Synchronization

/// A Dispatch read source for a worker's queue (the owner's descriptors are
/// its ``EventLoop``'s), that owns its descriptor, and gives it back (closes
/// it) when the source is cancelled and Dispatch has let go of it — in the
/// cancel handler, never sooner.
///
/// libdispatch takes a cancelled source's descriptor out of its epoll set on
/// its manager thread, by number, after `cancel()` has returned. A descriptor
/// closed before that makes the removal fail (or hit another file given the
/// number meanwhile); while anything else still holds the file — a child
/// between fork and exec — the kernel keeps the entry, pointing at
/// libdispatch's freed registration, and an event on it crashes the process
/// in `_dispatch_event_loop_drain`. The watchers closed their descriptors in
/// `deinit` right after `cancel()`, and a CI run's test process, which starts
/// daemons and processes by the hundred, crashed there.
final class OwnedReadSource: Sendable {
    let fd: Int32
    /// The class behind `DispatchSourceRead`, which is `Sendable` where the
    /// protocol is not.
    private let source: DispatchSource
    /// Set once by ``activate(_:)``, before the source can deliver anything.
    private let activated = Atomic<Bool>(false)

    /// Watches `fd` on `queue` once activated. `release` gives the descriptor
    /// back after the cancellation; `close(2)` when `nil` (an owner of the
    /// descriptor, like a bus connection's `FileDescriptor`, passes its own).
    init(fd: Int32, queue: DispatchQueue, release: (() -> Void)? = nil) {
        self.fd = fd
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue) as! DispatchSource
        source.setCancelHandler(handler: release ?? { close(fd) })
    }

    /// Runs `handler` on the queue whenever the descriptor is readable.
    func activate(_ handler: @escaping () -> Void) {
        source.setEventHandler(handler: handler)
        activated.store(true, ordering: .releasing)
        source.resume()
    }

    /// Stops watching; the descriptor is given back once Dispatch is done
    /// with it. Safe to call more than once.
    func cancel() {
        source.cancel()
    }

    deinit {
        source.cancel()
        // A source never activated must be, to run its cancel handler (and
        // Dispatch refuses to free an inactive one).
        if !activated.load(ordering: .acquiring) { source.resume() }
    }
}

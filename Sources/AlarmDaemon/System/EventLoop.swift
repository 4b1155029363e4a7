// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import CLinux
import Glibc
import Synchronization

/// A thread that waits in epoll for readable descriptors and runs each one's
/// handler on `queue` with `sync`.
///
/// The queue is idle almost always, so `sync` runs the handler right here: a
/// request costs one thread wake-up. A Dispatch read source costs two (its
/// epoll manager thread wakes, then wakes a worker for the queue), which was
/// most of a `Status` round trip on this kind of machine.
///
/// Descriptors are level-triggered: a handler reads until the socket would
/// block. ``remove(_:)`` must come before the descriptor is closed; a handler
/// already picked up by the loop may still run once afterwards, so handlers
/// check that their connection is open.
///
/// Messages to the queue from another thread (the durable writer's "these
/// commits are done") come through here too (``post(_:)``): the loop's thread
/// is the one that reads the next requests, so answering and reading run on
/// one thread, where a `queue.async` woke a Dispatch worker for each commit
/// while this thread waited in `sync` behind it. With eight clients adding
/// alarms that took a third of alarmd's system time per change.
final class EventLoop: Sendable {
    /// What ``post(_:)``, ``add(_:handler:)`` and the loop's thread share.
    private struct State {
        /// Each handler is the queue's: the loop's thread only carries it
        /// there and runs it inside `queue.sync`.
        var handlers: [Int32: QueueBound<() -> Void>] = [:]
        /// Bodies to run on the queue, oldest first.
        var posted: [@Sendable () -> Void] = []
        var stopping = false
    }

    private let epoll: FileDescriptor
    /// Written to by ``post(_:)`` and by ``stop()``.
    private let wakeRead: FileDescriptor
    private let wakeWrite: FileDescriptor
    private let queue: DispatchQueue
    private let state = Mutex(State())

    init(queue: DispatchQueue) throws(SystemError) {
        self.queue = queue
        epoll = FileDescriptor(try systemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
        let ends = try UnixSocket.pair()
        wakeRead = FileDescriptor(ends.0)
        wakeWrite = FileDescriptor(ends.1)
        try watch(wakeRead.rawValue)
        let thread = Thread { [self] in run() }
        thread.name = "alarmd.control-io"
        thread.start()
    }

    /// Runs `handler` on the queue whenever `fd` is readable.
    func add(_ fd: Int32, handler: @escaping () -> Void) throws(SystemError) {
        let bound = QueueBound(handler, queue: queue)
        state.withLock { $0.handlers[fd] = bound }
        do { try watch(fd) } catch {
            state.withLock { $0.handlers[fd] = nil }
            throw error
        }
    }

    /// Stops watching `fd`; call before closing it.
    func remove(_ fd: Int32) {
        _ = epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd, nil)
        state.withLock { $0.handlers[fd] = nil }
    }

    /// Runs `body` on the queue, from the loop's thread; after ``stop()``
    /// with `queue.async`. Bodies run in the order they were posted.
    func post(_ body: @escaping @Sendable () -> Void) {
        // One byte while the loop has not taken what waits: the pipe never fills.
        let wake: Bool? = state.withLock { state in
            if state.stopping { return nil }
            let wake = state.posted.isEmpty
            state.posted.append(body)
            return wake
        }
        switch wake {
        case nil: queue.async(execute: body)
        case true?: poke()
        case false?: break
        }
    }

    /// Ends the loop's thread; what was posted and not run yet runs with `queue.async`.
    func stop() {
        let left = state.withLock { state in
            state.stopping = true
            defer { state.posted = [] }
            return state.posted
        }
        for body in left { queue.async(execute: body) }
        poke()
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = send(wakeWrite.rawValue, &byte, 1, Int32(MSG_NOSIGNAL))
    }

    /// Empties the wake socket, then runs what was posted; `false` once stopped.
    /// Emptied first: a byte sent after that stays for the next round, and
    /// every body posted before the take runs in this one, so none waits
    /// without a byte to wake the loop.
    private func runPosted() -> Bool {
        var bytes = [UInt8](repeating: 0, count: 64)
        while recv(wakeRead.rawValue, &bytes, bytes.count, Int32(MSG_DONTWAIT)) > 0 {}
        let (stopped, bodies) = state.withLock { state in
            defer { state.posted = [] }
            return (state.stopping, state.posted)
        }
        if stopped { return false }
        for body in bodies { queue.sync(execute: body) }
        return true
    }

    private func watch(_ fd: Int32) throws(SystemError) {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = fd
        _ = try systemCall("epoll_ctl ADD \(fd)") { epoll_ctl(epoll.rawValue, EPOLL_CTL_ADD, fd, &event) }
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll.rawValue, $0.baseAddress, Int32($0.count), -1) }
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            for event in events.prefix(Int(count)) {
                let fd = event.data.fd
                if fd == wakeRead.rawValue {
                    guard runPosted() else { return }
                    continue
                }
                if let handler = state.withLock({ $0.handlers[fd] }) { queue.sync { handler.value() } }
            }
        }
    }
}

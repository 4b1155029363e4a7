import Dispatch
import Foundation
import CLinux
import Glibc

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
final class EventLoop: @unchecked Sendable {
    private let epoll: FileDescriptor
    /// Written to by ``stop()`` to end the loop.
    private let wakeRead: FileDescriptor
    private let wakeWrite: FileDescriptor
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var handlers: [Int32: () -> Void] = [:]

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
        lock.lock()
        handlers[fd] = handler
        lock.unlock()
        do { try watch(fd) } catch {
            lock.lock()
            handlers[fd] = nil
            lock.unlock()
            throw error
        }
    }

    /// Stops watching `fd`; call before closing it.
    func remove(_ fd: Int32) {
        _ = epoll_ctl(epoll.rawValue, EPOLL_CTL_DEL, fd, nil)
        lock.lock()
        handlers[fd] = nil
        lock.unlock()
    }

    /// Ends the loop's thread.
    func stop() {
        var byte: UInt8 = 1
        _ = send(wakeWrite.rawValue, &byte, 1, Int32(MSG_NOSIGNAL))
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
                if fd == wakeRead.rawValue { return }
                lock.lock()
                let handler = handlers[fd]
                lock.unlock()
                if let handler { queue.sync(execute: handler) }
            }
        }
    }
}

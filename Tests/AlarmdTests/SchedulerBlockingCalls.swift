// SPDX-License-Identifier: Apache-2.0
import AlarmCore
@testable import AlarmDaemon
import Dispatch
import Foundation
import Synchronization

/// The scheduler's requests as blocking calls, for tests that drive it
/// in-process: each returns once the change is durable, as a client's reply
/// would. Never called on the scheduler's queue.
extension Scheduler {
    private func wait<T: Sendable>(_ start: @escaping @Sendable (@escaping Completion<T>) -> Void) throws(SchedulerError) -> T {
        let result = Mutex<Result<T, SchedulerError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        // A message to the owner, as every request from outside it is.
        owner.queue.async {
            start { answer in
                result.withLock { $0 = answer }
                done.signal()
            }
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    @discardableResult
    func add(_ item: Item) throws(SchedulerError) -> Entry {
        try wait { self.add(item, completion: $0) }
    }

    @discardableResult
    func modify(_ text: String, kind: ItemKind, _ change: @escaping @Sendable (inout Item, Date) throws(SchedulerError) -> Void) throws(SchedulerError) -> Entry {
        try wait { self.modify(text, kind: kind, change, completion: $0) }
    }

    func remove(_ text: String, kind: ItemKind) throws(SchedulerError) {
        _ = try wait { self.remove(text, kind: kind, completion: $0) }
    }

    @discardableResult
    func command(_ command: RingCommand, id: String?) throws(SchedulerError) -> Entry {
        try wait { self.command(command, id: id, completion: $0) }
    }

    @discardableResult
    func setDone(_ text: String, done: Bool) throws(SchedulerError) -> Entry {
        try wait { self.setDone(text, done: done, completion: $0) }
    }

    /// Runs `body` on the owner and waits for it: a clock or zone change, as
    /// the daemon's watchers deliver it.
    func onOwner(_ body: () -> Void) {
        owner.queue.sync(execute: body)
    }
}

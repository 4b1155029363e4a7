// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials
import Synchronization

/// Something that happened to an item, as logged, stored and streamed to
/// `Watch` subscribers.
public struct DaemonEvent: Sendable {
    public let kind: EventKind
    public let item: Item
    public let scheduled: Date?
    public let actual: Date
    public let snoozeCount: Int
    public let detail: String

    /// How late the event was relative to its occurrence.
    public var lateness: TimeInterval? { scheduled.map { actual.timeIntervalSince($0) } }
}

/// Fans events out to in-process subscribers (the socket API's `Watch`, hooks).
/// Events are published on the scheduler's queue, so a handler must only hand
/// the event over to its own queue, never block or call back into the scheduler.
/// Subscribers are called on the output queue and must not block.
public final class EventStream: Sendable {
    public typealias Token = UInt64
    private let subscribers = Mutex<(next: Token, handlers: [Token: @Sendable (DaemonEvent) -> Void])>((1, [:]))

    public init() {}

    public func subscribe(_ handler: @escaping @Sendable (DaemonEvent) -> Void) -> Token {
        subscribers.withLock { state in
            let token = state.next
            state.next += 1
            state.handlers[token] = handler
            return token
        }
    }

    public func unsubscribe(_ token: Token) {
        _ = subscribers.withLock { $0.handlers.removeValue(forKey: token) }
    }

    func publish(_ event: DaemonEvent) {
        let handlers = subscribers.withLock { Array($0.handlers.values) }
        for handler in handlers { handler(event) }
    }
}

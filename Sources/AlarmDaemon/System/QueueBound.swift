// SPDX-License-Identifier: Apache-2.0
import Dispatch

/// A value that lives on one serial queue and is touched only there, in the
/// spirit of swift-nio's `NIOLoopBoundBox`: the box may be handed to any
/// thread (it is `Sendable`), its value may not, and every access asserts,
/// in debug builds, that it runs on that queue. A class whose mutable state
/// sits in such a box, and whose other stored properties are `let`s of
/// `Sendable` types, is `Sendable` by construction.
///
/// `state.table.popDue(at:)` reaches into the value in place (`_modify`):
/// no copy of what it holds is made. The accessors are inlined, so the
/// optimizer turns a key path written at the call into a plain field access
/// rather than a key path made and applied at run time.
@dynamicMemberLookup
public final class QueueBound<Value>: @unchecked Sendable {
    // @unchecked: the compiler cannot see the queue; every access checks it.
    private let queue: DispatchQueue
    private var stored: Value

    /// `value` may be made anywhere; from then on it is the queue's.
    public init(_ value: Value, queue: DispatchQueue) {
        self.queue = queue
        stored = value
    }

    public var value: Value {
        @inline(__always) _read {
            check()
            yield stored
        }
        @inline(__always) _modify {
            check()
            yield &stored
        }
    }

    public subscript<T>(dynamicMember path: WritableKeyPath<Value, T>) -> T {
        @inline(__always) _read {
            check()
            yield stored[keyPath: path]
        }
        @inline(__always) _modify {
            check()
            yield &stored[keyPath: path]
        }
    }

    /// A field the value keeps as a `let`.
    public subscript<T>(dynamicMember path: KeyPath<Value, T>) -> T {
        @inline(__always) _read {
            check()
            yield stored[keyPath: path]
        }
    }

    @inline(__always)
    private func check() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }
}

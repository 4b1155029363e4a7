// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A value the owner sets and other threads read: the configuration in force
/// (read by the ringer and hooks on the output worker), the wake-up status
/// (read by `Status`). A mutex, not a comment, keeps it safe.
final class Published<Value: Sendable>: Sendable {
    private let stored: Mutex<Value>

    init(_ value: Value) { stored = Mutex(value) }

    var value: Value {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}

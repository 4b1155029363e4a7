// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Lets the ringer reach the scheduler and the forewarnings, which are
/// created after it: set once while the daemon starts, before any
/// notification can be shown, and read on the owner.
final class RingerBox: Sendable {
    private struct References {
        weak var scheduler: Scheduler?
        weak var forewarnings: Forewarnings?
    }
    private let references = Mutex(References())

    var scheduler: Scheduler? {
        get { references.withLock { $0.scheduler } }
        set { references.withLock { $0.scheduler = newValue } }
    }
    var forewarnings: Forewarnings? {
        get { references.withLock { $0.forewarnings } }
        set { references.withLock { $0.forewarnings = newValue } }
    }
}

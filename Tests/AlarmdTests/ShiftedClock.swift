// SPDX-License-Identifier: Apache-2.0
@testable import AlarmDaemon
import Dispatch
import Foundation
import Synchronization

/// The real clock shifted by an offset that tests move, to stand for the wall
/// clock being set (they then raise the clock-change event themselves, as the
/// timerfd watcher would).
final class ShiftedClock: WallClock {
    private let offset = Mutex<TimeInterval>(0)

    init(offset: TimeInterval = 0) { self.offset.withLock { $0 = offset } }

    func shift(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }

    func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    func systemInstant(for instant: Date) -> Date {
        instant.addingTimeInterval(-offset.withLock { $0 })
    }
}

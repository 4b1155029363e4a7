// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

extension Alarm {
    /// Skip-next is for the occurrence that was next when it was set. A
    /// pause that covers that occurrence passes it over already, so the skip
    /// is spent: left set, it would silence the first occurrence after the
    /// pause, the morning someone is back at work.
    public mutating func spendSkipCoveredByPause(now: Date, systemZone: Zone) {
        guard skipNext, let pausedUntil else { return }
        var unpaused = self
        unpaused.pausedUntil = nil
        guard let next = unpaused.nextFire(after: now, in: systemZone),
              (timeZone ?? systemZone).rules.localDay(at: next.epochSecondsFloor) < pausedUntil else { return }
        skipNext = false
    }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

extension Alarm {
    /// Switched back on, a one-off alarm whose day has gone by rings next
    /// at its time, as a phone's alarm does: its day is dropped and it is a
    /// one-shot again. Any other alarm is left as it is.
    public mutating func dropPassedDay(now: Date, systemZone: Zone) {
        guard let recurrence, recurrence.isSingleDay else { return }
        var unpaused = self
        unpaused.pausedUntil = nil
        guard unpaused.nextFire(after: now, in: systemZone) == nil else { return }
        self.recurrence = nil
        days = .never
    }
}

// SPDX-License-Identifier: Apache-2.0
/// A list that takes in the daemon's events one at a time.
public protocol EventList {
    /// What one event does to the list.
    mutating func apply(_ event: WatchEvent) -> ListChange
}

extension EventList {
    /// Takes in a batch of events, in order; `false` when one could not be
    /// taken in and the list must be read again.
    public mutating func apply(_ events: [WatchEvent]) -> Bool {
        var complete = true
        for event in events where apply(event) == .reload { complete = false }
        return complete
    }
}

extension AlarmList: EventList {}
extension ReminderList: EventList {}

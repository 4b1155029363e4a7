// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Which of the two item types an id refers to.
public enum ItemKind: String, Sendable, Codable, CaseIterable {
    case alarm
    case reminder
}

/// What happened to an item; the raw value is the wire, journal and storage name.
public enum EventKind: String, Sendable, Codable, CaseIterable {
    case fired
    case snoozed
    case dismissed
    case timedOut = "timed-out"
    case skipped
    case missed
    case completed
    case changed
    /// An alarm rang unanswered for `[Alarms] EscalateAfter=`: full volume, and
    /// its escalation command.
    case escalated
    /// A reminder's advance notice (`--before`) was given. Journal and
    /// Watch only: the history keeps what happened to the item.
    case notice
}

/// One line of an item's history: what happened, when it was due and when it did.
public struct HistoryEvent: Hashable, Sendable {
    public var itemID: UUID
    public var itemKind: ItemKind
    public var event: EventKind
    /// The occurrence the event belongs to, when it belongs to one.
    public var scheduled: Date?
    public var actual: Date
    /// Free-form context (`snooze 2 of 3`, `late by 2 h`); empty when there is none.
    public var detail: String

    public init(itemID: UUID, itemKind: ItemKind, event: EventKind, scheduled: Date?, actual: Date, detail: String = "") {
        self.itemID = itemID
        self.itemKind = itemKind
        self.event = event
        self.scheduled = scheduled
        self.actual = actual
        self.detail = detail
    }
}

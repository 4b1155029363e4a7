// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// The alarms in the order the list shows them, by time of day like the
/// daemon's `ListAlarms` (then by label, then by id), kept up to date by
/// `Watch` events.
public struct AlarmList: Equatable, Sendable {
    public private(set) var items: [AlarmItem]
    /// Alarms whose live state (phase, next ring) an event left unknown;
    /// the app asks `GetAlarm` for them and passes the answer to ``update(_:)``.
    public private(set) var needsState: Set<String> = []

    /// The list of `items`, sorted.
    public init(_ items: [AlarmItem] = []) {
        self.items = items.sorted(by: Self.precedes)
    }

    /// Whether `a` comes before `b`.
    public static func precedes(_ a: AlarmItem, _ b: AlarmItem) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.label != b.label { return a.label < b.label }
        return a.id < b.id
    }

    public func index(of id: String) -> Int? { items.firstIndex { $0.id == id } }

    public subscript(id id: String) -> AlarmItem? { index(of: id).map { items[$0] } }

    /// Puts `item` in (a new one) or in place of the one with its id, where
    /// the order says.
    @discardableResult
    public mutating func update(_ item: AlarmItem) -> ListChange {
        if item.hasLiveState { needsState.remove(item.id) } else { needsState.insert(item.id) }
        let old = index(of: item.id)
        if let old {
            if items[old] == item { return .unchanged }
            items.remove(at: old)
        }
        let new = items.firstIndex { Self.precedes(item, $0) } ?? items.count
        items.insert(item, at: new)
        return .splice(removed: old, inserted: new)
    }

    /// Takes out the alarm with `id`, if the list has it.
    @discardableResult
    public mutating func remove(id: String) -> ListChange {
        needsState.remove(id)
        guard let old = index(of: id) else { return .unchanged }
        items.remove(at: old)
        return .splice(removed: old, inserted: nil)
    }

    /// Follows one `Watch` event. Reminders' events change nothing here; an
    /// alarm's event that does not read asks for a reload.
    public mutating func apply(_ event: WatchEvent) -> ListChange {
        if event.itemKind == .reminder { return .unchanged }
        guard event.problem == nil, event.itemKind == .alarm else { return .reload }
        if event.isRemoval { return remove(id: event.id) }
        guard var item = event.alarm, item.id == event.id else { return .reload }
        let prior = self[id: item.id]
        // The event's copy has no live state: what the event says of it,
        // else what the list knew.
        item.phase = Self.phase(after: event.kind, prior: prior?.phase ?? .waiting)
        item.snoozeCount = item.phase == .waiting ? 0 : event.snoozeCount
        item.next = nil
        item.hasLiveState = false
        return update(item)
    }

    /// What an event leaves an item doing: a firing rings it, a snooze
    /// snoozes it, a stop or an edit (which ends any ringing) leaves it
    /// waiting; other events leave it as it was.
    static func phase(after kind: EventKind?, prior: ItemPhase) -> ItemPhase {
        switch kind {
        case .fired?: return .ringing
        case .snoozed?: return .snoozed
        case .dismissed?, .timedOut?, .completed?, .changed?: return .waiting
        case .skipped?, .missed?, .escalated?, .notice?, nil: return prior
        }
    }

    /// The rows, in order.
    public func rows(now: Date, zone: Zone, language l: some Localization) -> [AlarmRow] {
        items.map { AlarmRow($0, now: now, zone: zone, language: l) }
    }
}

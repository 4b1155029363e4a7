// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// The reminders of one page in the daemon's order (by position): the
/// to-dos, or the running timers. Done ones are shown or not. Kept up to
/// date by `Watch` events; indices in a ``ListChange`` are those of
/// ``visible``.
public struct ReminderList: Equatable, Sendable {
    /// Which reminders the page shows.
    public enum Content: Equatable, Sendable {
        /// To-dos: every reminder but timers.
        case todos
        /// Timers only.
        case timers
    }

    public let content: Content
    /// Whether done reminders are shown (for them to be known at all, the
    /// app lists with `all: true`).
    public let showsDone: Bool
    /// Every reminder known, by position.
    public private(set) var all: [ReminderItem]
    /// What the page shows, in order.
    public private(set) var visible: [ReminderItem]

    public init(_ items: [ReminderItem] = [], content: Content = .todos, showsDone: Bool = false) {
        self.content = content
        self.showsDone = showsDone
        all = items.sorted { ($0.position, $0.id) < ($1.position, $1.id) }
        visible = []
        visible = all.filter(shows)
    }

    /// Whether the page shows `item`.
    public func shows(_ item: ReminderItem) -> Bool {
        (content == .timers) == item.isTimer && (showsDone || !item.done)
    }

    public func visibleIndex(of id: String) -> Int? { visible.firstIndex { $0.id == id } }

    public subscript(id id: String) -> ReminderItem? { all.first { $0.id == id } }

    /// Puts `item` in, or in place of the one with its id, where its
    /// position says. `moved` shifts the others as the daemon did when it
    /// moved this one (the others' positions close up around it).
    @discardableResult
    public mutating func update(_ item: ReminderItem, moved: Bool = false) -> ListChange {
        let oldVisible = visibleIndex(of: item.id)
        var previous: ReminderItem?
        if let index = all.firstIndex(where: { $0.id == item.id }) {
            previous = all.remove(at: index)
            if moved, let previous { shift(from: previous.position, to: item.position) }
        }
        let index = all.firstIndex { $0.position >= item.position } ?? all.count
        all.insert(item, at: index)
        // Others' positions may have shifted: the shown copies are made again.
        visible = all.filter(shows)
        let newVisible = shows(item) ? visibleIndex(of: item.id) : nil
        if oldVisible == newVisible, previous == item || newVisible == nil { return .unchanged }
        return .splice(removed: oldVisible, inserted: newVisible)
    }

    /// Takes out the reminder with `id`; later ones move up a place.
    @discardableResult
    public mutating func remove(id: String) -> ListChange {
        guard let index = all.firstIndex(where: { $0.id == id }) else { return .unchanged }
        let old = all.remove(at: index)
        for other in all.indices where all[other].position > old.position { all[other].position -= 1 }
        let oldVisible = visibleIndex(of: id)
        visible = all.filter(shows)
        return oldVisible.map { .splice(removed: $0, inserted: nil) } ?? .unchanged
    }

    /// Follows one `Watch` event. Alarms' events change nothing here; a
    /// reminder's event that does not read asks for a reload.
    public mutating func apply(_ event: WatchEvent) -> ListChange {
        if event.itemKind == .alarm { return .unchanged }
        guard event.problem == nil, event.itemKind == .reminder else { return .reload }
        if event.isRemoval { return remove(id: event.id) }
        guard var item = event.reminder, item.id == event.id else { return .reload }
        item.phase = AlarmList.phase(after: event.kind, prior: self[id: item.id]?.phase ?? .waiting)
        item.snoozeCount = item.phase == .waiting ? 0 : event.snoozeCount
        item.next = item.phase == .waiting && !item.done ? item.due : nil
        item.hasLiveState = false
        return update(item, moved: event.kind == .changed && event.detail.hasPrefix("moved"))
    }

    /// The others' positions after one moved from `old` to `new`.
    private mutating func shift(from old: Int, to new: Int) {
        for index in all.indices {
            let position = all[index].position
            if old < new, position > old, position <= new { all[index].position -= 1 }
            if new < old, position >= new, position < old { all[index].position += 1 }
        }
    }

    /// The request that moves the shown reminder at `index` one place up
    /// (`-1`) or down (`+1`) among those shown: to the position of the
    /// neighbour it passes. `nil` at the ends.
    public func moveRequest(at index: Int, by step: Int) -> MoveReminderRequest? {
        let target = index + step
        guard step != 0, visible.indices.contains(index), visible.indices.contains(target) else { return nil }
        return MoveReminderRequest(id: visible[index].id, position: visible[target].position)
    }
}

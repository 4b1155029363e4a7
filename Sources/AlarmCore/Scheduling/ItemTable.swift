// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Every item the scheduler keeps, with its ringing state and its next
/// wake-up, laid out for a million items.
///
/// One hash table (``SlotIndex``) maps an id to a dense slot; items and states live in arrays
/// indexed by slot, and the deadline heap is keyed by slot too. Compared with a
/// dictionary per concern that is one hash lookup per operation instead of
/// several, and a third of the memory (hash tables keep a quarter or more of
/// their buckets empty, and each would hold the 16-byte id again). Counts and
/// the set of ringing items are kept up to date on every change, so `Status`
/// never walks the table.
public struct ItemTable: Sendable {
    private var slots = SlotIndex()
    private var items: [Item?] = []
    private var states: [RingState] = []
    /// Every alarm's slot by ``Alarm/twinHash``, made at the first look for
    /// a twin (so that a start folds no label) and kept from then on.
    private var twins: TwinIndex?
    /// Slots of removed items, reused first.
    private var free: [Int32] = []
    private var deadlines = DeadlineQueue()
    public private(set) var alarmCount = 0
    /// Reminders of every kind, timers included: the store's order counts
    /// them all.
    public private(set) var reminderCount = 0
    /// Timers (`alarmctl timer`), done or not: people count them apart
    /// from the to-dos.
    public private(set) var timerCount = 0
    /// Timers still running (not done).
    public private(set) var runningTimerCount = 0
    /// Reminders with advance notices (`before`), so that planning them is
    /// skipped outright when there are none (nearly always).
    public private(set) var noticedReminderCount = 0
    /// Ids of the items ringing now.
    public private(set) var ringing: Set<UUID> = []

    public init() {}

    /// Room for `count` items without growing.
    public mutating func reserveCapacity(_ count: Int) {
        slots.reserveCapacity(count)
        items.reserveCapacity(count)
        states.reserveCapacity(count)
    }

    public var count: Int { slots.count }

    public subscript(id: UUID) -> Item? {
        guard let slot = slots[id] else { return nil }
        return items[Int(slot)]
    }

    public func state(of id: UUID) -> RingState? {
        slots[id].map { states[Int($0)] }
    }

    /// The item's next wake-up, `nil` when it will not fire.
    public func deadline(of id: UUID) -> Date? {
        slots[id].flatMap { deadlines.deadline(for: $0) }
    }

    /// Adds `item` or replaces the item with its id, with its state and wake-up.
    public mutating func set(_ item: Item, state: RingState, wake: Date?) {
        // One hash operation either way: a new item takes the next free slot.
        let next = free.last ?? Int32(items.count)
        let slot: Int32
        // An alarm whose time, label and repeat stay keeps its twin entry.
        var twinChanges = true
        if let existing = slots.insertIfAbsent(item.id, slot: next) {
            slot = existing
            let old = items[Int(slot)]
            count(old, by: -1)
            if case .alarm(let was)? = old, case .alarm(let now) = item, was.hasSameTwinFields(as: now) {
                twinChanges = false
            } else {
                indexTwin(old, at: slot, adding: false)
            }
            items[Int(slot)] = item
            setRinging(item.id, was: states[Int(slot)].isRinging, now: state.isRinging)
            states[Int(slot)] = state
        } else if Int(next) < items.count {
            slot = free.removeLast()
            items[Int(slot)] = item
            setRinging(item.id, was: false, now: state.isRinging)
            states[Int(slot)] = state
        } else {
            slot = next
            items.append(item)
            setRinging(item.id, was: false, now: state.isRinging)
            states.append(state)
        }
        count(item, by: 1)
        if twinChanges { indexTwin(item, at: slot, adding: true) }
        deadlines.set(slot, to: wake)
    }

    /// Removes the item with `id`, its state and its wake-up.
    public mutating func remove(_ id: UUID) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        count(items[Int(slot)], by: -1)
        indexTwin(items[Int(slot)], at: slot, adding: false)
        items[Int(slot)] = nil
        setRinging(id, was: states[Int(slot)].isRinging, now: false)
        deadlines.remove(slot)
        free.append(slot)
    }

    public mutating func removeAll() {
        self = ItemTable()
    }

    /// Every item with its state, in no particular order.
    public func forEach(_ body: (Item, RingState) throws -> Void) rethrows {
        for (slot, item) in items.enumerated() {
            guard let item else { continue }
            try body(item, states[slot])
        }
    }

    /// An alarm just like `alarm` (``Alarm/isTwin(of:)``), if there is one:
    /// one probe of the twin index, however many alarms share its minute.
    /// The first look makes the index, which folds every alarm's label once
    /// (a few hundred milliseconds for a million).
    public mutating func twin(of alarm: Alarm) -> Alarm? {
        if twins == nil {
            var index = TwinIndex()
            for (slot, item) in items.enumerated() {
                if case .alarm(let existing)? = item { index.insert(Self.twinHash(existing), slot: Int32(slot)) }
            }
            twins = index
        }
        let found = twins?.first(Self.twinHash(alarm)) { slot in
            if case .alarm(let existing)? = items[Int(slot)] { existing.isTwin(of: alarm) } else { false }
        }
        guard let found, case .alarm(let twin)? = items[Int(found)] else { return nil }
        return twin
    }

    /// Keeps the twin index, once made, in step with `item` entering or
    /// leaving `slot`.
    private mutating func indexTwin(_ item: Item?, at slot: Int32, adding: Bool) {
        guard twins != nil, case .alarm(let alarm)? = item else { return }
        if adding { twins?.insert(Self.twinHash(alarm), slot: slot) } else { twins?.remove(Self.twinHash(alarm), slot: slot) }
    }

    private static func twinHash(_ alarm: Alarm) -> UInt32 { UInt32(truncatingIfNeeded: alarm.twinHash) }

    // MARK: Deadlines

    /// The earliest wake-up and whose it is.
    public var first: (id: UUID, deadline: Date)? {
        deadlines.first.map { (items[Int($0.slot)]!.id, $0.deadline) }
    }

    /// Takes the earliest wake-up out of the queue if it is due at `instant`;
    /// the item stays in the table.
    public mutating func popDue(at instant: Date) -> UUID? {
        deadlines.popDue(at: instant).map { items[Int($0.slot)]!.id }
    }

    /// Wake-ups in order, lazily: the first k cost O(k log k).
    public func ascending() -> some Sequence<(id: UUID, deadline: Date)> {
        deadlines.ascending().lazy.map { (items[Int($0.slot)]!.id, $0.deadline) }
    }

    /// Recomputes every wake-up at once (after a clock or zone change, or a
    /// load), in O(n).
    public mutating func rebuildDeadlines(_ wake: (Item, RingState) -> Date?) {
        var entries: [DeadlineQueue.Entry] = []
        entries.reserveCapacity(items.count)
        for (slot, item) in items.enumerated() {
            guard let item, let deadline = wake(item, states[slot]) else { continue }
            entries.append(DeadlineQueue.Entry(slot: Int32(slot), deadline: deadline))
        }
        deadlines = DeadlineQueue(entries)
    }

    // MARK: Bookkeeping

    private mutating func count(_ item: Item?, by delta: Int) {
        switch item {
        case .alarm: alarmCount += delta
        case .reminder(let reminder):
            reminderCount += delta
            if reminder.isTimer {
                timerCount += delta
                if !reminder.done { runningTimerCount += delta }
            }
            if !reminder.before.isEmpty { noticedReminderCount += delta }
        case nil: break
        }
    }

    private mutating func setRinging(_ id: UUID, was: Bool, now: Bool) {
        guard was != now else { return }
        if now { ringing.insert(id) } else { ringing.remove(id) }
    }
}

import AlarmCore
import AlarmStore
import Foundation

/// What clients may ask of the scheduler: each request runs on the scheduler
/// queue, saves before it answers, and leaves memory unchanged when the save fails.
extension Scheduler {
    /// One item with its live state, as requests return it.
    public struct Entry: Sendable {
        public let item: Item
        public let state: RingState
        /// When it next needs attention, `nil` when it will not fire.
        public let next: Date?
    }

    /// A summary for `Status`.
    public struct Summary: Sendable {
        public let alarms: Int
        public let reminders: Int
        public let ringing: [UUID]
        public let next: Firing?
        public let zone: Zone
    }

    /// One upcoming firing.
    public struct Firing: Sendable {
        public let item: Item
        public let at: Date
    }

    /// `queue.sync` keeping the body's error type (`sync` only rethrows `any Error`).
    func onQueue<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let result = queue.sync { () -> Result<T, E> in
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The status line, read on the scheduler queue.
    public var status: String { queue.sync { statusLine() } }


    /// Every item with its state.
    public func snapshot() -> [Entry] {
        queue.sync {
            var entries: [Entry] = []
            entries.reserveCapacity(table.count)
            table.forEach { item, state in entries.append(Entry(item: item, state: state, next: table.deadline(of: item.id))) }
            return entries
        }
    }

    func entry(_ item: Item) -> Entry {
        Entry(item: item, state: table.state(of: item.id)!, next: table.deadline(of: item.id))
    }

    /// One item by full id or unique prefix (at least 4 hex digits, dashes optional).
    public func lookup(_ text: String, kind: ItemKind? = nil) throws(SchedulerError) -> Entry {
        try onQueue { () throws(SchedulerError) in entry(table[try resolve(text, kind: kind)]!) }
    }

    /// Resolves an id or prefix on the queue. A full UUID is a dictionary lookup;
    /// a prefix is a scan, which is fine for the thousands of items people have
    /// and still milliseconds for a million.
    func resolve(_ text: String, kind: ItemKind?) throws(SchedulerError) -> UUID {
        let wanted = text.lowercased().filter { $0 != "-" }
        guard wanted.count >= 4, wanted.count <= 32, wanted.allSatisfy(\.isHexDigit) else { throw .badID(text) }
        func matches(_ item: Item) -> Bool { kind == nil || item.kind == kind }
        if wanted.count == 32, let id = UUID(canonical: Self.dashed(wanted)) {
            guard let item = table[id], matches(item) else { throw .noSuchItem(text) }
            return id
        }
        var found: [UUID] = []
        table.forEach { item, _ in
            if found.count <= 10, matches(item), Self.hex(item.id).hasPrefix(wanted) { found.append(item.id) }
        }
        guard let first = found.first else { throw .noSuchItem(text) }
        guard found.count == 1 else { throw .ambiguous(text, found.map { $0.uuidString.lowercased() }.sorted()) }
        return first
    }

    static func hex(_ id: UUID) -> String { id.uuidString.lowercased().filter { $0 != "-" } }

    static func dashed(_ hex: String) -> String {
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// Adds a new item; it looks for its first occurrence from now.
    @discardableResult
    public func add(_ item: Item) throws(SchedulerError) -> Entry {
        try onQueue { () throws(SchedulerError) in
            try Self.validate(item)
            guard table[item.id] == nil else { throw .invalid(ValidationError(field: "id", requirement: "must be new", value: item.id.uuidString.lowercased())) }
            let now = currentTime()
            let transition = RingingMachine.reset(state: nil, now: now)
            do throws(StoreError) {
                try store.transaction { () throws(StoreError) in
                    switch item {
                    case .alarm(let alarm): try store.insert(alarm)
                    case .reminder(let reminder): try store.insert(reminder)
                    }
                    try store.saveRingStates([(item.id, item.kind, transition.state)])
                }
            } catch { throw .store(error) }
            // A new reminder gets its place at the end of the list from the store.
            var stored = item
            if case .reminder = item, let reminder = try? store.reminder(id: item.id) { stored = .reminder(reminder) }
            setInTable(stored, transition.state)
            publishChange(stored, now: now, detail: "added")
            fireDue()
            publishStatus()
            return entry(stored)
        }
    }

    /// Changes one item in a single step on the queue: `change` gets the item
    /// as it is at that moment and the time, so nothing the scheduler did
    /// since a client last looked (a firing, a dismissal that switched a
    /// one-shot alarm off) is undone by writing back an older copy.
    ///
    /// An occurrence already due fires first, so an edit can never lose it;
    /// what the edit then does to a ringing or snoozed occurrence is
    /// ``RingingMachine/edited(from:to:state:now:)``'s decision. The change is
    /// saved before this returns, and memory is untouched when the save fails.
    @discardableResult
    public func modify(_ text: String, kind: ItemKind, _ change: (inout Item, Date) throws(SchedulerError) -> Void) throws(SchedulerError) -> Entry {
        try onQueue { () throws(SchedulerError) in
            let id = try resolve(text, kind: kind)
            return try modifyOnQueue(id, change)
        }
    }

    /// ``modify(_:kind:_:)`` for a resolved id, on the queue.
    private func modifyOnQueue(_ id: UUID, _ change: (inout Item, Date) throws(SchedulerError) -> Void) throws(SchedulerError) -> Entry {
        fireDue()
        let now = currentTime()
        guard let before = table[id], let state = table.state(of: id) else { throw .noSuchItem(id.uuidString.lowercased()) }
        var after = before
        try change(&after, now)
        try Self.validate(after)
        let transition = RingingMachine.edited(from: before, to: after, state: state, now: now)
        do throws(StoreError) { try apply([(after, transition)], now: now, strict: true, write: true) } catch { throw .store(error) }
        publishChange(table[id]!, now: now, detail: "updated")
        arm()
        return entry(table[id]!)
    }

    static func validate(_ item: Item) throws(SchedulerError) {
        do throws(ValidationError) {
            switch item {
            case .alarm(let alarm): try alarm.validate()
            case .reminder(let reminder): try reminder.validate()
            }
        } catch { throw .invalid(error) }
    }

    /// Removes an item. A ringing or snoozed occurrence ends with it, and
    /// that end is recorded (``RingingMachine/removed(state:)``).
    public func remove(_ text: String, kind: ItemKind) throws(SchedulerError) {
        try onQueue { () throws(SchedulerError) in
            let id = try resolve(text, kind: kind)
            fireDue()
            guard let item = table[id], let state = table.state(of: id) else { throw .noSuchItem(text) }
            let now = currentTime()
            let actions = RingingMachine.removed(state: state)
            let history = actions.compactMap { action -> HistoryEvent? in
                guard case .record(let event, let scheduled, let detail) = action else { return nil }
                return HistoryEvent(itemID: id, itemKind: item.kind, event: event, scheduled: scheduled, actual: now, detail: detail)
            }
            forgetSavedAhead(id)
            do throws(StoreError) {
                try store.transaction { () throws(StoreError) in
                    switch item {
                    case .alarm: try store.removeAlarm(id: id)
                    case .reminder: try store.removeReminder(id: id)
                    }
                    // Rows still waiting go first, so the history stays in order.
                    try store.record(pending.rows + history)
                }
            } catch { throw .store(error) }
            journal(pending.take().events)
            for action in actions { perform(action, item: item, state: state, now: now) }
            table.remove(id)
            if case .reminder = item { reloadReminderPositions() }
            publishChange(item, now: now, detail: "removed")
            arm()
            publishStatus()
        }
    }

    /// Moves a reminder in the manual order; returns the reminders in order.
    public func moveReminder(_ text: String, to position: Int) throws(SchedulerError) -> [Entry] {
        try onQueue { () throws(SchedulerError) in
            let id = try resolve(text, kind: .reminder)
            do throws(StoreError) { try store.moveReminder(id: id, to: position) } catch {
                if case .invalid(let validation) = error { throw .invalid(validation) }
                throw .store(error)
            }
            reloadReminderPositions()
            publishChange(table[id]!, now: currentTime(), detail: "moved to \(position)")
            return reminderEntries()
        }
    }

    /// Reminders in their manual order.
    public func reminders() -> [Entry] { queue.sync { reminderEntries() } }

    func reminderEntries() -> [Entry] {
        var reminders: [(Reminder, Entry)] = []
        table.forEach { item, state in
            if case .reminder(let reminder) = item { reminders.append((reminder, Entry(item: item, state: state, next: table.deadline(of: item.id)))) }
        }
        return reminders.sorted { $0.0.position < $1.0.position }.map(\.1)
    }

    /// Positions change in the store when one reminder moves or goes; read them back.
    private func reloadReminderPositions() {
        guard let stored = try? store.reminders() else { return }
        for reminder in stored {
            if case .reminder(var current) = table[reminder.id], let state = table.state(of: reminder.id) {
                current.position = reminder.position
                table.set(.reminder(current), state: state, wake: table.deadline(of: reminder.id))
            }
        }
    }

    /// Snooze, dismiss or complete an item; without an id, the one item ringing.
    /// Whatever is due fires first, so the command meets the item as it is now.
    /// The new state is saved before this returns.
    @discardableResult
    public func command(_ command: RingCommand, id text: String?) throws(SchedulerError) -> Entry {
        try onQueue { () throws(SchedulerError) -> Entry in
            fireDue()
            let id: UUID
            if let text {
                id = try resolve(text, kind: nil)
            } else {
                let ringing = Array(table.ringing)
                guard ringing.count == 1 else {
                    throw .ringingCount(ringing.compactMap { table[$0] }.map { "\($0.id.uuidString.lowercased()) \(ValidationError.quoted($0.title))" })
                }
                id = ringing[0]
            }
            return try commandOnQueue(command, id: id)
        }
    }

    private func commandOnQueue(_ command: RingCommand, id: UUID) throws(SchedulerError) -> Entry {
        let item = table[id]!
        let state = table.state(of: id)!
        let now = currentTime()
        let transition: RingTransition
        do throws(RingError) { transition = try RingingMachine.handle(command, item: item, state: state, now: now, policy: policy) } catch { throw .ring(error) }
        do throws(StoreError) { try apply([(item, transition)], now: now, strict: true) } catch { throw .store(error) }
        arm()
        return entry(table[id]!)
    }

    /// Marks a reminder done or not done, in one step on the queue. A ringing
    /// or snoozed reminder stops through the ringing machine (a `completed`
    /// record); otherwise it is an ordinary change.
    public func setDone(_ text: String, done: Bool) throws(SchedulerError) -> Entry {
        try onQueue { () throws(SchedulerError) -> Entry in
            let id = try resolve(text, kind: .reminder)
            fireDue()
            if done, let state = table.state(of: id), state.isRinging || state.isSnoozed {
                return try commandOnQueue(.complete, id: id)
            }
            return try modifyOnQueue(id) { item, now in
                guard case .reminder(var reminder) = item else { return }
                reminder.done = done
                reminder.updated = now
                item = .reminder(reminder)
            }
        }
    }

    /// The next `count` firings across all items, earliest first. Starts from
    /// the earliest wake-ups in the heap and merges each item's following
    /// occurrences, so it costs O(count log count), not a pass over every item.
    public func upcoming(_ count: Int) -> [Firing] {
        queue.sync { upcomingFirings(count) }
    }

    func upcomingFirings(_ count: Int) -> [Firing] {
        // An item never fires before its wake-up (a skipped occurrence or a
        // ringing one only push its firing later), so heap entries are brought
        // in, in order, only while they could still come first.
        var walk = table.ascending().makeIterator()
        var pending = walk.next()
        // Candidates, latest first so the earliest pops off the end; it holds
        // about `count` items, so a sorted array beats a heap here.
        var frontier: [(item: Item, at: Date)] = []
        func add(_ item: Item, at instant: Date?) {
            guard let instant else { return }
            let index = frontier.firstIndex { $0.at <= instant } ?? frontier.endIndex
            frontier.insert((item, instant), at: index)
        }
        var result: [Firing] = []
        while result.count < count {
            // Strictly earlier only: with many wake-ups at one instant (a
            // million alarms share 1,440 minutes) ties need not all be read.
            while let candidate = pending, frontier.last.map({ candidate.deadline < $0.at }) ?? true {
                if let item = table[candidate.id] { add(item, at: firstFiring(item, wake: candidate.deadline)) }
                pending = walk.next()
            }
            guard let next = frontier.popLast() else { break }
            result.append(Firing(item: next.item, at: next.at))
            // A one-shot alarm switches itself off after its occurrence.
            add(next.item, at: next.item.endsAfterOccurrence ? nil : next.item.nextOccurrence(after: next.at, in: zone))
        }
        return result
    }

    /// When `item`, whose wake-up is `wake`, next actually fires.
    private func firstFiring(_ item: Item, wake: Date) -> Date? {
        guard let state = table.state(of: item.id) else { return nil }
        switch state.phase {
        case .waiting:
            // A skipped occurrence will not fire; show the one after it.
            return item.skipsNext ? item.nextOccurrence(after: wake, in: zone) : wake
        case .snoozed(let until):
            return until
        case .ringing:
            return item.endsAfterOccurrence ? nil : item.nextOccurrence(after: state.occurrence ?? state.anchor, in: zone)
        }
    }

    public func summary() -> Summary {
        queue.sync {
            let ringing = table.ringing.sorted { $0.uuidString < $1.uuidString }
            return Summary(alarms: table.alarmCount, reminders: table.reminderCount, ringing: ringing, next: upcomingFirings(1).first, zone: zone)
        }
    }

    /// The ids of items ringing now.
    public var ringing: [UUID] { queue.sync { Array(table.ringing) } }

    /// Every alarm and reminder, for an export.
    public func allItems() -> (alarms: [Alarm], reminders: [Reminder]) {
        queue.sync {
            var alarms: [Alarm] = []
            table.forEach { item, _ in if case .alarm(let alarm) = item { alarms.append(alarm) } }
            let reminders = reminderEntries().compactMap { entry -> Reminder? in
                if case .reminder(let reminder) = entry.item { return reminder }
                return nil
            }
            return (alarms.sorted { ($0.time, $0.label) < ($1.time, $1.label) }, reminders)
        }
    }

    /// Replaces everything, all or nothing (an import). Whatever rang stops, and
    /// every item looks for its next occurrence from now.
    public func replaceAll(alarms: [Alarm], reminders: [Reminder]) throws(SchedulerError) {
        try onQueue { () throws(SchedulerError) in
            let now = currentTime()
            forgetAllSavedAhead()
            do throws(StoreError) {
                try store.transaction { () throws(StoreError) in
                    try store.replaceAll(alarms: alarms, reminders: reminders)
                    try store.saveRingStates(alarms.map { ($0.id, .alarm, RingState(anchor: now)) } + reminders.map { ($0.id, .reminder, RingState(anchor: now)) })
                }
            } catch {
                if case .invalid(let validation) = error { throw .invalid(validation) }
                throw .store(error)
            }
            for id in table.ringing {
                if let item = table[id], let state = table.state(of: id) { perform(.stopRinging, item: item, state: state, now: now) }
            }
            table.removeAll()
            table.reserveCapacity(alarms.count + reminders.count)
            for alarm in alarms { table.set(.alarm(alarm), state: RingState(anchor: now), wake: nil) }
            reloadAllReminders(fallback: reminders, anchor: now)
            rebuildDeadlines()
            journal.send("Imported \(alarms.count) alarms and \(reminders.count) reminders, replacing all items", priority: .info, messageID: MessageID.changed)
            fireDue()
            publishStatus()
        }
    }

    private func reloadAllReminders(fallback: [Reminder], anchor: Date) {
        let stored = (try? store.reminders()) ?? fallback
        for reminder in stored { table.set(.reminder(reminder), state: RingState(anchor: anchor), wake: nil) }
    }

    /// A `changed` event for `Watch` subscribers (not journaled: edits are not news).
    private func publishChange(_ item: Item, now: Date, detail: String) {
        publish(DaemonEvent(kind: .changed, item: item, scheduled: nil, actual: now, snoozeCount: table.state(of: item.id)?.snoozeCount ?? 0, detail: detail))
    }
}


// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import FoundationEssentials

/// What clients may read of the scheduler: items with their live state, the
/// firings to come, the history, a summary. Each runs on the owner and
/// changes nothing (the history is read on the writer's queue, after every
/// commit before it).
extension Scheduler {
    /// One item with its live state, as requests return it.
    public struct Entry: Sendable {
        public let item: Item
        public let state: RingState
        /// When it next needs attention, `nil` when it will not fire; for an
        /// alarm skipping its next occurrence, the one after, which is what
        /// will really ring (the skipped one only wakes the scheduler).
        public let next: Date?
        /// For an alarm skipping its next occurrence, the one skipped.
        public var skipping: Date? = nil
    }

    /// A summary for `Status`.
    public struct Summary: Sendable {
        public let alarms: Int
        /// To-dos: reminders that are not timers.
        public let reminders: Int
        /// Timers still running.
        public let timers: Int
        public let ringing: [UUID]
        public let next: Firing?
        public let zone: Zone
    }

    /// One upcoming firing.
    public struct Firing: Sendable {
        public let item: Item
        public let at: Date
    }

    /// The status line, read on the owner.
    public var status: String { owner.sync { statusLine() } }


    /// Every item with its state.
    public func snapshot() -> [Entry] {
        owner.sync {
            var entries: [Entry] = []
            entries.reserveCapacity(owned.table.count)
            owned.table.forEach { item, state in entries.append(shownEntry(item, state)) }
            return entries
        }
    }

    /// The item with this id, if there is one (on the owner).
    func item(_ id: UUID) -> Item? {
        owner.assertCurrent()
        return owned.table[id]
    }

    func entry(_ item: Item) -> Entry {
        shownEntry(item, owned.table.state(of: item.id)!)
    }

    /// The item with its wake-up, except for a waiting alarm that skips its
    /// next occurrence: then the occurrence after it (none for a one-shot
    /// alarm, which switches itself off instead), and the skipped one.
    private func shownEntry(_ item: Item, _ state: RingState) -> Entry {
        let deadline = owned.table.deadline(of: item.id)
        guard item.skipsNext, case .waiting = state.phase, let deadline else { return Entry(item: item, state: state, next: deadline) }
        let next = item.endsAfter(deadline, in: owned.zone, holidays: owned.policy.holidays) ? nil : item.nextOccurrence(after: deadline, in: owned.zone, holidays: owned.policy.holidays)
        return Entry(item: item, state: state, next: next, skipping: deadline)
    }

    /// An alarm just like `alarm` (``Alarm/isTwin(of:)``), if there is one,
    /// found by one probe of the table's twin index (``ItemTable/twin(of:)``).
    public func twin(of alarm: Alarm) -> Alarm? {
        owner.sync { owned.table.twin(of: alarm) }
    }

    /// One item by full id, unique id prefix, or name (``resolve(_:kind:)``).
    public func lookup(_ text: String, kind: ItemKind? = nil) throws(SchedulerError) -> Entry {
        try owner.sync { () throws(SchedulerError) in entry(owned.table[try resolve(text, kind: kind)]!) }
    }

    /// How many candidates an ambiguous id or name reports: enough to choose
    /// from, and a bound on what one request can make the daemon list.
    static let maxCandidates = 10

    /// Resolves what a person typed for an item, on the queue: a full id, a
    /// prefix of at least 4 hex digits (dashes optional), or its label or
    /// title, whole or an unambiguous prefix, case-insensitive (the one
    /// written as typed wins among names alike but for case). An id prefix
    /// and a whole name are equals (`cafe` may be both); a name's prefix is
    /// tried only when neither matches, and the start of a later word of it
    /// (`dentist` for "Book dentist") only when nothing else does. Among names, the items `list` shows
    /// come first: open reminders before done ones. Several matches are
    /// ``SchedulerError/ambiguous(_:_:)`` with the candidates, and nothing
    /// changes. A full UUID is a dictionary lookup; anything else is one
    /// scan, milliseconds for a million items. `chosen` narrows the names
    /// and prefixes looked at to those items (what rings, say).
    func resolve(_ text: String, kind: ItemKind?, among chosen: Set<UUID>? = nil) throws(SchedulerError) -> UUID {
        let name = Item.folded(text)
        guard !name.isEmpty, text.utf8.count <= Self.maxNameBytes else { throw .badID(text) }
        let hex = text.lowercased().filter { $0 != "-" }
        let isPrefix = hex.count >= 4 && hex.count <= 32 && hex.allSatisfy(\.isHexDigit)
        if hex.count == 32, isPrefix, let id = UUID(canonical: Self.dashed(hex)) {
            guard let item = owned.table[id], kind == nil || item.kind == kind else { throw .noSuchItem(text) }
            return id
        }
        var byID: [Item] = [], whole: [Item] = [], starting: [Item] = []
        let initial = name.utf8.first!
        owned.table.forEach { item, _ in
            guard kind == nil || item.kind == kind, chosen?.contains(item.id) ?? true else { return }
            if isPrefix, byID.count <= Self.maxCandidates, Self.hex(item.id).hasPrefix(hex) { byID.append(item) }
            // Most titles differ from the name in their first letter: those
            // are passed over without folding them.
            if let byte = item.title.utf8.first, byte < 0x80, byte != 0x20, initial < 0x80, byte | 0x20 != initial | 0x20 { return }
            let title = Item.folded(item.title)
            if title == name, whole.count <= Self.maxCandidates {
                whole.append(item)
            } else if title.hasPrefix(name), starting.count <= Self.maxCandidates {
                starting.append(item)
            }
        }
        func shown(_ items: [Item]) -> [Item] {
            let open = items.filter(\.isListed)
            return open.isEmpty ? items : open
        }
        // `work` and `Work` both there: the one written as typed.
        let listed = shown(whole)
        let typed = text.trimmingSpaces()
        let exact = listed.filter { $0.title.trimmingSpaces() == typed }
        if byID.isEmpty, listed.count > 1, exact.count == 1 { return exact[0].id }
        var found = byID + listed.filter { named in !byID.contains { $0.id == named.id } }
        if found.isEmpty { found = shown(starting) }
        if found.isEmpty { found = shown(withWord(startingWith: name, kind: kind, among: chosen)) }
        guard let first = found.first else { throw .noSuchItem(text) }
        guard found.count == 1 else {
            throw .ambiguous(text, found.prefix(Self.maxCandidates).map(SchedulerError.Candidate.init).sorted { $0.id < $1.id })
        }
        return first.id
    }

    /// Items with a later word of their label or title starting with `name`
    /// (folded): `dentist` for "Book dentist". The last resort of
    /// ``resolve(_:kind:)``, a second scan made only when nothing else matched.
    private func withWord(startingWith name: String, kind: ItemKind?, among chosen: Set<UUID>?) -> [Item] {
        let word = " " + name
        var found: [Item] = []
        owned.table.forEach { item, _ in
            guard kind == nil || item.kind == kind, chosen?.contains(item.id) ?? true, found.count <= Self.maxCandidates, Item.folded(item.title).contains(word) else { return }
            found.append(item)
        }
        return found
    }

    /// The longest name looked up, in UTF-8 bytes: no label or title is longer.
    static let maxNameBytes = Item.maxTitleBytes

    static func hex(_ id: UUID) -> String { id.lowercasedText.filter { $0 != "-" } }

    static func dashed(_ hex: String) -> String {
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// Reminders in their manual order.
    public func reminders() -> [Entry] { owner.sync { reminderEntries() } }

    func reminderEntries() -> [Entry] {
        var reminders: [(Reminder, Entry)] = []
        owned.table.forEach { item, state in
            if case .reminder(let reminder) = item { reminders.append((reminder, Entry(item: item, state: state, next: owned.table.deadline(of: item.id)))) }
        }
        return reminders.sorted { $0.0.position < $1.0.position }.map(\.1)
    }

    /// What happened to items, newest first: `id` (a full id, or a prefix
    /// of an item that still exists) narrows it to one item. Read on the
    /// durable writer's queue; each event comes with the item as it is now,
    /// when it still exists, for its title.
    public func history(id text: String?, since: Date?, kinds: Set<EventKind>, limit: Int,
                        completion: @escaping Completion<[(event: HistoryEvent, item: Item?)]>) {
        owner.assertCurrent()
        let id: UUID?
        do throws(SchedulerError) {
            id = try text.map { text throws(SchedulerError) in
                // A removed item's history is found by its full id.
                if let full = UUID(canonical: text.lowercased()) { return full }
                return try resolve(text, kind: nil)
            }
        } catch {
            return completion(.failure(error))
        }
        guard let writer = owned.writer else { return completion(.failure(.store(.sqlite(code: 21, message: "the daemon is stopping", operation: "read history")))) }
        let owner = owner
        writer.read({ store throws(StoreError) in try store.history(itemID: id, since: since, kinds: kinds, limit: limit) }) { [weak self] result in
            owner.post { [weak self] in
                guard let scheduler = self else { return }
                completion(result.map { events in events.map { ($0, scheduler.table[$0.itemID]) } }.mapError { .store($0) })
            }
        }
    }

    /// The next `count` firings across all items, earliest first. Starts from
    /// the earliest wake-ups in the heap and merges each item's following
    /// occurrences, so it costs O(count log count), not a pass over every item.
    public func upcoming(_ count: Int) -> [Firing] {
        owner.sync { upcomingFirings(count) }
    }

    /// The next firing of an item that `include` accepts (on the owner).
    public func nextFiring(where include: (Item) -> Bool) -> Firing? {
        owner.assertCurrent()
        return upcomingFirings(1, where: include).first
    }

    func upcomingFirings(_ count: Int, where include: (Item) -> Bool = { _ in true }) -> [Firing] {
        // An item never fires before its wake-up (a skipped occurrence or a
        // ringing one only push its firing later), so heap entries are brought
        // in, in order, only while they could still come first.
        var walk = owned.table.ascending().makeIterator()
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
                if let item = owned.table[candidate.id], include(item) { add(item, at: firstFiring(item, wake: candidate.deadline)) }
                pending = walk.next()
            }
            guard let next = frontier.popLast() else { break }
            result.append(Firing(item: next.item, at: next.at))
            // A one-shot alarm switches itself off after its occurrence.
            add(next.item, at: next.item.endsAfter(next.at, in: owned.zone, holidays: owned.policy.holidays) ? nil : next.item.nextOccurrence(after: next.at, in: owned.zone, holidays: owned.policy.holidays))
        }
        return result
    }

    /// When `item`, whose wake-up is `wake`, next actually fires.
    private func firstFiring(_ item: Item, wake: Date) -> Date? {
        guard let state = owned.table.state(of: item.id) else { return nil }
        switch state.phase {
        case .waiting:
            // A skipped occurrence will not fire; show the one after it.
            return item.skipsNext ? item.nextOccurrence(after: wake, in: owned.zone, holidays: owned.policy.holidays) : wake
        case .snoozed(let until):
            return until
        case .ringing:
            let occurrence = state.occurrence ?? state.anchor
            return item.endsAfter(occurrence, in: owned.zone, holidays: owned.policy.holidays) ? nil : item.nextOccurrence(after: occurrence, in: owned.zone, holidays: owned.policy.holidays)
        }
    }

    public func summary() -> Summary {
        owner.sync {
            let ringing = owned.table.ringing.sorted { $0.uuidString < $1.uuidString }
            return Summary(alarms: owned.table.alarmCount, reminders: owned.table.reminderCount - owned.table.timerCount, timers: owned.table.runningTimerCount,
                           ringing: ringing, next: upcomingFirings(1).first, zone: owned.zone)
        }
    }

    /// The ids of items ringing now.
    public var ringing: [UUID] { owner.sync { Array(owned.table.ringing) } }

    /// Every alarm and reminder, for an export.
    public func allItems() -> (alarms: [Alarm], reminders: [Reminder]) {
        owner.sync {
            var alarms: [Alarm] = []
            owned.table.forEach { item, _ in if case .alarm(let alarm) = item { alarms.append(alarm) } }
            let reminders = reminderEntries().compactMap { entry -> Reminder? in
                if case .reminder(let reminder) = entry.item { return reminder }
                return nil
            }
            return (alarms.sorted { ($0.time, $0.label) < ($1.time, $1.label) }, reminders)
        }
    }

    /// What an import changes: ids added, updated and (when replacing) removed.
    public struct ImportOutcome: Sendable {
        public var added: [UUID] = []
        public var updated: [UUID] = []
        /// With their kind and title, which the document does not have.
        public var removed: [(id: UUID, kind: ItemKind, title: String)] = []
    }

    /// What importing `alarms` and `reminders` would do, without doing it:
    /// merged by id (`replacing` false), or replacing everything; with
    /// `keepingCommands`, as ``mergeAll(alarms:reminders:keepingCommands:completion:)`` reads it.
    public func importPlan(alarms: [Alarm], reminders: [Reminder], replacing: Bool, keepingCommands: Bool = false) -> ImportOutcome {
        owner.sync {
            var alarms = alarms, reminders = reminders
            if keepingCommands { keepCommands(&alarms, &reminders) }
            return plan(alarms: alarms, reminders: reminders, replacing: replacing)
        }
    }

    /// Items the store does not have are added. Those it has are updated: in
    /// a merge, only where the document says something else of them (the
    /// others are left alone); a replacement writes every one afresh.
    func plan(alarms: [Alarm], reminders: [Reminder], replacing: Bool) -> ImportOutcome {
        var outcome = ImportOutcome()
        let imported = Set(alarms.map(\.id) + reminders.map(\.id))
        for item in alarms.map(Item.alarm) + reminders.map(Item.reminder) {
            guard let known = owned.table[item.id] else { outcome.added.append(item.id); continue }
            if replacing || !item.saysTheSame(as: known) { outcome.updated.append(item.id) }
        }
        if replacing {
            owned.table.forEach { item, _ in if !imported.contains(item.id) { outcome.removed.append((item.id, item.kind, item.title)) } }
            outcome.removed.sort { $0.id.uuidString < $1.id.uuidString }
        }
        return outcome
    }

    /// An event that is news but changes nothing, such as a reminder's
    /// advance notice: to `Watch` subscribers and the journal, not the history.
    func announce(_ kind: EventKind, item: Item, scheduled: Date?, detail: String) {
        owner.assertCurrent()
        let event = DaemonEvent(kind: kind, item: item, scheduled: scheduled, actual: now(), snoozeCount: owned.table.state(of: item.id)?.snoozeCount ?? 0, detail: detail)
        publish(event)
        let journal = journal
        owner.output.async { Scheduler.log(event, to: journal) }
    }

    /// A `changed` event for `Watch` subscribers (not journaled: edits are not news).
    func publishChange(_ item: Item, now: Date, detail: String) {
        publish(DaemonEvent(kind: .changed, item: item, scheduled: nil, actual: now, snoozeCount: owned.table.state(of: item.id)?.snoozeCount ?? 0, detail: detail))
    }
}

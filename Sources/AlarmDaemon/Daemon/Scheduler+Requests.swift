import AlarmCore
import AlarmStore
import Foundation

/// What clients may ask of the scheduler. Each request is one step on the
/// scheduler's queue; a change takes effect in memory at once, goes to the
/// durable writer with every other change accepted meanwhile (group commit),
/// and is answered, and its effects performed, only once that commit is
/// durable. When the commit fails, the items it touched are put back as the
/// store has them and the request is answered with the failure.
extension Scheduler {
    /// One item with its live state, as requests return it.
    public struct Entry: Sendable {
        public let item: Item
        public let state: RingState
        /// When it next needs attention, `nil` when it will not fire; for an
        /// alarm skipping its next occurrence, the one after, which is what
        /// will really ring (the skipped one only wakes the scheduler).
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

    /// The status line, read on the owner.
    public var status: String { owner.sync { statusLine() } }


    /// Every item with its state.
    public func snapshot() -> [Entry] {
        owner.sync {
            var entries: [Entry] = []
            entries.reserveCapacity(table.count)
            table.forEach { item, state in entries.append(Entry(item: item, state: state, next: shownNext(item, state))) }
            return entries
        }
    }

    /// The item with this id, if there is one (on the owner).
    func item(_ id: UUID) -> Item? {
        owner.assertCurrent()
        return table[id]
    }

    func entry(_ item: Item) -> Entry {
        let state = table.state(of: item.id)!
        return Entry(item: item, state: state, next: shownNext(item, state))
    }

    /// The wake-up, except for a waiting alarm that skips its next
    /// occurrence: then the occurrence after it (none for a one-shot alarm,
    /// which switches itself off instead).
    private func shownNext(_ item: Item, _ state: RingState) -> Date? {
        let deadline = table.deadline(of: item.id)
        guard item.skipsNext, case .waiting = state.phase, let deadline else { return deadline }
        return item.endsAfter(deadline, in: zone, holidays: policy.holidays) ? nil : item.nextOccurrence(after: deadline, in: zone, holidays: policy.holidays)
    }

    /// One item by full id or unique prefix (at least 4 hex digits, dashes optional).
    public func lookup(_ text: String, kind: ItemKind? = nil) throws(SchedulerError) -> Entry {
        try owner.sync { () throws(SchedulerError) in entry(table[try resolve(text, kind: kind)]!) }
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

    /// How a request's result comes back: once its change is durable, or as
    /// soon as it is refused. Called on the scheduler's queue; it must only
    /// hand the result over.
    public typealias Completion<T> = @Sendable (Result<T, SchedulerError>) -> Void

    /// Adds a new item; it looks for its first occurrence from now.
    public func add(_ item: Item, completion: @escaping Completion<Entry>) {
        owner.run { [self] in
            do throws(SchedulerError) {
                try Self.validate(item)
                try Self.checkFiles(item, before: nil)
                try checkDates(item, before: nil, now: currentTime())
                guard table[item.id] == nil else { throw .invalid(ValidationError(field: "id", requirement: "must be new", value: item.id.uuidString.lowercased())) }
                fireDue()
                // The store puts a new reminder at the end of the list; so does memory.
                var stored = Self.asStored(item)
                if case .reminder(var reminder) = stored { reminder.position = table.reminderCount; stored = .reminder(reminder) }
                try stage(.added, for: stored, completion: completion)
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Changes one item in a single step on the queue: `change` gets the item
    /// as it is at that moment and the time, so nothing the scheduler did
    /// since a client last looked (a firing, a dismissal that switched a
    /// one-shot alarm off) is undone by writing back an older copy.
    ///
    /// An occurrence already due fires first, so an edit can never lose it;
    /// what the edit then does to a ringing or snoozed occurrence is
    /// ``RingingMachine/edited(from:to:state:now:)``'s decision.
    public func modify(_ text: String, kind: ItemKind, _ change: @escaping @Sendable (inout Item, Date) throws(SchedulerError) -> Void,
                       completion: @escaping Completion<Entry>) {
        owner.run { [self] in
            do throws(SchedulerError) {
                try modifyOnQueue(try resolve(text, kind: kind), change, completion: completion)
            } catch {
                completion(.failure(error))
            }
        }
    }

    private func modifyOnQueue(_ id: UUID, _ change: (inout Item, Date) throws(SchedulerError) -> Void, completion: @escaping Completion<Entry>) throws(SchedulerError) {
        fireDue()
        let now = currentTime()
        guard let before = table[id] else { throw .noSuchItem(id.uuidString.lowercased()) }
        var after = before
        try change(&after, now)
        after = Self.asStored(after)
        try Self.validate(after)
        try Self.checkFiles(after, before: before)
        try checkDates(after, before: before, now: now)
        try stage(.edited(to: after), for: before, now: now, completion: completion)
    }

    /// One request's step: ``DaemonMachine`` decides what `event` does to
    /// `item`; memory takes the outcome now, the store with the next group
    /// commit, and the effects and the reply (the item as staged) follow once
    /// that is durable.
    func stage(_ event: DaemonMachine.Event, for item: Item, now: Date? = nil, completion: @escaping Completion<Entry>) throws(SchedulerError) {
        try stageStep(event, for: item, now: now) { result in completion(result.map { $0! }) }
    }

    /// The same, for a step that may remove the item (no entry to reply with).
    private func stageStep(_ event: DaemonMachine.Event, for item: Item, now: Date? = nil, completion: @escaping Completion<Entry?>) throws(SchedulerError) {
        let now = now ?? currentTime()
        let step: DaemonMachine.Step
        do throws(RingError) {
            step = try DaemonMachine.step(event, item: item, state: table.state(of: item.id), now: now, zone: zone, policy: policy)
        } catch { throw .ring(error) }
        forgetSavedAhead(item.id)
        let staged: Entry?
        if let after = step.item {
            setInTable(after, step.state)
            staged = entry(after)
        } else {
            table.remove(item.id)
            // The store moves later reminders up by one; so does memory.
            if case .reminder(let removed) = item { shiftReminders(after: removed.position) }
            staged = nil
        }
        let batch = DurableWriter.Batch(items: step.write == .none ? [] : [step.write],
                                        states: step.saveState ? [(item.id, item.kind, step.state)] : [], history: step.history)
        commitRequest(batch, ids: [item.id], durable: { [self] in
            perform(step.effects, item: step.item ?? item, state: step.state, now: now)
            // The reply first: the status line and the plan (wake-up,
            // notices) may arm a timer through Dispatch's manager thread.
            completion(.success(staged))
            publishStatus()
        }, failed: { completion(.failure(.store($0))) })
        arm()
    }

    static func validate(_ item: Item) throws(SchedulerError) {
        do throws(ValidationError) {
            switch item {
            case .alarm(let alarm): try alarm.validate()
            case .reminder(let reminder): try reminder.validate()
            }
        } catch { throw .invalid(error) }
    }

    /// The files a new or changed item names must be readable regular files
    /// (``Item/checkFiles(changedFrom:_:)``), whichever way it came in: a
    /// request, an import, a sync round.
    static func checkFiles(_ item: Item, before: Item?, field prefix: String = "") throws(SchedulerError) {
        do throws(ValidationError) { try item.checkFiles(changedFrom: before, DesktopRinger.isPlayableFile) } catch {
            throw .invalid(ValidationError(field: prefix + error.field, requirement: error.requirement, value: error.value))
        }
    }

    /// The same for a whole import or sync round, each item against its
    /// stored version; an error names the item by its place (`alarms[2].sound`).
    func checkFiles(alarms: [Alarm], reminders: [Reminder]) throws(SchedulerError) {
        for (index, alarm) in alarms.enumerated() { try Self.checkFiles(.alarm(alarm), before: table[alarm.id], field: "alarms[\(index)].") }
        for (index, reminder) in reminders.enumerated() { try Self.checkFiles(.reminder(reminder), before: table[reminder.id], field: "reminders[\(index)].") }
    }

    /// A date an added or changed alarm is given that is already over
    /// (``PastDates``), by the scheduler's clock and zone.
    func checkDates(_ item: Item, before: Item?, now: Date) throws(SchedulerError) {
        do throws(ValidationError) { try PastDates.check(item, before: before, now: now, systemZone: zone) } catch { throw .invalid(error) }
    }

    /// Removes an item. A ringing or snoozed occurrence ends with it, and
    /// that end is recorded (``RingingMachine/removed(state:)``).
    public func remove(_ text: String, kind: ItemKind, completion: @escaping Completion<Item>) {
        owner.run { [self] in
            do throws(SchedulerError) {
                let id = try resolve(text, kind: kind)
                fireDue()
                guard let item = table[id] else { throw .noSuchItem(text) }
                try stageStep(.removed, for: item) { result in completion(result.map { _ in item }) }
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// Moves every reminder after `position` up by one, as the store does when
    /// one is removed.
    private func shiftReminders(after position: Int) {
        var moved: [(Item, RingState)] = []
        table.forEach { item, state in
            if case .reminder(var reminder) = item, reminder.position > position {
                reminder.position -= 1
                moved.append((.reminder(reminder), state))
            }
        }
        for (item, state) in moved { table.set(item, state: state, wake: table.deadline(of: item.id)) }
    }

    /// Moves a reminder in the manual order; returns the reminders in order.
    /// Rare, and it renumbers many rows: written on this queue's connection,
    /// after everything in flight.
    public func moveReminder(_ text: String, to position: Int) throws(SchedulerError) -> [Entry] {
        try owner.sync { () throws(SchedulerError) in
            let id = try resolve(text, kind: .reminder)
            settleAhead()
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
    public func reminders() -> [Entry] { owner.sync { reminderEntries() } }

    func reminderEntries() -> [Entry] {
        var reminders: [(Reminder, Entry)] = []
        table.forEach { item, state in
            if case .reminder(let reminder) = item { reminders.append((reminder, Entry(item: item, state: state, next: table.deadline(of: item.id)))) }
        }
        return reminders.sorted { $0.0.position < $1.0.position }.map(\.1)
    }

    /// Positions change in the store when one reminder moves (or a failed
    /// commit leaves memory behind); read them back.
    func reloadReminderPositions() {
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
    public func command(_ command: RingCommand, id text: String?, completion: @escaping Completion<Entry>) {
        owner.run { [self] in
            do throws(SchedulerError) {
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
                try commandOnQueue(command, id: id, completion: completion)
            } catch {
                completion(.failure(error))
            }
        }
    }

    private func commandOnQueue(_ command: RingCommand, id: UUID, completion: @escaping Completion<Entry>) throws(SchedulerError) {
        try stage(.command(command), for: table[id]!, completion: completion)
    }

    /// Marks a reminder done or not done, in one step on the queue. A ringing
    /// or snoozed reminder stops through the ringing machine (a `completed`
    /// record); otherwise it is an ordinary change.
    public func setDone(_ text: String, done: Bool, completion: @escaping Completion<Entry>) {
        owner.run { [self] in
            do throws(SchedulerError) {
                let id = try resolve(text, kind: .reminder)
                fireDue()
                // Ringing, snoozed or recurring: the ringing machine decides
                // (it stops the sound, and brings a recurring one back).
                if done, let state = table.state(of: id), state.isRinging || state.isSnoozed || table[id]?.recursAsReminder == true {
                    return try commandOnQueue(.complete, id: id, completion: completion)
                }
                try modifyOnQueue(id, { item, now in
                    guard case .reminder(var reminder) = item else { return }
                    reminder.done = done
                    reminder.updated = now
                    item = .reminder(reminder)
                }, completion: completion)
            } catch {
                completion(.failure(error))
            }
        }
    }

    /// What happened to items, newest first: `id` (a full id, or a prefix
    /// of an item that still exists) narrows it to one item. Read on the
    /// durable writer's queue; each event comes with the item as it is now,
    /// when it still exists, for its title.
    public func history(id text: String?, since: Date?, kinds: Set<EventKind>, limit: Int,
                        completion: @escaping Completion<[(event: HistoryEvent, item: Item?)]>) {
        owner.run { [self] in
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
            guard let writer else { return completion(.failure(.store(.sqlite(code: 21, message: "the daemon is stopping", operation: "read history")))) }
            let owner = owner
            writer.read({ store throws(StoreError) in try store.history(itemID: id, since: since, kinds: kinds, limit: limit) }) { [weak self] result in
                owner.queue.async { [weak self] in
                    guard let scheduler = self else { return }
                    completion(result.map { events in events.map { ($0, scheduler.table[$0.itemID]) } }.mapError { .store($0) })
                }
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
                if let item = table[candidate.id], include(item) { add(item, at: firstFiring(item, wake: candidate.deadline)) }
                pending = walk.next()
            }
            guard let next = frontier.popLast() else { break }
            result.append(Firing(item: next.item, at: next.at))
            // A one-shot alarm switches itself off after its occurrence.
            add(next.item, at: next.item.endsAfter(next.at, in: zone, holidays: policy.holidays) ? nil : next.item.nextOccurrence(after: next.at, in: zone, holidays: policy.holidays))
        }
        return result
    }

    /// When `item`, whose wake-up is `wake`, next actually fires.
    private func firstFiring(_ item: Item, wake: Date) -> Date? {
        guard let state = table.state(of: item.id) else { return nil }
        switch state.phase {
        case .waiting:
            // A skipped occurrence will not fire; show the one after it.
            return item.skipsNext ? item.nextOccurrence(after: wake, in: zone, holidays: policy.holidays) : wake
        case .snoozed(let until):
            return until
        case .ringing:
            let occurrence = state.occurrence ?? state.anchor
            return item.endsAfter(occurrence, in: zone, holidays: policy.holidays) ? nil : item.nextOccurrence(after: occurrence, in: zone, holidays: policy.holidays)
        }
    }

    public func summary() -> Summary {
        owner.sync {
            let ringing = table.ringing.sorted { $0.uuidString < $1.uuidString }
            return Summary(alarms: table.alarmCount, reminders: table.reminderCount, ringing: ringing, next: upcomingFirings(1).first, zone: zone)
        }
    }

    /// The ids of items ringing now.
    public var ringing: [UUID] { owner.sync { Array(table.ringing) } }

    /// Every alarm and reminder, for an export.
    public func allItems() -> (alarms: [Alarm], reminders: [Reminder]) {
        owner.sync {
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
        try owner.sync { () throws(SchedulerError) in
            try checkFiles(alarms: alarms, reminders: reminders)
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
                if let item = table[id], let state = table.state(of: id) { perform([.stopRinging], item: item, state: state, now: now) }
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

    /// What an import changes: ids added, updated and (when replacing) removed.
    public struct ImportOutcome: Sendable {
        public var added: [UUID] = []
        public var updated: [UUID] = []
        /// With their kind and title, which the document does not have.
        public var removed: [(id: UUID, kind: ItemKind, title: String)] = []
    }

    /// What importing `alarms` and `reminders` would do, without doing it:
    /// merged by id (`replacing` false), or replacing everything.
    public func importPlan(alarms: [Alarm], reminders: [Reminder], replacing: Bool) -> ImportOutcome {
        owner.sync {
            var outcome = ImportOutcome()
            let imported = Set(alarms.map(\.id) + reminders.map(\.id))
            for id in alarms.map(\.id) + reminders.map(\.id) {
                if table[id] == nil { outcome.added.append(id) } else { outcome.updated.append(id) }
            }
            if replacing {
                table.forEach { item, _ in if !imported.contains(item.id) { outcome.removed.append((item.id, item.kind, item.title)) } }
                outcome.removed.sort { $0.id.uuidString < $1.id.uuidString }
            }
            return outcome
        }
    }

    /// Merges an import by id in one transaction: new items are added
    /// (reminders after the list), known ones take the imported fields (a
    /// reminder keeps its place), nothing else is touched. Items changed
    /// start afresh from now, as after an edit; one ringing stops. With
    /// `keepingCommands`, known items keep their commands (an iCalendar
    /// import, which never carries them).
    public func mergeAll(alarms: [Alarm], reminders: [Reminder], keepingCommands: Bool = false) throws(SchedulerError) -> ImportOutcome {
        try owner.sync { () throws(SchedulerError) -> ImportOutcome in
            var alarms = alarms, reminders = reminders
            if keepingCommands {
                for index in alarms.indices {
                    guard case .alarm(let known)? = table[alarms[index].id] else { continue }
                    alarms[index].command = known.command
                    alarms[index].escalateCommand = known.escalateCommand
                }
                for index in reminders.indices {
                    guard case .reminder(let known)? = table[reminders[index].id] else { continue }
                    reminders[index].command = known.command
                }
            }
            try checkFiles(alarms: alarms, reminders: reminders)
            let now = currentTime()
            let outcome = importPlan(alarms: alarms, reminders: reminders, replacing: false)
            let known = Set(outcome.updated)
            // Writes of these items in flight land first; none saved ahead is
            // announced, as for an edit.
            settleAhead()
            for id in alarms.map(\.id) + reminders.map(\.id) { forgetSavedAhead(id) }
            var stored: [Reminder] = []
            do throws(StoreError) {
                try store.transaction { () throws(StoreError) in
                    for alarm in alarms { if known.contains(alarm.id) { try store.update(alarm) } else { try store.insert(alarm) } }
                    for reminder in reminders { if known.contains(reminder.id) { try store.update(reminder) } else { try store.insert(reminder) } }
                    try store.saveRingStates(alarms.map { ($0.id, .alarm, RingState(anchor: now)) } + reminders.map { ($0.id, .reminder, RingState(anchor: now)) })
                    // Positions are the store's: read them back.
                    for reminder in reminders { if let saved = try store.reminder(id: reminder.id) { stored.append(saved) } }
                }
            } catch {
                if case .invalid(let validation) = error { throw .invalid(validation) }
                throw .store(error)
            }
            for id in known where table.ringing.contains(id) {
                if let item = table[id], let state = table.state(of: id) { perform([.stopRinging], item: item, state: state, now: now) }
            }
            for alarm in alarms { table.set(.alarm(alarm), state: RingState(anchor: now), wake: nil) }
            for reminder in stored { table.set(.reminder(reminder), state: RingState(anchor: now), wake: nil) }
            rebuildDeadlines()
            journal.send("Imported \(alarms.count) alarms and \(reminders.count) reminders: \(outcome.added.count) added, \(outcome.updated.count) updated",
                         priority: .info, messageID: MessageID.changed)
            fireDue()
            publishStatus()
            return outcome
        }
    }

    private func reloadAllReminders(fallback: [Reminder], anchor: Date) {
        let stored = (try? store.reminders()) ?? fallback
        for reminder in stored { table.set(.reminder(reminder), state: RingState(anchor: anchor), wake: nil) }
    }

    /// An event that is news but changes nothing, such as a reminder's
    /// advance notice: to `Watch` subscribers and the journal, not the history.
    func announce(_ kind: EventKind, item: Item, scheduled: Date?, detail: String) {
        owner.assertCurrent()
        let event = DaemonEvent(kind: kind, item: item, scheduled: scheduled, actual: now(), snoozeCount: table.state(of: item.id)?.snoozeCount ?? 0, detail: detail)
        publish(event)
        let journal = journal
        owner.output.async { Scheduler.log(event, to: journal) }
    }

    /// A `changed` event for `Watch` subscribers (not journaled: edits are not news).
    func publishChange(_ item: Item, now: Date, detail: String) {
        publish(DaemonEvent(kind: .changed, item: item, scheduled: nil, actual: now, snoozeCount: table.state(of: item.id)?.snoozeCount ?? 0, detail: detail))
    }
}


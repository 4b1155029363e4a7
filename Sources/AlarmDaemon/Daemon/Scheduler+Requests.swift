// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import FoundationEssentials

/// What clients may ask of the scheduler. Each request is one step on the
/// scheduler's queue; a change takes effect in memory at once, goes to the
/// durable writer with every other change accepted meanwhile (group commit),
/// and is answered, and its effects performed, only once that commit is
/// durable. When the commit fails, the items it touched are put back as the
/// store has them and the request is answered with the failure.
extension Scheduler {
    /// How a request's result comes back: once its change is durable, or as
    /// soon as it is refused. Called on the scheduler's queue; it must only
    /// hand the result over.
    public typealias Completion<T> = @Sendable (Result<T, SchedulerError>) -> Void

    /// Adds a new item; it looks for its first occurrence from now.
    public func add(_ item: Item, completion: @escaping Completion<Entry>) {
        owner.assertCurrent()
        do throws(SchedulerError) {
            try Self.validate(item)
            try Self.checkFiles(item, before: nil)
            try checkDates(item, before: nil, now: currentTime())
            guard owned.table[item.id] == nil else { throw .invalid(ValidationError(field: "id", requirement: "must be new", value: item.id.lowercasedText)) }
            fireDue()
            // The store puts a new reminder at the end of the list; so does memory.
            var stored = Self.asStored(item)
            if case .reminder(var reminder) = stored { reminder.position = owned.table.reminderCount; stored = .reminder(reminder) }
            try stage(.added, for: stored, completion: completion)
        } catch {
            completion(.failure(error))
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
        owner.assertCurrent()
        do throws(SchedulerError) {
            try modifyOnQueue(try resolve(text, kind: kind), change, completion: completion)
        } catch {
            completion(.failure(error))
        }
    }

    private func modifyOnQueue(_ id: UUID, _ change: (inout Item, Date) throws(SchedulerError) -> Void, completion: @escaping Completion<Entry>) throws(SchedulerError) {
        fireDue()
        let now = currentTime()
        guard let before = owned.table[id] else { throw .noSuchItem(id.lowercasedText) }
        var after = before
        try change(&after, now)
        // A one-off switched back on after its day, its day unchanged, rings
        // next at its time (``Alarm/dropPassedDay(now:systemZone:)``).
        if case .alarm(let old) = before, case .alarm(var alarm) = after, alarm.enabled, !old.enabled, alarm.recurrence == old.recurrence {
            alarm.dropPassedDay(now: now, systemZone: owned.zone)
            after = .alarm(alarm)
        }
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
            step = try DaemonMachine.step(event, item: item, state: owned.table.state(of: item.id), now: now, zone: owned.zone, policy: owned.policy)
        } catch { throw .ring(error) }
        owned.pipeline.forget(item.id)
        let staged: Entry?
        if let after = step.item {
            setInTable(after, step.state)
            staged = entry(after)
        } else {
            owned.table.remove(item.id)
            // The store moves later reminders up by one; so does memory.
            if case .reminder(let removed) = item { shiftReminders(after: removed.position) }
            staged = nil
        }
        let batch = DurableWriter.Batch(items: step.write == .none ? [] : [step.write],
                                        states: step.saveState ? [(item.id, item.kind, step.state)] : [], history: step.history)
        commit(batch, restoring: [item.id], waiting: Waiting(durable: { [self] in
            perform(step.effects, item: step.item ?? item, state: step.state, now: now)
            // The reply first: the status line and the plan (wake-up,
            // notices) come after it.
            completion(.success(staged))
            publishStatus()
        }, failed: { completion(.failure(.store($0))) }))
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
        for (index, alarm) in alarms.enumerated() { try Self.checkFiles(.alarm(alarm), before: owned.table[alarm.id], field: "alarms[\(index)].") }
        for (index, reminder) in reminders.enumerated() { try Self.checkFiles(.reminder(reminder), before: owned.table[reminder.id], field: "reminders[\(index)].") }
    }

    /// A date an added or changed alarm is given that is already over
    /// (``PastDates``), by the scheduler's clock and zone.
    func checkDates(_ item: Item, before: Item?, now: Date) throws(SchedulerError) {
        do throws(ValidationError) { try PastDates.check(item, before: before, now: now, systemZone: owned.zone) } catch { throw .invalid(error) }
    }

    /// Removes an item. A ringing or snoozed occurrence ends with it, and
    /// that end is recorded (``RingingMachine/removed(state:)``).
    public func remove(_ text: String, kind: ItemKind, completion: @escaping Completion<Item>) {
        owner.assertCurrent()
        do throws(SchedulerError) {
            let id = try resolve(text, kind: kind)
            fireDue()
            guard let item = owned.table[id] else { throw .noSuchItem(text) }
            try stageStep(.removed, for: item) { result in completion(result.map { _ in item }) }
        } catch {
            completion(.failure(error))
        }
    }

    /// Moves every reminder after `position` up by one, as the store does when
    /// one is removed.
    private func shiftReminders(after position: Int) {
        var moved: [(Item, RingState)] = []
        owned.table.forEach { item, state in
            if case .reminder(var reminder) = item, reminder.position > position {
                reminder.position -= 1
                moved.append((.reminder(reminder), state))
            }
        }
        for (item, state) in moved { owned.table.set(item, state: state, wake: owned.table.deadline(of: item.id)) }
    }

    /// Snooze, dismiss or complete an item; without an id, the one item
    /// ringing (for dismiss with nothing ringing, the one snoozed).
    /// Whatever is due fires first, so the command meets the item as it is now.
    public func command(_ command: RingCommand, id text: String?, completion: @escaping Completion<Entry>) {
        owner.assertCurrent()
        do throws(SchedulerError) {
            fireDue()
            let id: UUID
            if let text {
                do throws(SchedulerError) { id = try resolve(text, kind: nil) } catch .ambiguous(let name, let candidates) {
                    // `snooze tea` with two alarms called "tea", one ringing (or for
                    // dismiss, snoozed): that one.
                    var active = owned.table.ringing
                    if command == .dismiss { active.formUnion(snoozedItems()) }
                    guard command != .complete, !active.isEmpty, let only = try? resolve(text, kind: nil, among: active) else {
                        throw .ambiguous(name, candidates)
                    }
                    id = only
                }
            } else {
                // The one ringing; for dismiss with nothing ringing, the one snoozed.
                var active = owned.table.ringing
                let snoozed = active.isEmpty && command == .dismiss
                if snoozed { active = snoozedItems() }
                guard active.count == 1, let only = active.first else {
                    throw .ringingCount(active.compactMap { owned.table[$0] }.map { "\($0.id.lowercasedText) \(ValidationError.quoted($0.title))" },
                                        snoozed: snoozed)
                }
                id = only
            }
            try commandOnQueue(command, id: id, completion: completion)
        } catch {
            completion(.failure(error))
        }
    }

    /// The items snoozed now: a scan, made only for a dismiss.
    private func snoozedItems() -> Set<UUID> {
        var snoozed: Set<UUID> = []
        owned.table.forEach { item, state in
            if case .snoozed = state.phase { snoozed.insert(item.id) }
        }
        return snoozed
    }

    private func commandOnQueue(_ command: RingCommand, id: UUID, completion: @escaping Completion<Entry>) throws(SchedulerError) {
        try stage(.command(command), for: owned.table[id]!, completion: completion)
    }

    /// Marks a reminder done or not done, in one step on the queue. "Done" on
    /// an open reminder goes through the ringing machine, ringing or not: it
    /// stops the sound, brings a recurring one back, and records `completed`
    /// in the history. "Not done" is an ordinary change.
    public func setDone(_ text: String, done: Bool, completion: @escaping Completion<Entry>) {
        owner.assertCurrent()
        do throws(SchedulerError) {
            let id = try resolve(text, kind: .reminder)
            fireDue()
            if done, case .reminder(let reminder)? = owned.table[id], !reminder.done {
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


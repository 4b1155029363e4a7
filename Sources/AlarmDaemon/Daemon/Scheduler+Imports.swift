// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import FoundationEssentials

/// The changes of many items at once — an import, a sync merge, a move in
/// the manual order — through the same write path as every request: memory
/// takes the change at once, the writer commits it with whatever else is
/// waiting, and the reply and the effects follow once it is durable. A
/// failed commit puts every item it touched back as the store has it.
extension Scheduler {
    /// Moves a reminder in the manual order (the others close up, as the
    /// store does); answers with the reminders in order.
    public func moveReminder(_ text: String, to position: Int, completion: @escaping Completion<[Entry]>) {
        owner.assertCurrent()
        do throws(SchedulerError) {
            let id = try resolve(text, kind: .reminder)
            fireDue()
            guard case .reminder(var moving) = owned.table[id], let state = owned.table.state(of: id) else { throw .noSuchItem(text) }
            let count = owned.table.reminderCount
            guard position >= 0, position < count else {
                throw .invalid(ValidationError(field: "position", requirement: "must be 0–\(count - 1)", value: String(position)))
            }
            let from = moving.position
            var shifted: [(Item, RingState)] = []
            owned.table.forEach { item, state in
                guard case .reminder(var other) = item, other.id != id else { return }
                if position < from, (position..<from).contains(other.position) { other.position += 1 }
                else if position > from, (from + 1...position).contains(other.position) { other.position -= 1 }
                else { return }
                shifted.append((.reminder(other), state))
            }
            for (item, state) in shifted { owned.table.set(item, state: state, wake: owned.table.deadline(of: item.id)) }
            moving.position = position
            owned.table.set(.reminder(moving), state: state, wake: owned.table.deadline(of: id))
            let now = currentTime()
            commit(DurableWriter.Batch(moves: from == position ? [] : [(id, position)]), restoring: [id], waiting: Waiting(durable: { [self] in
                if let item = owned.table[id] { publishChange(item, now: now, detail: EventDetail.text(EventDetail.movedTo, position)) }
                completion(.success(reminderEntries()))
            }, failed: { completion(.failure(Self.refusal($0))) }))
        } catch {
            completion(.failure(error))
        }
    }

    /// Replaces everything, all or nothing (an import). Whatever rang stops, and
    /// every item looks for its next occurrence from now.
    public func replaceAll(alarms: [Alarm], reminders: [Reminder], completion: @escaping Completion<Void>) {
        owner.assertCurrent()
        do throws(SchedulerError) {
            try checkImport(alarms: alarms, reminders: reminders)
            let now = currentTime()
            let ringing = ringingItems()
            var touched: [UUID] = []
            owned.table.forEach { item, _ in touched.append(item.id) }
            touched += alarms.map(\.id) + reminders.map(\.id)
            _ = owned.pipeline.forgetAll()
            owned.table.removeAll()
            owned.table.reserveCapacity(alarms.count + reminders.count)
            for alarm in alarms { owned.table.set(.alarm(alarm), state: RingState(anchor: now), wake: nil) }
            for (position, reminder) in reminders.enumerated() {
                var placed = reminder
                placed.position = position
                owned.table.set(.reminder(placed), state: RingState(anchor: now), wake: nil)
            }
            rebuildDeadlines()
            let batch = DurableWriter.Batch(replacement: (alarms, reminders), states: freshStates(alarms, reminders, anchor: now))
            commit(batch, restoring: touched, waiting: Waiting(durable: { [self] in
                stopRinging(ringing, now: now)
                journal.send("Imported \(alarms.count) alarms and \(reminders.count) reminders, replacing all items", priority: .info, messageID: MessageID.changed)
                completion(.success(()))
                publishStatus()
            }, failed: { completion(.failure(Self.refusal($0))) }))
            fireDue()
        } catch {
            completion(.failure(error))
        }
    }

    /// Merges an import by id: new items are added (reminders after the
    /// list), known ones take the imported fields (a reminder keeps its
    /// place), nothing else is touched. Items written start afresh from now,
    /// as after an edit; one ringing stops. With `leavingUnchanged` (a
    /// person's import), known items the document says nothing new of are
    /// not written and keep their state; a sync round writes every item it
    /// took, so the store has the server's `updated` that its records stamp.
    /// With `keepingCommands`, known items keep their commands (an iCalendar
    /// import or a sync round, which never carry them).
    public func mergeAll(alarms: [Alarm], reminders: [Reminder], keepingCommands: Bool = false, leavingUnchanged: Bool = false,
                         completion: @escaping Completion<ImportOutcome>) {
        owner.assertCurrent()
        do throws(SchedulerError) {
            var alarms = alarms, reminders = reminders
            if keepingCommands { keepCommands(&alarms, &reminders) }
            try checkImport(alarms: alarms, reminders: reminders)
            let now = currentTime()
            let outcome = plan(alarms: alarms, reminders: reminders, replacing: false)
            let given = (alarms: alarms.count, reminders: reminders.count)
            if leavingUnchanged {
                let changed = Set(outcome.updated + outcome.added)
                alarms.removeAll { !changed.contains($0.id) }
                reminders.removeAll { !changed.contains($0.id) }
            }
            let known = Set(alarms.map(\.id) + reminders.map(\.id)).subtracting(outcome.added)
            let ringing = ringingItems().filter { known.contains($0.0.id) }
            var batch = DurableWriter.Batch(states: freshStates(alarms, reminders, anchor: now))
            var end = owned.table.reminderCount
            for alarm in alarms {
                owned.pipeline.forget(alarm.id)
                batch.items.append(known.contains(alarm.id) ? .update(.alarm(alarm)) : .insert(.alarm(alarm)))
                owned.table.set(.alarm(alarm), state: RingState(anchor: now), wake: nil)
            }
            for reminder in reminders {
                owned.pipeline.forget(reminder.id)
                batch.items.append(known.contains(reminder.id) ? .update(.reminder(reminder)) : .insert(.reminder(reminder)))
                // The store keeps a known reminder's place and puts a new one last.
                var placed = reminder
                if case .reminder(let stored)? = owned.table[reminder.id] { placed.position = stored.position } else { placed.position = end; end += 1 }
                owned.table.set(.reminder(placed), state: RingState(anchor: now), wake: nil)
            }
            rebuildDeadlines()
            commit(batch, restoring: alarms.map(\.id) + reminders.map(\.id), waiting: Waiting(durable: { [self] in
                stopRinging(ringing, now: now)
                journal.send("Imported \(given.alarms) alarms and \(given.reminders) reminders: \(outcome.added.count) added, \(outcome.updated.count) updated",
                             priority: .info, messageID: MessageID.changed)
                completion(.success(outcome))
                publishStatus()
            }, failed: { completion(.failure(Self.refusal($0))) }))
            fireDue()
        } catch {
            completion(.failure(error))
        }
    }

    /// Known items keep the commands they have: what the document says of
    /// them is not read.
    func keepCommands(_ alarms: inout [Alarm], _ reminders: inout [Reminder]) {
        for index in alarms.indices {
            guard case .alarm(let known)? = owned.table[alarms[index].id] else { continue }
            alarms[index].command = known.command
            alarms[index].escalateCommand = known.escalateCommand
        }
        for index in reminders.indices {
            guard case .reminder(let known)? = owned.table[reminders[index].id] else { continue }
            reminders[index].command = known.command
        }
    }

    /// What the store would refuse, refused before memory changes: each item
    /// valid, no id twice, the files named readable.
    private func checkImport(alarms: [Alarm], reminders: [Reminder]) throws(SchedulerError) {
        for alarm in alarms { try Self.validate(.alarm(alarm)) }
        for reminder in reminders { try Self.validate(.reminder(reminder)) }
        var seen = Set<UUID>()
        for id in alarms.map(\.id) + reminders.map(\.id) where !seen.insert(id).inserted {
            throw .invalid(ValidationError(field: "id", requirement: "must be unique", value: id.uuidString))
        }
        try checkFiles(alarms: alarms, reminders: reminders)
    }

    private func freshStates(_ alarms: [Alarm], _ reminders: [Reminder], anchor: Date) -> [(id: UUID, kind: ItemKind, state: RingState)] {
        alarms.map { ($0.id, .alarm, RingState(anchor: anchor)) } + reminders.map { ($0.id, .reminder, RingState(anchor: anchor)) }
    }

    private func ringingItems() -> [(Item, RingState)] {
        owned.table.ringing.compactMap { id in owned.table[id].flatMap { item in owned.table.state(of: id).map { (item, $0) } } }
    }

    private func stopRinging(_ items: [(Item, RingState)], now: Date) {
        for (item, state) in items { perform([.stopRinging], item: item, state: state, now: now) }
    }

    /// A failed commit as the client hears it: what the store found invalid
    /// names its field.
    static func refusal(_ error: StoreError) -> SchedulerError {
        if case .invalid(let validation) = error { return .invalid(validation) }
        return .store(error)
    }
}

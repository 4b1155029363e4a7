import AlarmCore
import AlarmStore
import Dispatch
import Foundation
import Synchronization

/// Keeps every item, its ringing state and its next wake-up, and fires them on
/// time with one wall-clock Dispatch timer armed for the earliest wake-up.
///
/// All state is confined to the daemon's owner queue (``Owner``). Each step
/// runs the pure `RingingMachine`, persists the resulting state through the
/// durable writer, and only then hands the effects to the output worker
/// (journal, notification, sound), so a slow output never holds up the next
/// firing and nothing is announced that a crash could take back.
public final class Scheduler: @unchecked Sendable {
    /// The queue that owns this state, and the output worker beside it.
    public let owner: Owner
    public var queue: DispatchQueue { owner.queue }
    /// Journal entries, notifications and sound: they may be slow (D-Bus,
    /// spawning a player) and must not hold up the next firing.
    private var outputQueue: DispatchQueue { owner.output }
    let store: Store
    private let clock: any WallClock
    let journal: Journal
    private let ringer: any Ringer
    public let events = EventStream()

    // Confined to the owner.
    private(set) var policy: RingPolicy
    private(set) var zone: Zone {
        didSet { publishedZone.withLock { $0 = zone } }
    }
    /// `zone`, readable from any thread without waiting for the queue: every
    /// reply that shows an instant needs it.
    private let publishedZone: Mutex<Zone>
    /// Every item, its ringing state and its next wake-up.
    var table = ItemTable()
    private var timer: DispatchSourceTimer?
    private var armedFor: Date?
    /// Ordinary firings due soon whose new state is already saved (see
    /// `RingingMachine.firingAhead`): at their instant they are only announced.
    /// A durable commit takes about half a millisecond, so at a thousand
    /// firings a second none can wait for a commit of its own.
    private var savedAhead: [UUID: (wake: Date, transition: RingTransition)] = [:]
    /// Firings whose saving ahead is still being committed by `writer`, with
    /// the batch that carries each.
    private var aheadInFlight: [UUID: (wake: Date, transition: RingTransition, serial: UInt64)] = [:]
    /// Commits requests, firings saved ahead and history rows off this queue,
    /// in groups; opened by ``start()``.
    private(set) var writer: DurableWriter?
    private var nextSerial: UInt64 = 1
    /// Requests whose changes are with `writer`, by batch: what to do once
    /// they are durable, or when their commit fails.
    private var awaiting: [UInt64: (ids: [UUID], durable: () -> Void, failed: (StoreError) -> Void)] = [:]
    /// Requests whose commit is durable, to be answered in this order
    /// (``answerDurable()``); those before `durableAnswered` have been.
    private var durable: [() -> Void] = []
    private var durableAnswered = 0
    /// Set while answers run (one may lead to another commit being collected)
    /// and while the next chunk waits on the queue.
    private var answering = false
    private var answerQueued = false
    /// Items with request changes in flight, and how many.
    private var requestsInFlight: [UUID: Int] = [:]
    /// Wake-ups up to this instant have been looked at for saving ahead.
    private var savedAheadUntil = Date.distantPast
    /// History rows of firings announced without a commit, and their journal
    /// entries; written with the next commit, or by `writer` at once.
    var pending = PendingRecords()
    /// Batches handed to `writer` and not yet collected: while one commits,
    /// new rows wait and go together into the next (group commit).
    private var batchesInFlight = 0
    /// Called on `queue` after changes of plan (see ``publishStatus()``), with the status line.
    public var onStatusChange: (@Sendable (String) -> Void)?
    /// Called on the owner when what rings changes, with the title of the
    /// item ringing longest, or `nil` when none is (logind's inhibitor while
    /// ringing follows it). Only a different title is reported: a burst of a
    /// hundred firings is one call, not a hundred.
    public var onRingingChange: ((String?) -> Void)?
    /// The title last given to `onRingingChange`.
    private var reportedRinging: String?
    /// Called on the owner, at the same pace, after the plan changed (what
    /// fires next may have moved): the wake-up from suspend follows it.
    public var onPlanChange: (() -> Void)?
    /// At most ten updates a second, the last change always sent.
    static let statusInterval: DispatchTimeInterval = .milliseconds(100)
    private var statusPacer = Pacer(interval: statusInterval)

    /// `owner` is the daemon's; a scheduler made alone (in a test) gets its own.
    public init(store: Store, clock: any WallClock, journal: Journal, ringer: any Ringer, policy: RingPolicy, zone: Zone, owner: Owner = Owner()) {
        self.owner = owner
        self.store = store
        self.clock = clock
        self.journal = journal
        self.ringer = ringer
        self.policy = policy
        self.zone = zone
        publishedZone = Mutex(zone)
    }

    /// The zone floating alarms follow now.
    public var systemZone: Zone { publishedZone.withLock { $0 } }

    // MARK: - Life cycle

    /// Loads everything from the store, applies the missed-alarm rules to what
    /// fell due while the daemon was away, resumes items that were ringing, and
    /// arms the timer.
    public func start() throws(StoreError) {
        try owner.sync { () throws(StoreError) in
            let now = currentTime()
            writer = try DurableWriter(path: store.path) { [weak self] in
                guard let self else { return }
                owner.post {
                    self.collectAhead()
                    self.commitPendingRecords()
                }
            }
            let rules = zone.rules
            let policy = policy
            // The output worker is idle this early: it lends the loader its core.
            let loader = try TableLoader(path: store.path, now: now, queue: outputQueue) { item, state in
                RingingMachine.wake(item: item, state: state, systemRules: rules, policy: policy)
            }
            let loaded: (table: ItemTable, fresh: [(id: UUID, kind: ItemKind, state: RingState)])
            do throws(StoreError) {
                // Checking each alarm here, not on the loader's core, evens out the two halves.
                try store.setMappedReads(true)
                defer { try? store.setMappedReads(false) }
                try store.loadAlarms { loader.add($0) }
                try store.loadReminders { loader.add($0, $1) }
                loaded = try loader.finish()
            } catch {
                _ = try? loader.finish()
                throw error
            }
            table = loaded.table
            // Items without a stored state are new to this schema: they look forward from now.
            let fresh = loaded.fresh
            if !fresh.isEmpty { try store.saveRingStates(fresh) }
            try takeBackUnannouncedFirings(now: now)
            for id in table.ringing {
                let state = table.state(of: id)!
                perform(RingingMachine.resume(state: state).compactMap(DaemonMachine.Effect.init), item: table[id]!, state: state, now: now)
            }
            fireDue()
        }
    }

    /// A firing saved ahead whose instant has passed but whose history row is
    /// missing was never announced: the daemon died between the save and the
    /// instant (or before the row followed). Such an item waits for that
    /// occurrence again (``RingingMachine/loaded(_:now:fireRecorded:)``), so
    /// ``fireDue()`` journals and records it — or its miss — like any other.
    /// Only items loaded as ringing are looked at: a handful.
    private func takeBackUnannouncedFirings(now: Date) throws(StoreError) {
        for id in Array(table.ringing) {
            guard let item = table[id], let state = table.state(of: id), RingingMachine.isSavedAhead(state), let occurrence = state.occurrence else { continue }
            let recorded = try store.history(itemID: id, limit: 16).contains { $0.event == .fired && $0.scheduled == occurrence }
            let taken = RingingMachine.loaded(state, now: now, fireRecorded: recorded)
            if taken != state { setInTable(item, taken) }
        }
    }

    /// Stops the timer and silences everything; the store stays as it is.
    public func stop() {
        owner.sync {
            timer?.cancel()
            timer = nil
            restoreSavedAhead()
            flushHistory()
            writer?.close()
            writer = nil
        }
        ringer.stopAll()
    }

    /// Waits until every output handed over so far has been performed.
    public func drainOutputs() {
        outputQueue.sync {}
    }

    // MARK: - Re-planning

    /// The wall clock was set or the machine resumed: forward jumps get the
    /// missed-alarm rules, backward jumps re-arm without ringing anything twice.
    public func clockChanged(_ change: ClockChange) {
        owner.run { [self] in
            let now = currentTime()
            journal.send("Clock change: \(change); re-planning \(table.count) items", priority: .info, messageID: MessageID.clockChanged,
                         fields: [("ALARMD_CLOCK_JUMP_USEC", String(Int64(change.jump * 1_000_000))), ("ALARMD_RESUMED", change.resumed ? "1" : "0")])
            if change.jump < 0 {
                settleAhead()
                var moved: [(Item, RingState)] = []
                table.forEach { item, state in
                    if let step = try? DaemonMachine.step(.clockMovedBack, item: item, state: state, now: now, zone: zone, policy: policy), step.saveState {
                        moved.append((item, step.state))
                    }
                }
                // The wake-ups are all recomputed below.
                for (item, state) in moved { table.set(item, state: state, wake: nil) }
                do { try store.saveRingStates(moved.map { ($0.0.id, $0.0.kind, $0.1) }) } catch {
                    logSaveFailure(error)
                }
            }
            // The same instant is a different wall-clock deadline now.
            armedFor = nil
            restoreSavedAhead()
            rebuildDeadlines()
            fireDue()
            publishStatus()
        }
    }

    /// The system time zone changed (or a reload re-read it): floating alarms
    /// move with it, pinned alarms and reminders do not.
    public func zoneChanged(_ newZone: Zone) {
        owner.run { [self] in
            guard newZone != zone else { return }
            journal.send("Time zone changed from \(zone.identifier) to \(newZone.identifier); re-planning", priority: .info, messageID: MessageID.clockChanged)
            zone = newZone
            restoreSavedAhead()
            rebuildDeadlines()
            fireDue()
            publishStatus()
        }
    }

    public func setPolicy(_ newPolicy: RingPolicy) {
        owner.run { [self] in
            policy = newPolicy
            restoreSavedAhead()
            rebuildDeadlines()
            fireDue()
            publishStatus()
        }
    }

    func rebuildDeadlines() {
        let rules = zone.rules
        let policy = policy
        table.rebuildDeadlines { item, state in RingingMachine.wake(item: item, state: state, systemRules: rules, policy: policy) }
    }

    // MARK: - Firing

    /// Runs every step that is due, persists them together, then re-arms.
    /// Firings saved ahead are announced at once, without a commit.
    func fireDue() {
        let now = currentTime()
        var late: [Item] = []
        var announced: [(Item, RingTransition)] = []
        var due: [UUID] = []
        while let id = table.popDue(at: now) { due.append(id) }
        collectAhead()
        // Rare: a commit slower than the lead it was given. Waiting for it
        // costs no more than the commit firing the ordinary way would.
        settleAhead(ifAnyOf: due)
        for id in due {
            guard let item = table[id] else { continue }
            if let ahead = savedAhead.removeValue(forKey: id), now.timeIntervalSince(ahead.wake) <= Self.aheadTolerance {
                announced.append((item, ahead.transition))
                continue
            }
            // Late beyond the tolerance (a stopped or suspended daemon): the
            // missed-alarm rules decide, and their result overwrites what was saved.
            late.append(item)
        }
        if !announced.isEmpty { announce(announced) }
        if !late.isEmpty { apply(late, now: now) }
        arm()
    }

    /// Saves what the firings of `items` change (items, states, history) in
    /// one transaction on this queue's connection, and only then updates
    /// memory and hands the effects to the output worker, so nothing is
    /// announced that a crash could take back. A failed save is logged and the
    /// firings go ahead regardless: ringing on time matters more than the
    /// record of it. Only late firings (a stopped or suspended daemon) come
    /// here; on-time ones were saved ahead through the writer.
    func apply(_ items: [Item], now: Date) {
        settleAhead(ifAnyOf: items.lazy.map(\.id))
        var steps: [(before: Item, step: DaemonMachine.Step)] = []
        var history: [HistoryEvent] = []
        for before in items {
            // What is saved now replaces anything saved ahead for it.
            savedAhead[before.id] = nil
            // `.due` is never refused.
            guard let step = try? DaemonMachine.step(.due, item: before, state: table.state(of: before.id), now: now, zone: zone, policy: policy) else { continue }
            history += step.history
            steps.append((before, step))
        }
        do throws(StoreError) {
            try store.transaction { () throws(StoreError) in
                for (_, step) in steps { if case .update(let item) = step.write { try write(item) } }
                try store.saveRingStates(steps.map { ($0.before.id, $0.before.kind, $0.step.state) })
                try store.record(pending.rows + history)
            }
            journal(pending.take().events)
        } catch {
            logSaveFailure(error)
        }
        for (before, step) in steps {
            let item = step.item ?? before
            setInTable(item, step.state)
            perform(step.effects, item: item, state: step.state, now: now)
        }
        publishStatus()
    }

    // MARK: - Saving firings ahead

    /// How far ahead firings are saved, and how close one may be and still be
    /// saved (closer ones fire the ordinary way).
    static let aheadHorizon: TimeInterval = 0.25
    static let aheadMinimumLead: TimeInterval = 0.002
    static let aheadBatch = 1024
    /// A firing saved ahead is announced as saved only this close to its instant.
    static let aheadTolerance: TimeInterval = 1

    /// Hands `writer` the new state of every ordinary firing in the next
    /// `aheadHorizon`, to save in one transaction, once half of the last
    /// look-ahead has passed: a commit every eighth of a second or so in a
    /// busy period, none when idle. This queue does not wait for it.
    func saveAhead(now: Date) {
        guard let writer, now.addingTimeInterval(Self.aheadHorizon / 2) >= savedAheadUntil else { return }
        let horizon = now.addingTimeInterval(Self.aheadHorizon)
        var batch: [(item: Item, wake: Date, transition: RingTransition)] = []
        var until = horizon
        for (id, wake) in table.ascending() {
            if wake > horizon { break }
            if batch.count == Self.aheadBatch { until = wake; break }
            guard wake.timeIntervalSince(now) >= Self.aheadMinimumLead, savedAhead[id] == nil, aheadInFlight[id] == nil,
                  let item = table[id], let state = table.state(of: id),
                  let transition = RingingMachine.firingAhead(item: item, state: state, wake: wake, zone: zone, policy: policy)
            else { continue }
            batch.append((item, wake, transition))
        }
        savedAheadUntil = until
        guard !batch.isEmpty else { return }
        let serial = submit(DurableWriter.Batch(states: batch.map { ($0.item.id, $0.item.kind, $0.transition.state) }), to: writer)
        for entry in batch { aheadInFlight[entry.item.id] = (entry.wake, entry.transition, serial) }
    }

    /// Hands `writer` `batch` with every history row still waiting; returns
    /// the serial that names it in its outcome.
    @discardableResult
    private func submit(_ batch: DurableWriter.Batch, to writer: DurableWriter) -> UInt64 {
        var batch = batch
        batch.serial = nextSerial
        nextSerial += 1
        batch.records = pending.take()
        batchesInFlight += 1
        writer.submit(batch)
        return batch.serial
    }

    /// Hands a request's changes, already in memory, to `writer`. Once they
    /// are durable, `durable` performs its effects and replies; if the commit
    /// fails, ``collectAhead()`` puts `ids` back as the store has them and
    /// `failed` replies.
    func commitRequest(_ batch: DurableWriter.Batch, ids: [UUID], durable: @escaping () -> Void, failed: @escaping (StoreError) -> Void) {
        // Only before start() or after stop(): what a closed store says.
        guard let writer else { return failed(.sqlite(code: 21, message: "the store is closed", operation: "commit a request")) }
        let serial = submit(batch, to: writer)
        for id in ids { requestsInFlight[id, default: 0] += 1 }
        awaiting[serial] = (ids, durable, failed)
    }

    /// Hands the history rows still waiting to `writer`: at once when the
    /// last such commit is `historyCommitInterval` old, else when it will be;
    /// while a batch is committing they go with the next one. Each commit is
    /// an fsync, and a thousand firings a second must not become a thousand
    /// syncs a second (it cost the firings' own lateness). A firing's journal
    /// entry waits for its row: by this interval and one commit at most.
    private func commitPendingRecords() {
        guard !pending.isEmpty, batchesInFlight == 0 else { return }
        guard let writer else { return flushHistory() }
        switch historyPacer.decide(now: .now()) {
        case .run:
            submit(DurableWriter.Batch(), to: writer)
        case .wait(let due):
            queue.asyncAfter(deadline: due) { [weak self] in
                self?.historyPacer.woke()
                self?.commitPendingRecords()
            }
        case .waiting:
            break
        }
    }

    static let historyCommitInterval: DispatchTimeInterval = .milliseconds(20)
    private var historyPacer = Pacer(interval: historyCommitInterval)

    /// Takes in what `writer` finished: firings saved are ready to announce,
    /// firings whose save failed fire the ordinary way, history rows that were
    /// not written wait for the next commit, and requests are answered. When a
    /// request's commit failed, the writer is drained first, so every batch
    /// staged on top of the failed one has its outcome too; then the items
    /// they touched are put back as the store has them.
    func collectAhead() {
        guard let writer else { return }
        var outcomes = writer.takeOutcomes()
        if outcomes.contains(where: { if case .failed(let batch, _) = $0 { return awaiting[batch.serial] != nil } else { return false } }) {
            writer.drain()
            outcomes += writer.takeOutcomes()
        }
        var restore: Set<UUID> = []
        var refusals: [() -> Void] = []
        for outcome in outcomes {
            batchesInFlight -= 1
            switch outcome {
            case .saved(let batch):
                journal(batch.records.events)
                // A firing no longer in flight in this batch was forgotten after
                // its save: the write that made it forgotten came later and replaced it.
                for entry in batch.states {
                    if let ahead = aheadInFlight[entry.id], ahead.serial == batch.serial {
                        aheadInFlight[entry.id] = nil
                        savedAhead[entry.id] = (ahead.wake, ahead.transition)
                    }
                }
                if let request = finishRequest(batch.serial) { durable.append(request.durable) }
            case .failed(let batch, let error):
                for entry in batch.states where aheadInFlight[entry.id]?.serial == batch.serial { aheadInFlight[entry.id] = nil }
                // The rows are tried again with the next commit; the journal
                // entries go out now, since a failing disk may never let them.
                pending.putBack(rows: batch.records.rows)
                journal(batch.records.events)
                logSaveFailure(error)
                if let request = finishRequest(batch.serial) {
                    restore.formUnion(request.ids)
                    refusals.append { request.failed(error) }
                }
            }
        }
        answerDurable()
        guard !restore.isEmpty else { return }
        for id in restore { restoreFromStore(id) }
        reloadReminderPositions()
        arm()
        for refuse in refusals { refuse() }
    }

    /// Answers requests made durable, in commit order, a few per block on the
    /// owner. A group commit can make sixty changes durable at once, and each
    /// answer performs its effects, sends its reply and lets that connection's
    /// next call in: done in one block, a firing due meanwhile would wait for
    /// all of it (milliseconds). Between chunks, the wall timer's handler and
    /// other events get their turn.
    private func answerDurable() {
        guard !answering else { return }
        answering = true
        let end = min(durable.count, durableAnswered + Self.answersPerBlock)
        while durableAnswered < end {
            let answer = durable[durableAnswered]
            durableAnswered += 1
            answer()
        }
        answering = false
        if durableAnswered == durable.count {
            durable.removeAll(keepingCapacity: true)
            durableAnswered = 0
        } else if !answerQueued {
            answerQueued = true
            queue.async { [weak self] in
                guard let self else { return }
                answerQueued = false
                answerDurable()
            }
        }
    }

    static let answersPerBlock = 8

    private func finishRequest(_ serial: UInt64) -> (ids: [UUID], durable: () -> Void, failed: (StoreError) -> Void)? {
        guard let request = awaiting.removeValue(forKey: serial) else { return nil }
        for id in request.ids {
            requestsInFlight[id, default: 1] -= 1
            if requestsInFlight[id] == 0 { requestsInFlight[id] = nil }
        }
        return request
    }

    /// After a failed commit: the item as the store has it, or gone when the
    /// store has none (a failed add). A saved state loads as at a restart.
    private func restoreFromStore(_ id: UUID) {
        savedAhead[id] = nil
        aheadInFlight[id] = nil
        do throws(StoreError) {
            var item = try store.alarm(id: id).map(Item.alarm)
            if item == nil { item = try store.reminder(id: id).map(Item.reminder) }
            guard let item else {
                table.remove(id)
                return
            }
            let now = currentTime()
            let state = try store.ringState(id: id).map { RingingMachine.loaded($0, now: now) } ?? RingState(anchor: now)
            setInTable(item, state)
        } catch {
            logSaveFailure(error)
        }
    }

    /// Waits for every save in flight and takes in its outcome, so that what
    /// this queue writes next lands after it, never under it.
    func settleAhead() {
        guard let writer else { return }
        writer.drain()
        collectAhead()
    }

    /// ``settleAhead()``, only if a write of one of `ids` is in flight.
    private func settleAhead(ifAnyOf ids: some Sequence<UUID>) {
        guard !aheadInFlight.isEmpty || !requestsInFlight.isEmpty,
              ids.contains(where: { aheadInFlight[$0] != nil || requestsInFlight[$0] != nil }) else { return }
        settleAhead()
    }

    /// The plan changed under firings saved ahead (clock, zone, policy, stop):
    /// put back the states they replace, so the store matches memory again.
    func restoreSavedAhead() {
        savedAheadUntil = .distantPast
        settleAhead()
        guard !savedAhead.isEmpty else { return }
        let restored = savedAhead.keys.compactMap { id in table[id].flatMap { item in table.state(of: id).map { (id, item.kind, $0) } } }
        savedAhead.removeAll()
        do { try store.saveRingStates(restored) } catch {
            // A restart still sorts them out: a saved-ahead state whose instant
            // is in the future loads as waiting (RingingMachine.loaded).
            logSaveFailure(error)
        }
    }

    /// The item's saved state is about to be replaced or deleted by a write
    /// through `writer`, which lands after any save ahead of it in flight:
    /// neither is announced.
    func forgetSavedAhead(_ id: UUID) {
        savedAhead[id] = nil
        aheadInFlight[id] = nil
    }

    /// Every saved state is about to be replaced (an import).
    func forgetAllSavedAhead() {
        settleAhead()
        savedAhead.removeAll()
        savedAheadUntil = .distantPast
    }

    /// Announces firings whose state was saved ahead: memory, then effects.
    /// Their history rows are committed at once (or with the commit under
    /// way), and their journal entries follow the commit (``PendingRecords``).
    ///
    /// Each firing's `actual` instant (and so its `ALARMD_LATENESS_USEC`) is
    /// read as it is announced, not once for the batch: in a burst of a
    /// hundred due at once, the last is honestly later than the first.
    private func announce(_ firings: [(Item, RingTransition)]) {
        for (item, transition) in firings {
            let now = currentTime()
            setInTable(item, transition.state)
            for action in transition.actions {
                if case .record(let kind, let scheduled, let detail) = action {
                    let event = DaemonEvent(kind: kind, item: item, scheduled: scheduled, actual: now, snoozeCount: transition.state.snoozeCount, detail: detail)
                    pending.append(HistoryEvent(itemID: item.id, itemKind: item.kind, event: kind, scheduled: scheduled, actual: now, detail: detail), journaling: event)
                    events.publish(event)
                } else if let effect = DaemonMachine.Effect(action) {
                    perform([effect], item: item, state: transition.state, now: now)
                }
            }
        }
        commitPendingRecords()
        publishStatus()
    }

    /// Writes the history rows still waiting, on this queue's connection, then
    /// journals their entries.
    func flushHistory() {
        guard !pending.isEmpty else { return }
        do {
            try store.record(pending.rows)
            journal(pending.take().events)
        } catch {
            logSaveFailure(error)
        }
    }

    /// Hands committed events to the journal, off this queue.
    func journal(_ committed: [DaemonEvent]) {
        guard !committed.isEmpty else { return }
        let journal = journal
        outputQueue.async { for event in committed { Scheduler.log(event, to: journal) } }
    }

    /// Files `item` with `state` and the wake-up they give.
    func setInTable(_ item: Item, _ state: RingState) {
        table.set(item, state: state, wake: RingingMachine.wake(item: item, state: state, zone: zone, policy: policy))
    }

    func logSaveFailure(_ error: any Error) {
        journal.send("Could not save to \(store.path): \(error)", priority: .error)
    }

    func write(_ item: Item) throws(StoreError) {
        switch item {
        case .alarm(let alarm): try store.update(alarm)
        case .reminder(let reminder): try store.update(reminder)
        }
    }

    /// Carries out a step's effects, in order: ringing and sound go to the
    /// output worker, events to `Watch` subscribers at once and to the
    /// journal through the output worker.
    func perform(_ effects: [DaemonMachine.Effect], item: Item, state: RingState, now: Date) {
        let ringer = ringer
        for effect in effects {
            switch effect {
            case .startRinging(let resumed):
                let occurrence = state.occurrence ?? now
                outputQueue.async { ringer.startRinging(item, occurrence: occurrence, snoozeCount: state.snoozeCount, resumed: resumed) }
                ringingStarted(item, state: state, now: now)
            case .stopRinging:
                outputQueue.async { ringer.stopRinging(item.id) }
                ringingStopped(item.id)
            case .escalate:
                outputQueue.async { ringer.escalate(item.id) }
            case .showMissed(let scheduled):
                let zone = zone
                outputQueue.async { ringer.showMissed(item, scheduled: scheduled, zone: zone) }
            case .record(let kind, let scheduled, let detail):
                let event = DaemonEvent(kind: kind, item: item, scheduled: scheduled, actual: now, snoozeCount: state.snoozeCount, detail: detail)
                // Subscribers only queue the event, so it goes out from here: one
                // thread hand-off fewer between a firing and a Watch client.
                events.publish(event)
                let journal = journal
                outputQueue.async { Scheduler.log(event, to: journal) }
            case .changed(let detail):
                publishChange(item, now: now, detail: detail)
            }
        }
    }

    /// Keeps `onRingingChange` told the title of the item ringing longest.
    /// An item that starts ringing is later than every other, so it changes
    /// that only when nothing else rang: O(1). Only when the first one stops
    /// are all ringing items looked at, once the owner's current block is
    /// done (10,000 items starting at once, each looking at every other, made
    /// the burst's firings seconds late).
    private func ringingStarted(_ item: Item, state: RingState, now: Date) {
        guard let onRingingChange else { return }
        var since = now
        if case .ringing(let started) = state.phase { since = started }
        if let first = firstRinging, first.id != item.id, first.since <= since { return }
        firstRinging = (item.id, since)
        guard item.title != reportedRinging else { return }
        reportedRinging = item.title
        onRingingChange(item.title)
    }

    private func ringingStopped(_ id: UUID) {
        guard onRingingChange != nil, firstRinging?.id == id, !ringingReportQueued else { return }
        ringingReportQueued = true
        queue.async { [weak self] in
            guard let self else { return }
            ringingReportQueued = false
            firstRinging = firstRingingNow()
            let title = firstRinging.flatMap { table[$0.id]?.title }
            guard title != reportedRinging else { return }
            reportedRinging = title
            onRingingChange?(title)
        }
    }
    private var firstRinging: (id: UUID, since: Date)?
    private var ringingReportQueued = false

    /// The earliest-started item ringing now, if any.
    private func firstRingingNow() -> (id: UUID, since: Date)? {
        table.ringing.compactMap { id -> (id: UUID, since: Date)? in
            guard case .ringing(let since)? = table.state(of: id)?.phase else { return nil }
            return (id, since)
        }.min { $0.since < $1.since }
    }

    /// Hands an event to `Watch` subscribers only (they queue it).
    func publish(_ event: DaemonEvent) {
        events.publish(event)
    }

    static func log(_ event: DaemonEvent, to journal: Journal) {
        let priority: Journal.Priority
        switch event.kind {
        case .fired: priority = .notice
        case .missed: priority = .warning
        default: priority = .info
        }
        var fields: [(String, String)] = [
            ("ALARMD_ITEM_ID", event.item.id.uuidString.lowercased()),
            ("ALARMD_KIND", event.item.kind.rawValue),
            ("ALARMD_LABEL", event.item.title),
            ("ALARMD_EVENT", event.kind.rawValue),
            ("ALARMD_SNOOZE_COUNT", String(event.snoozeCount)),
        ]
        if let scheduled = event.scheduled {
            fields.append(("ALARMD_SCHEDULED_USEC", String(Int64((scheduled.timeIntervalSince1970 * 1_000_000).rounded()))))
        }
        if let lateness = event.lateness {
            fields.append(("ALARMD_LATENESS_USEC", String(Int64((lateness * 1_000_000).rounded()))))
        }
        if !event.detail.isEmpty { fields.append(("ALARMD_DETAIL", event.detail)) }
        let lateness = event.kind == .fired || event.kind == .missed ? event.lateness : nil
        journal.send(EventText.sentence(event.kind, item: event.item, lateness: lateness, detail: event.detail),
                     priority: priority, messageID: MessageID.forEvent(event.kind), fields: fields)
    }

    /// The injected clock's reading, for request handling outside the queue
    /// (the `created` time of a new item).
    public func now() -> Date { currentTime() }

    /// The clock's reading, to the microsecond: the precision the store keeps, so
    /// that the state in memory is exactly the state a restart would load.
    func currentTime() -> Date {
        Self.toStorePrecision(clock.now())
    }

    /// `date` to the microsecond, as the store keeps it.
    static func toStorePrecision(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000)
    }

    /// `item` with its instants to the microsecond: a change takes effect in
    /// memory before the store has it, and memory must hold exactly what a
    /// restart would load.
    static func asStored(_ item: Item) -> Item {
        switch item {
        case .alarm(var alarm):
            alarm.created = toStorePrecision(alarm.created)
            alarm.updated = toStorePrecision(alarm.updated)
            return .alarm(alarm)
        case .reminder(var reminder):
            reminder.due = reminder.due.map(toStorePrecision)
            reminder.created = toStorePrecision(reminder.created)
            reminder.updated = toStorePrecision(reminder.updated)
            return .reminder(reminder)
        }
    }

    /// Arms the single timer for the earliest wake-up, or disarms it.
    func arm() {
        guard let first = table.first?.deadline else {
            timer?.cancel()
            timer = nil
            armedFor = nil
            return
        }
        let now = currentTime()
        saveAhead(now: now)
        // Wake early once to save the coming firing ahead, unless that is done.
        var target = first
        if savedAheadUntil < first, first.timeIntervalSince(now) > Self.aheadHorizon / 2 {
            target = first.addingTimeInterval(-Self.aheadHorizon / 2)
        }
        if armedFor == target, timer != nil { return }
        if timer == nil {
            let source = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
            source.setEventHandler { [unowned self] in fireDue() }
            source.resume()
            timer = source
        }
        timer!.schedule(wallDeadline: clock.wallDeadline(for: target), repeating: .never, leeway: .nanoseconds(0))
        armedFor = target
    }

    /// Sends the status line, at most every `statusInterval`: in a busy
    /// second a thousand firings each change it, and each `STATUS=` costs a
    /// datagram and a line of formatting on the firing path. The last change
    /// always goes out.
    func publishStatus() {
        guard onStatusChange != nil || onPlanChange != nil else { return }
        switch statusPacer.decide(now: .now()) {
        case .run:
            sendStatus()
        case .wait(let due):
            queue.asyncAfter(deadline: due) { [weak self] in
                self?.statusPacer.woke()
                self?.publishStatus()
            }
        case .waiting:
            break
        }
    }

    private func sendStatus() {
        onStatusChange?(statusLine())
        onPlanChange?()
    }

    /// `4 alarms, 2 reminders; next: Tue 07:30 Work` (call on `queue`).
    func statusLine() -> String {
        let next = table.first.flatMap { first in table[first.id].map { (first.deadline, $0) } }
        return EventText.status(alarms: table.alarmCount, reminders: table.reminderCount, next: next, zone: zone)
    }
}

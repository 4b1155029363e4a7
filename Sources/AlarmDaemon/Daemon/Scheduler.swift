// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import Dispatch
import FoundationEssentials
import Synchronization
import SystemCalls

/// Keeps every item, its ringing state and its next wake-up, and fires them on
/// time with one wall-clock timer (``LoopTimer``) armed for the earliest wake-up.
///
/// All state is confined to the daemon's owner queue (``Owner``). Each step
/// runs the pure `RingingMachine`, persists the resulting state through the
/// durable writer, and only then hands the effects to the output worker
/// (journal, notification, sound), so a slow output never holds up the next
/// firing and nothing is announced that a crash could take back.
public final class Scheduler: Sendable {
    /// The queue that owns this state, and the output worker beside it.
    public let owner: Owner
    public var queue: DispatchQueue { owner.queue }
    /// Journal entries, notifications and sound: they may be slow (D-Bus,
    /// spawning a player) and must not hold up the next firing.
    var outputQueue: DispatchQueue { owner.output }
    /// The owner's connection to the store, which only reads.
    var store: Store { owned.store }
    let storePath: String
    private let clock: any WallClock
    let journal: Journal
    let ringer: any Ringer
    public let events = EventStream()

    /// What the scheduler keeps, confined to the owner (every access is
    /// asserted there in debug builds).
    struct State {
        let store: Store
        var policy: RingPolicy
        /// Set through ``setZone(_:)``, which publishes it.
        var zone: Zone
        /// Every item, its ringing state and its next wake-up.
        var table = ItemTable()
        /// Armed for the earliest wake-up; made at the first.
        var timer: LoopTimer?
        var armedFor: Date?
        /// Commits every durable change off this queue, in groups, in the
        /// order handed over; opened by ``start()``. The owner's own
        /// connection, `store`, only reads: the table at start, and an item
        /// after a failed commit.
        var writer: DurableWriter?
        /// What is with `writer` and what waits on it (``CommitPipeline``).
        var pipeline = CommitPipeline<Waiting>()
        /// Waiters of durable batches, answered in commit order a few per
        /// block (``answerDurable()``); those before `durableAnswered` have been.
        var durable: [Waiting] = []
        var durableAnswered = 0
        /// Set while answers run (one may lead to another commit being
        /// collected) and while the next chunk waits on the queue.
        var answering = false
        var answerQueued = false
        /// History rows of firings announced without a commit, and their
        /// journal entries; written with the next commit.
        var pending = PendingRecords()
        /// Called after changes of plan (see ``publishStatus()``), with the status line.
        var onStatusChange: (@Sendable (String) -> Void)?
        /// Called when what rings changes, with the title of the item ringing
        /// longest, or `nil` when none is (logind's inhibitor while ringing
        /// follows it). Only a different title is reported: a burst of a
        /// hundred firings is one call, not a hundred.
        var onRingingChange: ((String?) -> Void)?
        /// The title last given to `onRingingChange`, the item ringing
        /// longest, and whether a look for it is queued (``ringingStopped(_:)``).
        var reportedRinging: String?
        var firstRinging: (id: UUID, since: Date)?
        var ringingReportQueued = false
        /// Called at the same pace after the plan changed (what fires next may
        /// have moved): the wake-up from suspend follows it.
        var onPlanChange: (() -> Void)?
        var statusPacer = Pacer(interval: statusInterval)
        var historyPacer = Pacer(interval: historyCommitInterval)
        /// Where the pacers wait; made at their first wait.
        var statusTimer: LoopTimer?
        var historyTimer: LoopTimer?
    }
    let owned: QueueBound<State>
    /// The zone floating alarms follow, readable from any thread without
    /// waiting for the queue: every reply that shows an instant needs it.
    private let publishedZone: Mutex<Zone>
    /// At most ten updates a second, the last change always sent.
    static let statusInterval: DispatchTimeInterval = .milliseconds(100)
    static let historyCommitInterval: DispatchTimeInterval = .milliseconds(20)

    /// The items, for readers on the owner outside the scheduler.
    var table: ItemTable { owned.table }

    /// What the daemon follows the plan with (set on the owner before start).
    func observe(status: (@Sendable (String) -> Void)?, plan: (() -> Void)?, ringing: ((String?) -> Void)?) {
        owner.assertCurrent()
        owned.onStatusChange = status
        owned.onPlanChange = plan
        owned.onRingingChange = ringing
    }

    /// The zone floating alarms follow, set on the owner and published.
    private func setZone(_ zone: Zone) {
        owned.zone = zone
        publishedZone.withLock { $0 = zone }
    }

    /// `owner` is the daemon's (a scheduler made alone, in a test, has one of its own).
    public init(store: Store, clock: any WallClock, journal: Journal, ringer: any Ringer, policy: RingPolicy, zone: Zone, owner: Owner) {
        self.owner = owner
        self.clock = clock
        self.journal = journal
        self.ringer = ringer
        owned = QueueBound(State(store: store, policy: policy, zone: zone), queue: owner.queue)
        storePath = store.path
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
            owned.writer = try DurableWriter(path: store.path) { [weak self] in
                guard let self else { return }
                owner.post {
                    self.collect()
                    self.commitPendingRecords()
                }
            }
            let rules = owned.zone.rules
            let policy = owned.policy
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
            owned.table = loaded.table
            // Items without a stored state are new to this schema: they look forward from now.
            if !loaded.fresh.isEmpty { commit(DurableWriter.Batch(states: loaded.fresh)) }
            try takeBackUnannouncedFirings(now: now)
            // Before anything of this run is recorded: only earlier rows are looked for.
            recoverJournal()
            for id in owned.table.ringing {
                let state = owned.table.state(of: id)!
                perform(RingingMachine.resume(state: state).compactMap(DaemonMachine.Effect.init), item: owned.table[id]!, state: state, now: now)
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
        for id in Array(owned.table.ringing) {
            guard let item = owned.table[id], let state = owned.table.state(of: id), RingingMachine.isSavedAhead(state), let occurrence = state.occurrence else { continue }
            let recorded = try store.history(itemID: id, limit: 16).contains { $0.event == .fired && $0.scheduled == occurrence }
            let taken = RingingMachine.loaded(state, now: now, fireRecorded: recorded)
            if taken != state { setInTable(item, taken) }
        }
    }

    /// Stops the timer and silences everything; what is in flight is
    /// committed first, and the store is left matching memory.
    public func stop() {
        owner.sync {
            owned.timer?.disarm()
            owned.timer = nil
            restoreSavedAhead()
            if !owned.pending.isEmpty, let writer = owned.writer { submit(DurableWriter.Batch(), to: writer) }
            settle()
            answerAllDurable()
            // Every committed row's entry is with the output worker; once it
            // has written them, the journal checkpoint moves past them all.
            outputQueue.sync {}
            if owned.writer != nil {
                checkpointJournal()
                settle()
            }
            owned.writer?.close()
            owned.writer = nil
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
        owner.assertCurrent()
        let now = currentTime()
        journal.send("Clock change: \(change); re-planning \(owned.table.count) items", priority: .info, messageID: MessageID.clockChanged,
                     fields: [("ALARMD_CLOCK_JUMP_USEC", String(Int64(change.jump * 1_000_000))), ("ALARMD_RESUMED", change.resumed ? "1" : "0")])
        if change.jump < 0 {
            var moved: [(Item, RingState)] = []
            owned.table.forEach { item, state in
                if let step = try? DaemonMachine.step(.clockMovedBack, item: item, state: state, now: now, zone: owned.zone, policy: owned.policy), step.saveState {
                    moved.append((item, step.state))
                }
            }
            // The wake-ups are all recomputed below.
            for (item, state) in moved { owned.table.set(item, state: state, wake: nil) }
            if !moved.isEmpty { commit(DurableWriter.Batch(states: moved.map { ($0.0.id, $0.0.kind, $0.1) })) }
        }
        // The same instant is a different wall-clock deadline now.
        owned.armedFor = nil
        replan()
    }

    /// The system time zone changed (or a reload re-read it): floating alarms
    /// move with it, pinned alarms and reminders do not.
    public func zoneChanged(_ newZone: Zone) {
        owner.assertCurrent()
        guard newZone != owned.zone else { return }
        journal.send("Time zone changed from \(owned.zone.identifier) to \(newZone.identifier); re-planning", priority: .info, messageID: MessageID.clockChanged)
        setZone(newZone)
        replan()
    }

    public func setPolicy(_ newPolicy: RingPolicy) {
        owner.assertCurrent()
        owned.policy = newPolicy
        replan()
    }

    /// Every wake-up computed afresh, after a change of clock, zone or policy.
    private func replan() {
        restoreSavedAhead()
        rebuildDeadlines()
        fireDue()
        publishStatus()
    }

    func rebuildDeadlines() {
        let rules = owned.zone.rules
        let policy = owned.policy
        owned.table.rebuildDeadlines { item, state in RingingMachine.wake(item: item, state: state, systemRules: rules, policy: policy) }
    }

    // MARK: - Firing

    /// Runs every step that is due, then re-arms. Firings saved ahead are
    /// announced at once, without a commit; late ones are committed and
    /// announced once durable.
    func fireDue() {
        let now = currentTime()
        var late: [Item] = []
        var announced: [(Item, RingTransition)] = []
        var due: [UUID] = []
        while let id = owned.table.popDue(at: now) { due.append(id) }
        collect()
        // Rare: a commit slower than the lead it was given. Waiting for it
        // costs no more than the commit firing the ordinary way would.
        if owned.pipeline.isSavingAhead(anyOf: due) { settle() }
        for id in due {
            guard let item = owned.table[id] else { continue }
            if let transition = owned.pipeline.takeSaved(id, at: now, tolerance: Self.aheadTolerance) {
                announced.append((item, transition))
            } else {
                // Late beyond the tolerance (a stopped or suspended daemon): the
                // missed-alarm rules decide, and their result overwrites what was saved.
                late.append(item)
            }
        }
        if !announced.isEmpty { announce(announced) }
        if !late.isEmpty { apply(late, now: now) }
        arm()
    }

    /// Late firings (a stopped or suspended daemon): ``DaemonMachine`` decides
    /// each, memory takes the outcome at once, and the effects follow once the
    /// writer has made it durable, so nothing is announced that a crash could
    /// take back. A failed save is logged and the firings go ahead regardless:
    /// ringing matters more than the record of it.
    func apply(_ items: [Item], now: Date) {
        var steps: [(before: Item, step: DaemonMachine.Step)] = []
        var batch = DurableWriter.Batch()
        for before in items {
            // What is saved now replaces anything saved ahead for it.
            owned.pipeline.forget(before.id)
            // `.due` is never refused.
            guard let step = try? DaemonMachine.step(.due, item: before, state: owned.table.state(of: before.id), now: now, zone: owned.zone, policy: owned.policy) else { continue }
            if case .update(let item) = step.write { batch.items.append(.update(item)) }
            batch.states.append((before.id, before.kind, step.state))
            batch.history += step.history
            steps.append((before, step))
            setInTable(step.item ?? before, step.state)
        }
        let performAll = { [self] in
            for (before, step) in steps { perform(step.effects, item: step.item ?? before, state: step.state, now: now) }
            publishStatus()
        }
        commit(batch, waiting: Waiting(durable: performAll, failed: { [self] error in
            logSaveFailure(error)
            performAll()
        }))
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
        guard let writer = owned.writer, owned.pipeline.shouldLookAhead(at: now, horizon: Self.aheadHorizon) else { return }
        let horizon = now.addingTimeInterval(Self.aheadHorizon)
        var batch: [CommitPipeline<Waiting>.Ahead] = []
        var until = horizon
        for (id, wake) in owned.table.ascending() {
            if wake > horizon { break }
            if batch.count == Self.aheadBatch { until = wake; break }
            guard wake.timeIntervalSince(now) >= Self.aheadMinimumLead, !owned.pipeline.isAhead(id),
                  let item = owned.table[id], let state = owned.table.state(of: id),
                  let transition = RingingMachine.firingAhead(item: item, state: state, wake: wake, zone: owned.zone, policy: owned.policy)
            else { continue }
            batch.append(.init(id: id, wake: wake, transition: transition))
        }
        owned.pipeline.lookedAhead(until: until)
        guard !batch.isEmpty else { return }
        let states = batch.map { (id: $0.id, kind: owned.table[$0.id]!.kind, state: $0.transition.state) }
        submit(DurableWriter.Batch(states: states), to: writer, ahead: batch)
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
                    owned.pending.append(HistoryEvent(itemID: item.id, itemKind: item.kind, event: kind, scheduled: scheduled, actual: now, detail: detail), journaling: event)
                    events.publish(event)
                } else if let effect = DaemonMachine.Effect(action) {
                    perform([effect], item: item, state: transition.state, now: now)
                }
            }
        }
        commitPendingRecords()
        publishStatus()
    }

    /// Files `item` with `state` and the wake-up they give.
    func setInTable(_ item: Item, _ state: RingState) {
        owned.table.set(item, state: state, wake: RingingMachine.wake(item: item, state: state, zone: owned.zone, policy: owned.policy))
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
        guard let first = owned.table.first?.deadline else {
            owned.timer?.disarm()
            owned.armedFor = nil
            return
        }
        let now = currentTime()
        saveAhead(now: now)
        // Wake early once to save the coming firing ahead, unless that is done.
        var target = first
        if owned.pipeline.lookedAheadUntil < first, first.timeIntervalSince(now) > Self.aheadHorizon / 2 {
            target = first.addingTimeInterval(-Self.aheadHorizon / 2)
        }
        if owned.armedFor == target { return }
        if owned.timer == nil {
            owned.timer = owner.timer(.wall) { [unowned self] in
                // Expired, so no longer armed: a wake-up that finds nothing
                // due (the clock read a hair before the instant) arms again.
                owned.armedFor = nil
                fireDue()
            }
        }
        owned.timer!.schedule(wall: clock.systemInstant(for: target))
        owned.armedFor = target
    }

    /// Sends the status line, at most every `statusInterval`: in a busy
    /// second a thousand firings each change it, and each `STATUS=` costs a
    /// datagram and a line of formatting on the firing path. The last change
    /// always goes out.
    func publishStatus() {
        guard owned.onStatusChange != nil || owned.onPlanChange != nil else { return }
        switch owned.statusPacer.decide(now: .now()) {
        case .run:
            sendStatus()
        case .wait(let due):
            if owned.statusTimer == nil {
                owned.statusTimer = owner.timer(.monotonic) { [weak self] in
                    self?.owned.statusPacer.woke()
                    self?.publishStatus()
                }
            }
            owned.statusTimer!.schedule(at: due)
        case .waiting:
            break
        }
    }

    private func sendStatus() {
        let (status, plan) = (owned.onStatusChange, owned.onPlanChange)
        status?(statusLine())
        plan?()
    }

    /// `4 alarms, 2 reminders; next: Tue 07:30 Work` (call on `queue`).
    func statusLine() -> String {
        let next = owned.table.first.flatMap { first in owned.table[first.id].map { (first.deadline, $0) } }
        return EventText.status(alarms: owned.table.alarmCount, reminders: owned.table.reminderCount, next: next, zone: owned.zone)
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import Dispatch
import FoundationEssentials

/// The one write path: every durable change — a request, an import or a
/// sync merge, a move, a late firing, a re-plan, a firing saved ahead, the
/// history of firings announced — is a ``DurableWriter/Batch`` handed to the
/// writer, and ``CommitPipeline`` keeps what waits on each. This queue never
/// waits for a disk flush, except after a failed commit (it reads back what
/// the store kept) and, rarely, for a firing whose saving ahead is still in
/// flight at its instant.
extension Scheduler {
    /// What runs once a batch is durable, or once its commit has failed (after
    /// the items it changed are put back as the store has them).
    struct Waiting {
        let durable: () -> Void
        let failed: (StoreError) -> Void
    }

    /// Hands `batch` to the writer with every history row still waiting.
    /// `restoring` are the items it changed in memory ahead of the store,
    /// put back if the commit fails; `waiting` runs when it has finished.
    func commit(_ batch: DurableWriter.Batch, restoring: [UUID] = [], waiting: Waiting? = nil) {
        guard let writer = owned.writer else {
            // Only before start() or after stop(): what a closed store says.
            waiting?.failed(.sqlite(code: 21, message: "the store is closed", operation: "commit"))
            return
        }
        let logFailure = Waiting(durable: {}, failed: { [weak self] in self?.logSaveFailure($0) })
        submit(batch, to: writer, waiter: .init(restoring: restoring, reply: waiting ?? logFailure))
    }

    /// Hands `batch` with every history row still waiting to `writer`.
    func submit(_ batch: DurableWriter.Batch, to writer: DurableWriter,
                ahead: [CommitPipeline<Waiting>.Ahead] = [], waiter: CommitPipeline<Waiting>.Waiter? = nil) {
        var batch = batch
        batch.serial = owned.pipeline.submit(ahead: ahead, waiter: waiter)
        batch.records = owned.pending.take()
        writer.submit(batch)
    }

    /// Hands the history rows still waiting to `writer`: at once when the
    /// last such commit is `historyCommitInterval` old, else when it will be;
    /// while a batch is committing they go with the next one. Each commit is
    /// an fsync, and a thousand firings a second must not become a thousand
    /// syncs a second (it cost the firings' own lateness). A firing's journal
    /// entry waits for its row: by this interval and one commit at most.
    func commitPendingRecords() {
        guard !owned.pending.isEmpty, owned.pipeline.isIdle, let writer = owned.writer else { return }
        switch owned.historyPacer.decide(now: .now()) {
        case .run:
            submit(DurableWriter.Batch(), to: writer)
        case .wait(let due):
            if owned.historyTimer == nil {
                owned.historyTimer = owner.timer(.monotonic) { [weak self] in
                    self?.owned.historyPacer.woke()
                    self?.commitPendingRecords()
                }
            }
            owned.historyTimer!.schedule(at: due)
        case .waiting:
            break
        }
    }

    /// Takes in what `writer` finished: firings saved ahead are ready to
    /// announce, history rows that were not written wait for the next commit,
    /// and waiters run. When a commit that changed items in memory failed, the
    /// writer is drained first, so every batch staged on top of it has its
    /// outcome too; then those items are put back as the store has them.
    func collect() {
        guard let writer = owned.writer else { return }
        var outcomes = writer.takeOutcomes()
        if owned.pipeline.needsRestoring(outcomes.lazy.compactMap { if case .failed(let batch, _) = $0 { batch.serial } else { nil } }) {
            writer.drain()
            outcomes += writer.takeOutcomes()
        }
        var errors: [UInt64: StoreError] = [:]
        var results: [(serial: UInt64, saved: Bool)] = []
        results.reserveCapacity(outcomes.count)
        for outcome in outcomes {
            switch outcome {
            case .saved(let batch):
                journal(batch.records.events)
                results.append((batch.serial, true))
            case .failed(let batch, let error):
                // The rows are tried again with the next commit; the journal
                // entries go out now, since a failing disk may never let them.
                owned.pending.putBack(rows: batch.records.rows)
                journal(batch.records.events)
                errors[batch.serial] = error
                results.append((batch.serial, false))
            }
        }
        let collected = owned.pipeline.collect(results)
        owned.durable += collected.durable
        answerDurable()
        guard !collected.failed.isEmpty else { return }
        for id in collected.restore { restoreFromStore(id) }
        if !collected.restore.isEmpty {
            reloadReminderPositions()
            arm()
        }
        for (serial, waiting) in collected.failed { waiting.failed(errors[serial]!) }
    }

    /// Answers batches made durable, in commit order, a few per block on the
    /// owner. A group commit can make sixty changes durable at once, and each
    /// answer performs its effects, sends its reply and lets that connection's
    /// next call in: done in one block, a firing due meanwhile would wait for
    /// all of it (milliseconds). Between chunks, the wall timer's handler and
    /// other events get their turn (the event loop serves timers first).
    func answerDurable() {
        guard !owned.answering else { return }
        owned.answering = true
        answer(upTo: min(owned.durable.count, owned.durableAnswered + Self.answersPerBlock))
        owned.answering = false
        if owned.durableAnswered < owned.durable.count, !owned.answerQueued {
            owned.answerQueued = true
            owner.post { [weak self] in
                guard let self else { return }
                owned.answerQueued = false
                answerDurable()
            }
        }
    }

    static let answersPerBlock = 8

    /// Every durable answer still waiting, at once (at a stop).
    func answerAllDurable() {
        while !owned.durable.isEmpty { answer(upTo: owned.durable.count) }
    }

    /// Runs the durable answers before `end`, in order; the list is emptied
    /// once every one has run. An answer may add more (another commit
    /// collected): those wait for the next call.
    private func answer(upTo end: Int) {
        while owned.durableAnswered < end {
            let answer = owned.durable[owned.durableAnswered]
            owned.durableAnswered += 1
            answer.durable()
        }
        if owned.durableAnswered == owned.durable.count {
            owned.durable.removeAll(keepingCapacity: true)
            owned.durableAnswered = 0
        }
    }

    /// After a failed commit: the item as the store has it, or gone when the
    /// store has none (a failed add). A saved state loads as at a restart.
    private func restoreFromStore(_ id: UUID) {
        do throws(StoreError) {
            var item = try store.alarm(id: id).map(Item.alarm)
            if item == nil { item = try store.reminder(id: id).map(Item.reminder) }
            guard let item else {
                owned.table.remove(id)
                return
            }
            let now = currentTime()
            let state = try store.ringState(id: id).map { RingingMachine.loaded($0, now: now) } ?? RingState(anchor: now)
            setInTable(item, state)
        } catch {
            logSaveFailure(error)
        }
    }

    /// Positions change in the store when one reminder moves (or a failed
    /// commit leaves memory behind); read them back.
    func reloadReminderPositions() {
        guard let stored = try? store.reminders() else { return }
        for reminder in stored {
            if case .reminder(var current) = owned.table[reminder.id], let state = owned.table.state(of: reminder.id) {
                current.position = reminder.position
                owned.table.set(.reminder(current), state: state, wake: owned.table.deadline(of: reminder.id))
            }
        }
    }

    /// Waits for every commit in flight and takes in its outcome.
    func settle() {
        guard let writer = owned.writer else { return }
        writer.drain()
        collect()
    }

    /// The plan changed under firings saved ahead (clock, zone, policy, stop):
    /// their states in memory are saved again over what was saved ahead, in a
    /// batch that lands after it, so the store matches memory. A restart
    /// sorts out one that fails: a saved-ahead state whose instant is in the
    /// future loads as waiting (``RingingMachine/loaded(_:now:fireRecorded:)``).
    func restoreSavedAhead() {
        let ids = owned.pipeline.forgetAll()
        let states = ids.compactMap { id in owned.table[id].flatMap { item in owned.table.state(of: id).map { (id, item.kind, $0) } } }
        if !states.isEmpty { commit(DurableWriter.Batch(states: states)) }
    }

    /// Hands committed events to the journal, off this queue.
    func journal(_ committed: [DaemonEvent]) {
        guard !committed.isEmpty else { return }
        let journal = journal
        outputQueue.async { for event in committed { Scheduler.log(event, to: journal) } }
    }

    func logSaveFailure(_ error: any Error) {
        journal.send("Could not save to \(storePath): \(error)", priority: .error)
    }
}

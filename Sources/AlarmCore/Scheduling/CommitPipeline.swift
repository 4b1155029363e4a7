// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// What is on its way to the disk and what waits on it: the scheduler's
/// commit bookkeeping as a value, as ``Pacer`` and ``DaemonMachine`` are for
/// their decisions.
///
/// Every durable change goes through one writer, which commits batches in
/// the order they were handed over (several to a transaction: group commit).
/// A batch carries firings saved ahead (``Ahead``: the state an ordinary
/// firing will have, written a little before its instant so that at the
/// instant it is only announced), a ``Waiter`` (what to do once the batch is
/// durable or has failed: answer a request, perform a late firing's effects),
/// or both. The owner asks this value what to hand over and what to do when
/// outcomes come back; it never reads the clock or touches the disk itself.
///
/// `Reply` is whatever the owner runs when a batch finishes (closures in the
/// daemon, plain values in tests). What runs on each change is inlinable, so
/// the daemon gets it made for its own `Reply`: called across modules as a
/// generic, every call looked its types up at run time.
public struct CommitPipeline<Reply> {
    public typealias Serial = UInt64

    /// An ordinary firing whose new state is being, or has been, saved ahead
    /// of its instant.
    public struct Ahead: Hashable, Sendable {
        public var id: UUID
        public var wake: Date
        public var transition: RingTransition

        public init(id: UUID, wake: Date, transition: RingTransition) {
            self.id = id
            self.wake = wake
            self.transition = transition
        }
    }

    /// What waits on one batch.
    public struct Waiter {
        /// Items to put back as the store has them if the commit fails: what
        /// a request changed in memory before the store had it. Empty for a
        /// change that stands in memory either way (a late firing rings
        /// whether or not its record could be saved).
        public var restoring: [UUID]
        public var reply: Reply

        public init(restoring: [UUID], reply: Reply) {
            self.restoring = restoring
            self.reply = reply
        }
    }

    /// What the owner does with the outcomes of finished batches.
    public struct Collected {
        /// Waiters of durable batches, in commit order.
        public var durable: [Reply] = []
        /// Waiters of failed batches, in commit order, with the batch each
        /// waited on: answered after `restore` is done.
        public var failed: [(serial: Serial, reply: Reply)] = []
        /// Items to put back as the store has them.
        public var restore: Set<UUID> = []

        @inlinable public init() {}
    }

    @usableFromInline var nextSerial: Serial = 1
    /// Every batch handed over and not yet collected: its waiter and the
    /// firings it saves ahead.
    @usableFromInline var inFlight: [Serial: (waiter: Waiter?, ahead: [UUID])] = [:]
    /// Firings whose saving ahead is in flight, with the batch that carries each.
    @usableFromInline var aheadInFlight: [UUID: (ahead: Ahead, serial: Serial)] = [:]
    /// Firings saved ahead: at their instant they are only announced.
    @usableFromInline var savedAhead: [UUID: Ahead] = [:]
    /// Wake-ups up to this instant have been looked at for saving ahead.
    public private(set) var lookedAheadUntil = Date.distantPast

    public init() {}

    /// No batch is with the writer.
    @inlinable public var isIdle: Bool { inFlight.isEmpty }
    @inlinable public var batchesInFlight: Int { inFlight.count }

    /// Hands over a batch: `ahead` are the firings it saves ahead, `waiter`
    /// what waits on it. Returns the serial that names it in its outcome.
    @inlinable public mutating func submit(ahead: [Ahead] = [], waiter: Waiter? = nil) -> Serial {
        let serial = nextSerial
        nextSerial += 1
        // A closure, not `\.id`: a key path into a generic type is made at run time, each call.
        inFlight[serial] = (waiter, ahead.map { $0.id })
        for entry in ahead { aheadInFlight[entry.id] = (entry, serial) }
        return serial
    }

    /// Whether the firing of `id` is saved ahead or being saved: not to be
    /// saved again.
    @inlinable public func isAhead(_ id: UUID) -> Bool {
        savedAhead[id] != nil || aheadInFlight[id] != nil
    }

    /// Whether the saving ahead of any of `ids` is still in flight: at their
    /// instant it must be settled first (a commit slower than the lead it was
    /// given, which is rare), or the firing would be announced before it is
    /// durable.
    @inlinable public func isSavingAhead(anyOf ids: some Sequence<UUID>) -> Bool {
        !aheadInFlight.isEmpty && ids.contains { aheadInFlight[$0] != nil }
    }

    /// Whether a batch that failed among `serials` has items to put back: the
    /// writer is then drained first, so that the batches staged on top of it
    /// have their outcomes too before the store is read.
    @inlinable public func needsRestoring(_ serials: some Sequence<Serial>) -> Bool {
        serials.contains { inFlight[$0]?.waiter?.restoring.isEmpty == false }
    }

    /// Takes in what the writer finished, oldest first.
    @inlinable public mutating func collect(_ outcomes: some Sequence<(serial: Serial, saved: Bool)>) -> Collected {
        var collected = Collected()
        for (serial, saved) in outcomes {
            guard let batch = inFlight.removeValue(forKey: serial) else { continue }
            // A firing whose entry names another batch (or none) was
            // forgotten after this save: the write that made it forgotten
            // came later and replaced it.
            for id in batch.ahead {
                guard let entry = aheadInFlight[id], entry.serial == serial else { continue }
                aheadInFlight[id] = nil
                if saved { savedAhead[id] = entry.ahead }
            }
            let waiter = batch.waiter
            guard let waiter else { continue }
            if saved {
                collected.durable.append(waiter.reply)
            } else {
                collected.failed.append((serial, waiter.reply))
                collected.restore.formUnion(waiter.restoring)
            }
        }
        for id in collected.restore { forget(id) }
        return collected
    }

    /// At its instant `now`, the firing of `id` as saved ahead, if it was and
    /// the instant is no later than `tolerance` after the wake-up it was saved
    /// for; `nil` means it fires the ordinary way (late: the missed-alarm
    /// rules decide, and their result overwrites what was saved).
    @inlinable public mutating func takeSaved(_ id: UUID, at now: Date, tolerance: TimeInterval) -> RingTransition? {
        guard let ahead = savedAhead.removeValue(forKey: id), now.timeIntervalSince(ahead.wake) <= tolerance else { return nil }
        return ahead.transition
    }

    /// The item's saved state is about to be replaced or deleted by a later
    /// batch: its firing saved ahead is not announced.
    @inlinable public mutating func forget(_ id: UUID) {
        savedAhead[id] = nil
        aheadInFlight[id] = nil
    }

    /// The plan changed under every firing saved ahead (a clock, zone or
    /// policy change, a stop): returns their ids, whose states in memory are
    /// to be saved again over what was saved ahead, and looks ahead afresh.
    public mutating func forgetAll() -> [UUID] {
        let ids = Array(savedAhead.keys) + aheadInFlight.keys.filter { savedAhead[$0] == nil }
        savedAhead.removeAll()
        aheadInFlight.removeAll()
        lookedAheadUntil = .distantPast
        return ids.sorted { $0.uuidString < $1.uuidString }
    }

    /// Whether to look ahead at `now`: once half of the last look-ahead,
    /// `horizon` long, has passed.
    public func shouldLookAhead(at now: Date, horizon: TimeInterval) -> Bool {
        now.addingTimeInterval(horizon / 2) >= lookedAheadUntil
    }

    /// Wake-ups up to `instant` have been looked at.
    public mutating func lookedAhead(until instant: Date) {
        lookedAheadUntil = instant
    }
}

extension CommitPipeline: Sendable where Reply: Sendable {}
extension CommitPipeline.Waiter: Sendable where Reply: Sendable {}
extension CommitPipeline.Collected: Sendable where Reply: Sendable {}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// The daemon's decision for one item and one event, as a value: what the
/// item and its ring state become, which rows must be committed, and which
/// effects follow once they are durable.
///
/// `RingingMachine` decides the ringing (when, snooze, dismiss, what an edit
/// does to a ring). This machine sits one level up, where the daemon's events
/// arrive: a request adds, edits, commands or removes an item; a wake-up comes
/// due; the clock moves back. It folds the ringing machine's actions into the
/// item's new version (a one-shot alarm switched off, a reminder done), the
/// history rows to record, and the effects to carry out, so the scheduler's
/// shell only stages, commits and performs. No I/O, no clock: `now` is given.
public enum DaemonMachine {
    /// What happened to the item.
    public enum Event: Hashable, Sendable {
        /// A request created it.
        case added
        /// A request replaced it with this version (already checked).
        case edited(to: Item)
        /// Snooze, dismiss or complete, from a request or a notification.
        case command(RingCommand)
        /// A request deleted it.
        case removed
        /// Its wake-up came and no firing was saved ahead for it: the ringing
        /// machine advances it (and applies the missed-alarm rules when late).
        case due
        /// The wall clock was set back (a ringing or snooze started "in the
        /// future" is brought back to now).
        case clockMovedBack
    }

    /// How the item's row changes in the store.
    public enum Write: Hashable, Sendable {
        case none
        case insert(Item)
        case update(Item)
        case remove(UUID, ItemKind)
    }

    /// What to do once the step's rows are durable.
    public enum Effect: Hashable, Sendable {
        case startRinging(resumed: Bool)
        case stopRinging
        /// Full volume, and the alarm's escalation command (by the hooks, on
        /// its `escalated` record).
        case escalate
        case showMissed(scheduled: Date)
        /// A history event: journaled and streamed to `Watch` subscribers.
        case record(EventKind, scheduled: Date?, detail: String)
        /// A `changed` event for `Watch` subscribers (edits are not journaled).
        case changed(detail: String)
    }

    /// The decision.
    public struct Step: Hashable, Sendable {
        /// The item after the event; `nil` once removed.
        public var item: Item?
        /// Its ring state after the event (the last one, for a removal).
        public var state: RingState
        public var write: Write
        /// Whether the ring state must be saved.
        public var saveState: Bool
        /// History rows, committed with the item and its state.
        public var history: [HistoryEvent]
        public var effects: [Effect]
    }

    /// Decides `event` for `item`, whose ring state is `state` (`nil` for an
    /// item being added). Throws what the ringing machine refuses (snoozing
    /// what is not ringing, completing an alarm).
    public static func step(_ event: Event, item: Item, state: RingState?, now: Date, zone: Zone, policy: RingPolicy) throws(RingError) -> Step {
        switch event {
        case .added:
            return Step(item: item, state: RingingMachine.fresh(item: item, now: now, policy: policy), write: .insert(item), saveState: true, history: [],
                        effects: [.changed(detail: EventDetail.added)])
        case .edited(let after):
            let transition = RingingMachine.edited(from: item, to: after, state: state ?? RingState(anchor: now), now: now, policy: policy)
            var step = fold(transition, into: after, now: now, changed: EventDetail.edited)
            // An edit is a new version of the item even when no action changes it.
            step.write = .update(step.item!)
            return step
        case .command(let command):
            let transition = try RingingMachine.handle(command, item: item, state: state ?? RingState(anchor: now), now: now, zone: zone, policy: policy)
            return fold(transition, into: item, now: now, changed: nil)
        case .removed:
            let state = state ?? RingState(anchor: now)
            var step = fold(RingTransition(state: state, actions: RingingMachine.removed(state: state)), into: item, now: now, changed: EventDetail.removed)
            step.item = nil
            step.write = .remove(item.id, item.kind)
            step.saveState = false
            return step
        case .due:
            let transition = RingingMachine.advance(item: item, state: state ?? RingState(anchor: now), now: now, zone: zone, policy: policy)
            return fold(transition, into: item, now: now, changed: nil)
        case .clockMovedBack:
            let before = state ?? RingState(anchor: now)
            let adjusted = RingingMachine.clockMovedBack(state: before, now: now)
            return Step(item: item, state: adjusted, write: .none, saveState: adjusted != before, history: [], effects: [])
        }
    }

    /// The item as `transition`'s actions leave it (a one-shot alarm switched
    /// off, skip-next cleared, a reminder done), the history rows they
    /// record, and the effects that remain to be carried out.
    static func fold(_ transition: RingTransition, into before: Item, now: Date, changed: String?) -> Step {
        var item = before
        var history: [HistoryEvent] = []
        var effects: [Effect] = []
        for action in transition.actions {
            switch action {
            case .disableAlarm:
                if case .alarm(var alarm) = item { alarm.enabled = false; alarm.updated = now; item = .alarm(alarm) }
            case .clearSkipNext:
                if case .alarm(var alarm) = item { alarm.skipNext = false; alarm.updated = now; item = .alarm(alarm) }
            case .completeReminder:
                if case .reminder(var reminder) = item { reminder.done = true; reminder.updated = now; item = .reminder(reminder) }
            case .advanceReminder(let due):
                if case .reminder(var reminder) = item { reminder.due = due; reminder.updated = now; item = .reminder(reminder) }
            case .record(let kind, let scheduled, let detail):
                history.append(HistoryEvent(itemID: item.id, itemKind: item.kind, event: kind, scheduled: scheduled, actual: now, detail: detail))
            case .startRinging, .stopRinging, .showMissed, .escalate:
                break
            }
            if let effect = Effect(action) { effects.append(effect) }
        }
        if let changed { effects.append(.changed(detail: changed)) }
        return Step(item: item, state: transition.state, write: item != before ? .update(item) : .none, saveState: true, history: history, effects: effects)
    }
}

extension DaemonMachine.Effect {
    /// The effect of a ringing action, for the actions that have one; those
    /// that change the item have none (``DaemonMachine/step(_:item:state:now:zone:policy:)``
    /// applies them to the item itself).
    public init?(_ action: RingAction) {
        switch action {
        case .startRinging(let resumed): self = .startRinging(resumed: resumed)
        case .stopRinging: self = .stopRinging
        case .escalate: self = .escalate
        case .showMissed(let scheduled): self = .showMissed(scheduled: scheduled)
        case .record(let kind, let scheduled, let detail): self = .record(kind, scheduled: scheduled, detail: detail)
        case .disableAlarm, .clearSkipNext, .completeReminder, .advanceReminder: return nil
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Something the daemon must do because an item changed phase. The machine only
/// describes effects; the daemon performs them (store, journal, ringer), in the
/// order given, after persisting the new state.
public enum RingAction: Hashable, Sendable {
    /// Start the notification and sound; `resumed` when a restart found it ringing.
    case startRinging(resumed: Bool)
    case stopRinging
    /// Log and store an event for the occurrence scheduled at `scheduled`.
    case record(EventKind, scheduled: Date?, detail: String)
    /// Tell the person an occurrence was missed (one per item per catch-up).
    case showMissed(scheduled: Date)
    /// A one-shot alarm is spent: switch it off.
    case disableAlarm
    /// Skip-next was consumed: clear the flag.
    case clearSkipNext
    /// Mark the reminder done.
    case completeReminder
    /// A recurring reminder's occurrence is done: the next one is due at `due`.
    case advanceReminder(due: Date)
    /// Rung unanswered too long: full volume, and the escalation command.
    case escalate
}

/// The outcome of one step: the state to persist and the effects to perform.
public struct RingTransition: Hashable, Sendable {
    public var state: RingState
    public var actions: [RingAction]

    public init(state: RingState, actions: [RingAction] = []) {
        self.state = state
        self.actions = actions
    }
}

/// What a person (or a script) can ask of a ringing item.
public enum RingCommand: Hashable, Sendable {
    /// Snooze for the given minutes, or the item's own setting.
    case snooze(minutes: Int?)
    case dismiss
    /// Reminders only: mark done (also stops it ringing).
    case complete
}

/// Why a command was refused.
public enum RingError: Error, Hashable, Sendable, CustomStringConvertible {
    case notRinging(title: String)
    case snoozeNotAllowed(id: UUID, title: String, reason: String)
    case notAReminder(title: String)

    public var description: String {
        switch self {
        case .notRinging(let title): return "\(ValidationError.quoted(title)) is not ringing"
        case .snoozeNotAllowed(_, let title, let reason): return "\(ValidationError.quoted(title)) cannot be snoozed: \(reason)"
        case .notAReminder(let title): return "\(ValidationError.quoted(title)) is an alarm; only reminders can be completed"
        }
    }
}

/// The ringing lifecycle of one item, as pure functions of (item, state, now):
///
///     waiting ──due──▶ ringing ──snooze / timeout with snooze──▶ snoozed ──due──▶ ringing
///        ▲                │                                          │
///        └── dismiss / timeout without snooze / done ◀───────────────┘
///
/// Nothing here reads a clock or does I/O, so tests drive it with tables of
/// (state, event, now) → (state, actions), and the daemon replays the same
/// rules at start-up, after clock jumps and after resume.
public enum RingingMachine {
    /// When the item next needs attention: its next occurrence, the end of its
    /// ring duration, or the end of its snooze. `nil` when it will not fire.
    public static func wake(item: Item, state: RingState, zone: Zone, policy: RingPolicy) -> Date? {
        wake(item: item, state: state, policy: policy) { item.nextOccurrence(after: $0, in: zone, holidays: policy.holidays) }
    }

    /// The same, with the system zone's rules already looked up (for planning
    /// many items at once).
    public static func wake(item: Item, state: RingState, systemRules: ZoneRules, policy: RingPolicy) -> Date? {
        wake(item: item, state: state, policy: policy) { item.nextOccurrence(after: $0, systemRules: systemRules, holidays: policy.holidays) }
    }

    private static func wake(item: Item, state: RingState, policy: RingPolicy, occurrence: (Date) -> Date?) -> Date? {
        switch state.phase {
        case .waiting:
            guard item.isActive else { return nil }
            return occurrence(state.anchor)
        case .ringing(let since):
            if !state.escalated, let escalation = policy.escalation(of: item, ringingSince: since) { return escalation }
            return since.addingTimeInterval(TimeInterval(item.ringSeconds(policy)))
        case .snoozed(let until):
            return until
        }
    }

    /// The timer reached the item's wake instant (or the daemon got to it late).
    public static func advance(item: Item, state: RingState, now: Date, zone: Zone, policy: RingPolicy) -> RingTransition {
        guard let wake = wake(item: item, state: state, zone: zone, policy: policy), wake <= now else {
            return RingTransition(state: state)
        }
        switch state.phase {
        case .waiting:
            return occurrenceDue(item: item, state: state, first: wake, now: now, zone: zone, policy: policy)
        case .ringing(let since):
            let end = since.addingTimeInterval(TimeInterval(item.ringSeconds(policy)))
            // The escalation is due, unless the ringing is over too (the
            // daemon got here late): then it only times out.
            if !state.escalated, policy.escalation(of: item, ringingSince: since) == wake, now < end {
                var escalated = state
                escalated.escalated = true
                let minutes = Int(policy.escalateAfter) / 60, seconds = Int(policy.escalateAfter) % 60
                let after = minutes == 0 ? "\(seconds) s" : seconds == 0 ? "\(minutes) min" : "\(minutes) min \(seconds) s"
                return RingTransition(state: escalated, actions: [.escalate, .record(.escalated, scheduled: state.occurrence, detail: EventDetail.text(EventDetail.unanswered, after))])
            }
            return timedOut(item: item, state: state, now: now, lateBy: now.timeIntervalSince(end), zone: zone, policy: policy)
        case .snoozed(let until):
            let occurrence = state.occurrence ?? until
            if now.timeIntervalSince(until) > policy.missedGrace {
                // The daemon was away for the whole snooze and then some: ringing
                // now would be a surprise, so report it once and move on.
                var next = finish(item: item, occurrence: occurrence, anchorAtLeast: state.anchor, zone: zone, policy: policy)
                next.actions.insert(contentsOf: [.record(.missed, scheduled: until, detail: EventDetail.missedWhileStopped), .showMissed(scheduled: until)], at: 0)
                return next
            }
            return RingTransition(
                state: RingState(anchor: state.anchor, phase: .ringing(since: now), occurrence: occurrence, snoozeCount: state.snoozeCount),
                actions: [.record(.fired, scheduled: until, detail: EventDetail.text(EventDetail.afterSnooze, state.snoozeCount)), .startRinging(resumed: false)]
            )
        }
    }

    /// A person's command for a ringing (or snoozed) item.
    public static func handle(_ command: RingCommand, item: Item, state: RingState, now: Date, zone: Zone, policy: RingPolicy) throws(RingError) -> RingTransition {
        switch command {
        case .snooze(let minutes):
            guard state.isRinging, let occurrence = state.occurrence else { throw .notRinging(title: item.title) }
            let settings = item.snooze(policy)
            guard settings.enabled else { throw .snoozeNotAllowed(id: item.id, title: item.title, reason: "snooze is off for it") }
            guard settings.allowsSnooze(after: state.snoozeCount) else {
                throw .snoozeNotAllowed(id: item.id, title: item.title, reason: "it was already snoozed \(state.snoozeCount) times, the most it allows")
            }
            let count = state.snoozeCount + 1
            let until = now.addingTimeInterval(TimeInterval((minutes ?? settings.minutes) * 60))
            let snoozeDetail = settings.maxCount == 0 ? EventDetail.text(EventDetail.snooze, count, until.rfc3339UTC)
                : EventDetail.text(EventDetail.snoozeOf, count, settings.maxCount, until.rfc3339UTC)
            return RingTransition(
                state: RingState(anchor: state.anchor, phase: .snoozed(until: until), occurrence: occurrence, snoozeCount: count),
                actions: [.stopRinging, .record(.snoozed, scheduled: occurrence, detail: snoozeDetail)]
            )
        case .dismiss:
            guard state.isRinging || state.isSnoozed, let occurrence = state.occurrence else { throw .notRinging(title: item.title) }
            var next = finish(item: item, occurrence: occurrence, anchorAtLeast: state.anchor, zone: zone, policy: policy)
            next.actions.insert(.record(.dismissed, scheduled: occurrence, detail: ""), at: 0)
            if state.isRinging { next.actions.insert(.stopRinging, at: 0) }
            return next
        case .complete:
            guard case .reminder(let reminder) = item else { throw .notAReminder(title: item.title) }
            var actions: [RingAction] = state.isRinging ? [.stopRinging] : []
            // A recurring reminder stays: its next occurrence becomes due.
            if let next = reminder.nextDue(after: now, in: zone) {
                actions += [.advanceReminder(due: next), .record(.completed, scheduled: state.occurrence ?? reminder.due, detail: EventDetail.text(EventDetail.nextDue, next.rfc3339UTC))]
                return RingTransition(state: RingState(anchor: max(state.anchor, state.occurrence ?? state.anchor)), actions: actions)
            }
            actions += [.completeReminder, .record(.completed, scheduled: state.occurrence ?? reminder.due, detail: "")]
            let anchor = max(state.anchor, state.occurrence ?? state.anchor)
            return RingTransition(state: RingState(anchor: anchor), actions: actions)
        }
    }

    /// The state of an item created or rescheduled at `now`: waiting for its
    /// first occurrence after `now`, except that a reminder due at most
    /// `policy.missedGrace` before `now` is due at once. A reminder added
    /// "now" reaches the daemon a moment after its instant (the client read
    /// its clock first), and an occurrence that late rings when the daemon
    /// gets to it anyway (``advance(item:state:now:zone:policy:)``). An alarm
    /// names a time of day, whose next occurrence is the one meant.
    public static func fresh(item: Item, now: Date, policy: RingPolicy) -> RingState {
        guard case .reminder(let reminder) = item, !reminder.done, let due = reminder.due, due <= now,
              now.timeIntervalSince(due) <= policy.missedGrace
        else { return RingState(anchor: now) }
        // Just before the due instant, as `loaded` puts back an occurrence.
        return RingState(anchor: due.addingTimeInterval(-0.000_001))
    }

    /// The item was created or replaced wholesale (an import): drop whatever it
    /// was doing and look for occurrences after `now`.
    public static func reset(state: RingState?, now: Date) -> RingTransition {
        let actions: [RingAction] = state?.isRinging == true ? [.stopRinging] : []
        return RingTransition(state: RingState(anchor: now), actions: actions)
    }

    /// A person changed `before` into `after` while it was in `state`; any
    /// occurrence already due has been fired first (the caller's duty), so an
    /// edit can never lose one.
    ///
    /// An edit that keeps the schedule (label, sound, snooze settings, skip-next)
    /// keeps the item's place in its lifecycle: a ringing item rings on, a
    /// snoozed one stays snoozed, and a one-shot alarm still switches itself
    /// off when that ringing ends. An edit that moves the schedule or switches
    /// the item off ends any ringing or snooze — recorded as a dismissal, like
    /// every other end of a ringing — and looks for occurrences after `now`.
    /// A rescheduled one-shot alarm stays on for its new time: someone who moves
    /// a ringing alarm to 07:45 means to be woken at 07:45. A reminder moved
    /// to an instant just past is due at once (``fresh(item:now:policy:)``).
    public static func edited(from before: Item, to after: Item, state: RingState, now: Date, policy: RingPolicy = .default) -> RingTransition {
        guard !after.hasSameSchedule(as: before) else { return RingTransition(state: state) }
        var actions: [RingAction] = []
        if state.isRinging { actions.append(.stopRinging) }
        if state.isRinging || state.isSnoozed {
            actions.append(.record(.dismissed, scheduled: state.occurrence, detail: after.isActive ? EventDetail.rescheduledByEdit : EventDetail.switchedOffByEdit))
        }
        return RingTransition(state: fresh(item: after, now: now, policy: policy), actions: actions)
    }

    /// The item is being removed: a ringing or snoozed occurrence ends with it,
    /// recorded as a dismissal (the history outlives the item).
    public static func removed(state: RingState) -> [RingAction] {
        var actions: [RingAction] = []
        if state.isRinging { actions.append(.stopRinging) }
        if state.isRinging || state.isSnoozed { actions.append(.record(.dismissed, scheduled: state.occurrence, detail: EventDetail.removed)) }
        return actions
    }

    /// The step a waiting item takes at its wake-up `wake`, if it is an
    /// ordinary firing — rings on time, nothing missed, skipped or switched off —
    /// and so can be saved before the instant arrives: then the firing itself
    /// only has to be announced. `nil` for any other step.
    public static func firingAhead(item: Item, state: RingState, wake: Date, zone: Zone, policy: RingPolicy) -> RingTransition? {
        guard case .waiting = state.phase else { return nil }
        let transition = advance(item: item, state: state, now: wake, zone: zone, policy: policy)
        guard case .ringing(let since) = transition.state.phase, since == wake, let occurrence = transition.state.occurrence,
              transition.actions == [.record(.fired, scheduled: occurrence, detail: ""), .startRinging(resumed: false)]
        else { return nil }
        return transition
    }

    /// A state as read back at start-up. One saved by ``firingAhead(item:state:wake:zone:policy:)``
    /// for an instant still to come means the firing never happened (the
    /// daemon stopped first): the item waits for that occurrence again.
    ///
    /// `fireRecorded: false` says the history has no `fired` row for the
    /// occurrence. An ordinary firing commits its row with its state, so a
    /// state saved ahead without one was never announced, even though its
    /// instant has passed (the daemon died in the last moment before it): it
    /// waits for that occurrence again too, so the firing — or, past the missed
    /// grace, the miss — is journaled and recorded like any other.
    public static func loaded(_ state: RingState, now: Date, fireRecorded: Bool = true) -> RingState {
        guard isSavedAhead(state), let occurrence = state.occurrence, occurrence > now || !fireRecorded else { return state }
        return RingState(anchor: occurrence.addingTimeInterval(-0.000_001))
    }

    /// Whether `state` has the shape ``firingAhead(item:state:wake:zone:policy:)``
    /// saves: ringing since exactly its occurrence, never snoozed. (A firing on
    /// time to the microsecond has it too; its history row tells them apart.)
    public static func isSavedAhead(_ state: RingState) -> Bool {
        guard case .ringing(let since) = state.phase, let occurrence = state.occurrence else { return false }
        return state.snoozeCount == 0 && occurrence == since && state.anchor == occurrence
    }

    /// At start-up: an item that was ringing when the daemon stopped rings on.
    public static func resume(state: RingState) -> [RingAction] {
        state.isRinging ? [.startRinging(resumed: true)] : []
    }

    /// After the wall clock moved backwards: an anchor more than a day in the
    /// future came from a clock that was wrong, and would hold the item silent
    /// until the clock caught up again; anything closer is kept, so that an
    /// occurrence already dealt with is not rung a second time.
    public static func clockMovedBack(state: RingState, now: Date) -> RingState {
        guard state.anchor.timeIntervalSince(now) > 86_400 else { return state }
        var state = state
        state.anchor = now
        return state
    }

    // MARK: - Steps

    private static func occurrenceDue(item: Item, state: RingState, first: Date, now: Date, zone: Zone, policy: RingPolicy) -> RingTransition {
        // Find the latest occurrence not after now. After a long absence only the
        // last eight days are walked: a week always contains the latest one.
        var latest = first
        var probe = max(first, now.addingTimeInterval(-8 * 86_400))
        while let next = item.nextOccurrence(after: probe, in: zone, holidays: policy.holidays), next <= now {
            latest = next
            probe = next
        }
        let earlierMissed = latest > first

        if item.skipsNext {
            var actions: [RingAction] = [.clearSkipNext, .record(.skipped, scheduled: latest, detail: "")]
            if item.endsAfter(latest, in: zone, holidays: policy.holidays) { actions.append(.disableAlarm) }
            return RingTransition(state: RingState(anchor: latest), actions: actions)
        }

        let lateness = now.timeIntervalSince(latest)
        var actions: [RingAction] = []
        if lateness <= policy.missedGrace {
            if earlierMissed {
                actions += [.record(.missed, scheduled: first, detail: EventDetail.text(EventDetail.missedFrom, first.rfc3339UTC)), .showMissed(scheduled: first)]
            }
            actions += [.record(.fired, scheduled: latest, detail: ""), .startRinging(resumed: false)]
            return RingTransition(state: RingState(anchor: latest, phase: .ringing(since: now), occurrence: latest), actions: actions)
        }
        let detail = earlierMissed ? "occurrences from \(first.rfc3339UTC) to \(latest.rfc3339UTC) were missed" : ""
        actions += [.record(.missed, scheduled: latest, detail: detail), .showMissed(scheduled: latest)]
        if item.endsAfter(latest, in: zone, holidays: policy.holidays) { actions.append(.disableAlarm) }
        return RingTransition(state: RingState(anchor: latest), actions: actions)
    }

    private static func timedOut(item: Item, state: RingState, now: Date, lateBy: TimeInterval, zone: Zone, policy: RingPolicy) -> RingTransition {
        let occurrence = state.occurrence ?? state.anchor
        let settings = item.snooze(policy)
        // Auto-silence snoozes when it may, so a sleeper still gets another
        // chance; but not when the daemon got here long after the fact.
        if settings.allowsSnooze(after: state.snoozeCount), lateBy <= policy.missedGrace {
            let count = state.snoozeCount + 1
            let until = now.addingTimeInterval(TimeInterval(settings.minutes * 60))
            return RingTransition(
                state: RingState(anchor: state.anchor, phase: .snoozed(until: until), occurrence: occurrence, snoozeCount: count),
                actions: [.stopRinging, .record(.timedOut, scheduled: occurrence, detail: EventDetail.text(EventDetail.snoozedUntil, until.rfc3339UTC))]
            )
        }
        var next = finish(item: item, occurrence: occurrence, anchorAtLeast: state.anchor, zone: zone, policy: policy)
        next.actions.insert(contentsOf: [.stopRinging, .record(.timedOut, scheduled: occurrence, detail: EventDetail.dismissed)], at: 0)
        return next
    }

    /// The occurrence is over: back to waiting for the next one; an alarm
    /// after its last occurrence switches itself off; a reminder stays open
    /// until it is done.
    private static func finish(item: Item, occurrence: Date, anchorAtLeast anchor: Date, zone: Zone, policy: RingPolicy) -> RingTransition {
        // A timer that stopped ringing is over.
        if item.isTimer { return RingTransition(state: RingState(anchor: max(anchor, occurrence)), actions: [.completeReminder]) }
        return RingTransition(
            state: RingState(anchor: max(anchor, occurrence)),
            actions: item.endsAfter(occurrence, in: zone, holidays: policy.holidays) ? [.disableAlarm] : []
        )
    }
}

extension Date {
    /// `2026-03-08T07:30:00Z` (whole seconds), for messages.
    public var rfc3339UTC: String {
        let local = LocalDateTime(localSeconds: epochSecondsFloor, utcOffset: 0)
        return local.dateText + "T" + local.timeText + "Z"
    }
}

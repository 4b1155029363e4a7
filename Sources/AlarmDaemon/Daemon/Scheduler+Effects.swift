// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Dispatch
import FoundationEssentials
import SystemCalls

/// What a step's effects do: ringing and sound through the output worker,
/// events to `Watch` subscribers at once and to the journal through the
/// output worker, and the title of what rings longest for logind's inhibitor.
extension Scheduler {
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
                let zone = owned.zone
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
    func ringingStarted(_ item: Item, state: RingState, now: Date) {
        guard let onRingingChange = owned.onRingingChange else { return }
        var since = now
        if case .ringing(let started) = state.phase { since = started }
        if let first = owned.firstRinging, first.id != item.id, first.since <= since { return }
        owned.firstRinging = (item.id, since)
        guard item.title != owned.reportedRinging else { return }
        owned.reportedRinging = item.title
        onRingingChange(item.title)
    }

    func ringingStopped(_ id: UUID) {
        guard owned.onRingingChange != nil, owned.firstRinging?.id == id, !owned.ringingReportQueued else { return }
        owned.ringingReportQueued = true
        owner.post { [weak self] in
            guard let self else { return }
            owned.ringingReportQueued = false
            owned.firstRinging = firstRingingNow()
            let title = owned.firstRinging.flatMap { owned.table[$0.id]?.title }
            guard title != owned.reportedRinging else { return }
            owned.reportedRinging = title
            let report = owned.onRingingChange
            report?(title)
        }
    }

    /// The earliest-started item ringing now, if any.
    func firstRingingNow() -> (id: UUID, since: Date)? {
        owned.table.ringing.compactMap { id -> (id: UUID, since: Date)? in
            guard case .ringing(let since)? = owned.table.state(of: id)?.phase else { return nil }
            return (id, since)
        }.min { $0.since < $1.since }
    }

    /// Hands an event to `Watch` subscribers only (they queue it).
    func publish(_ event: DaemonEvent) {
        events.publish(event)
    }

    /// One event's journal entry. `ALARMD_EVENT_USEC` is the event's own
    /// instant, which with the item and the event names its history row
    /// (``JournalRecovery``); a `recovered` entry is written at a start for a
    /// row a crash left without one, and does not know the snooze count.
    static func log(_ event: DaemonEvent, to journal: Journal, recovered: Bool = false) {
        let priority: Journal.Priority
        switch event.kind {
        case .fired: priority = .notice
        case .missed: priority = .warning
        default: priority = .info
        }
        var fields: [(String, String)] = [
            ("ALARMD_ITEM_ID", event.item.id.lowercasedText),
            ("ALARMD_KIND", event.item.kind.rawValue),
            ("ALARMD_LABEL", event.item.title),
            ("ALARMD_EVENT", event.kind.rawValue),
            ("ALARMD_EVENT_USEC", String(usec(event.actual))),
        ]
        if recovered { fields.append(("ALARMD_RECOVERED", "1")) } else { fields.append(("ALARMD_SNOOZE_COUNT", String(event.snoozeCount))) }
        if let scheduled = event.scheduled { fields.append(("ALARMD_SCHEDULED_USEC", String(usec(scheduled)))) }
        if let lateness = event.lateness {
            fields.append(("ALARMD_LATENESS_USEC", String(Int64((lateness * 1_000_000).rounded()))))
        }
        if !event.detail.isEmpty { fields.append(("ALARMD_DETAIL", event.detail)) }
        let lateness = event.kind == .fired || event.kind == .missed ? event.lateness : nil
        journal.send(EventText.sentence(event.kind, item: event.item, lateness: lateness, detail: event.detail),
                     priority: priority, messageID: MessageID.forEvent(event.kind), fields: fields)
    }

    /// `date` in microseconds since the epoch, as the store and the journal's fields keep it.
    static func usec(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }
}

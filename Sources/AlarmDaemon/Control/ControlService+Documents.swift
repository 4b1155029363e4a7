// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmStore
import FoundationEssentials

/// Whole documents in and out: alarmd's own export format and iCalendar,
/// read and written on the owner, imports made durable as one transaction.
extension ControlService {
    /// Timers are no to-dos: a document carries the running ones only when asked.
    func export(_ parameters: Parameters) throws(VarlinkError) -> Export.Reply {
        let request: Export.Request = try request(parameters)
        let (alarms, reminders) = scheduler.allItems()
        let kept = reminders.filter { !$0.isTimer || (request.timers && !$0.done) }
        return Export.Reply(document: ExportDocument.object(alarms: alarms, reminders: kept, zone: zone()))
    }

    /// A replace by a document without timers keeps the timers running here.
    func importDocument(_ request: Import.Request, _ reply: @escaping Reply) throws(VarlinkError) {
        var (alarms, reminders) = try ExportDocument.parse(request.document, zone: zone())
        if !request.merge, !reminders.contains(where: \.isTimer) {
            reminders += scheduler.allItems().reminders.filter { $0.isTimer && !$0.done }
        }
        importItems(alarms: alarms, reminders: reminders, merge: request.merge, dryRun: request.dryRun, keepingCommands: false, reply)
    }

    /// What iCalendar is read and written with here: the system zone,
    /// `[Reminders] AllDayAt=`, the clock, the zone database.
    private func calendarSettings() -> ICalendarItems.Settings {
        ICalendarItems.Settings(zone: zone(), allDayAt: defaults().allDayAt, now: Date(), zoneNamed: { ZoneName.zone($0) })
    }

    func exportCalendar(_ parameters: Parameters) throws(VarlinkError) -> ExportCalendar.Reply {
        let _: ExportCalendar.Request = try request(parameters)
        let (alarms, reminders) = scheduler.allItems()
        return ExportCalendar.Reply(calendar: ICalendarItems.calendar(alarms: alarms, reminders: reminders, settings: calendarSettings()))
    }

    /// A merge by UID; a calendar carries no commands, so known items keep theirs.
    func importCalendar(_ request: ImportCalendar.Request, _ reply: @escaping Reply) throws(VarlinkError) {
        let items: (alarms: [Alarm], reminders: [Reminder])
        do throws(ICalendarError) { items = try ICalendarItems.items(icalendar: request.calendar, settings: calendarSettings()) } catch {
            throw .invalidParameter(ImportCalendar.Request.calendar.name, error.description)
        }
        importItems(alarms: items.alarms, reminders: items.reminders, merge: true, dryRun: request.dryRun, keepingCommands: true, reply)
    }

    private func importItems(alarms: [Alarm], reminders: [Reminder], merge: Bool, dryRun: Bool, keepingCommands: Bool, _ reply: @escaping Reply) {
        let done: @Sendable (Scheduler.ImportOutcome) -> Import.Reply = { Self.importReply(alarms: alarms, reminders: reminders, merge: merge, dryRun: dryRun, outcome: $0) }
        if dryRun {
            reply(.success(done(scheduler.importPlan(alarms: alarms, reminders: reminders, replacing: !merge, keepingCommands: keepingCommands)).json))
        } else if merge {
            scheduler.mergeAll(alarms: alarms, reminders: reminders, keepingCommands: keepingCommands, leavingUnchanged: true, completion: answer(reply, done))
        } else {
            // Calls are handled on the owner: the plan and the replace see the same items.
            let outcome = scheduler.importPlan(alarms: alarms, reminders: reminders, replacing: true)
            scheduler.replaceAll(alarms: alarms, reminders: reminders, completion: answer(reply) { done(outcome) })
        }
    }

    private static func importReply(alarms: [Alarm], reminders: [Reminder], merge: Bool, dryRun: Bool, outcome: Scheduler.ImportOutcome) -> Import.Reply {
        // Each change is listed for a merge or a dry run; a replace of
        // 100,000 items done says only how many.
        var changes: [ImportChange] = []
        if merge || dryRun {
            var titles: [UUID: (ItemKind, String)] = [:]
            for alarm in alarms { titles[alarm.id] = (.alarm, alarm.label) }
            for reminder in reminders { titles[reminder.id] = (.reminder, reminder.title) }
            for removed in outcome.removed { titles[removed.id] = (removed.kind, removed.title) }
            for (change, ids) in [(ImportChange.Change.added, outcome.added), (.updated, outcome.updated), (.removed, outcome.removed.map(\.id))] {
                for id in ids {
                    let (kind, title) = titles[id] ?? (.alarm, "")
                    changes.append(ImportChange(change: change, id: id.lowercasedText, itemKind: kind, title: title))
                }
            }
        }
        return Import.Reply(alarms: alarms.count, reminders: reminders.count, added: outcome.added.count, updated: outcome.updated.count,
                            removed: outcome.removed.count, changes: changes)
    }
}

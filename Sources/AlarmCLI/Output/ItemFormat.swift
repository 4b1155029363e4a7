// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import FoundationEssentials

/// Human text for alarms and reminders: list tables, one-line summaries, and
/// the `key: value` details of `show`.
struct ItemFormat {
    let time: TimeText
    let style: Style
    /// The terminal's width, for tables to fit.
    let columns: Int?

    init(_ context: CommandContext) {
        time = TimeText(context)
        style = Style(context)
        columns = context.terminalColumns
    }

    // MARK: Alarms

    /// `ID  TIME  LABEL, REPEAT  ON/OFF  NEXT`, one alarm a line, in the daemon's order (by time of day).
    func alarmTable(_ alarms: [AlarmView]) -> String {
        guard !alarms.isEmpty else { return L("No alarms.") + "\n" }
        let nexts = alarms.map { time.short($0.next) }
        let table = Table(
            header: [L("ID"), L("TIME"), L("LABEL, REPEAT"), L("ON/OFF"), L("NEXT")],
            rows: zip(alarms, nexts).map { alarm, next in
                [shortID(alarm.id), timeColumn(alarm), alarm.listLine, alarm.enabled ? L("on") : L("off"),
                 ([next] + markers(alarm)).joined(separator: "  ")]
            },
            maxWidth: columns, shrinkable: 2, lastColumnOwed: nexts.map(DisplayWidth.of).max()
        )
        let lines = table.lines
        let body = zip(alarms, lines.dropFirst()).map { alarm, line in emphasis(line, enabled: alarm.enabled, phase: alarm.phase) }
        return ([lines[0]] + body).joined(separator: "\n") + "\n"
    }

    /// `1a2b3c4d 07:30 Work, Weekdays: rings in 8 h 5 min (Tue 07:30)` — what a change left behind.
    func alarmSummary(_ alarm: AlarmView) -> String {
        // As a phone says it once an alarm is set: when it rings, from now.
        var state = !alarm.enabled ? L("off") : alarm.next == nil ? L("does not ring again") : Lf("rings %s", time.coming(alarm.next))
        if alarm.enabled, alarm.skipNext, let skipping = alarm.skipping {
            // Which occurrence is passed over, and which one rings.
            state = alarm.next == nil ? Lf("skips %s, then off", time.short(skipping)) : Lf("skips %1$s, rings %2$s", time.short(skipping), time.coming(alarm.next))
        }
        let extra = markers(alarm, summarised: true)
        if !extra.isEmpty { state = userLanguage.list([state] + extra) }
        // TRANSLATORS: an alarm's short id, time, label and repeat, then when it rings.
        return Lf("%1$s %2$s %3$s: %4$s", shortID(alarm.id), timeColumn(alarm), alarm.listLine, state)
    }

    /// How many runs of skipped days a list or a summary says before `…`.
    static let skippedRunsShown = 2

    /// The days to come that `skip DAYS` passes over (the repeat's
    /// exceptions, from today where the alarm rings), runs of days as ranges:
    /// `Dec 14–Dec 18, Dec 24`; the first `runs` of them and `…` when given;
    /// `nil` for none.
    func skippedDays(_ alarm: AlarmView, runs limit: Int = .max) -> String? {
        dayRuns(alarm.skippedDays(from: RuleOptions.today(time.now, in: alarm.zone(system: time.zone))), runs: limit)
    }

    /// Days as runs: `Dec 14–Dec 18, Dec 24`, the first `runs` of them and
    /// `…` when given; `nil` for none.
    func dayRuns(_ days: some Collection<Int64>, runs limit: Int = .max) -> String? {
        let days = days.sorted()
        guard !days.isEmpty else { return nil }
        var runs: [(Int64, Int64)] = []
        for day in days {
            if let last = runs.last, last.1 + 1 == day { runs[runs.count - 1].1 = day } else { runs.append((day, day)) }
        }
        let said = runs.prefix(limit).map { $0.0 == $0.1 ? time.dayText($0.0) : time.dayText($0.0) + "–" + time.dayText($0.1) }
        return userLanguage.list(said) + (runs.count > limit ? " …" : "")
    }

    /// Every setting; `warnings` (from `GetAlarm`) last, one line each.
    func alarmDetails(_ alarm: AlarmView, warnings: [String] = []) -> String {
        typealias A = Wire.Alarm
        typealias S = Wire.SnoozeSettings
        let snooze = alarm.reply.nested(A.snooze)
        var list = KeyValueList()
        list.add(L("id"), alarm.id)
        list.add(L("time"), timeColumn(alarm))
        list.add(L("repeat"), alarm.repeatText)
        if alarm.skipHolidays { list.add(L("holidays"), L("skipped ([Alarms] Holidays=)")) }
        if let skipped = skippedDays(alarm) { list.add(L("skipped"), skipped) }
        if let paused = time.dayAhead(alarm.pausedUntil) { list.add(L("paused"), Lf("until %s (rings again that day)", paused)) }
        list.add(L("label"), alarm.label)
        list.add(L("time zone"), alarm.timeZone ?? Lf("system (%s)", time.zone.identifier))
        list.add(L("sound"), alarm.reply.string(A.sound))
        list.add(L("volume"), alarm.reply.optionalInt(A.volume).map { "\($0) %" } ?? L("default ([Sound] Volume=)"))
        list.add(L("fade"), alarm.reply.optionalInt(A.fadeSeconds).map { $0 == 0 ? L("none") : Lf("%d s", $0) } ?? L("default ([Sound] Fade=)"))
        if snooze.bool(S.enabled) {
            let limit = snooze.int(S.maxCount) == 0 ? L("no limit") : Ln("at most %d per alarm", "at most %d per alarm", snooze.int(S.maxCount))
            list.add(L("snooze"), Lf("%1$d min, %2$s", snooze.int(S.minutes), limit))
        } else {
            list.add(L("snooze"), L("off"))
        }
        list.add(L("rings for"), Lf("%d s", alarm.reply.int(A.ringSeconds)))
        let command = alarm.reply.strings(A.command), escalate = alarm.reply.strings(A.escalateCommand)
        if !command.isEmpty { list.add(L("command"), Self.commandLine(command)) }
        if !escalate.isEmpty { list.add(L("escalate"), Self.commandLine(escalate)) }
        list.add(L("enabled"), alarm.enabled ? L("yes") : L("no"))
        list.add(L("skip next"), alarm.skipNext ? L("yes") : L("no"))
        list.add(L("state"), alarm.enabled ? phaseText(alarm.phase, snoozes: alarm.reply.int(A.snoozeCount)) : L("off"))
        list.add(L("next"), time.full(alarm.next))
        list.add(L("created"), time.full(alarm.reply.optionalString(A.created)))
        list.add(L("updated"), time.full(alarm.reply.optionalString(A.updated)))
        for warning in warnings { list.add(L("warning"), Lf("may not be heard: %s", Audibility.relocalized(warning, in: userLanguage))) }
        return list.text
    }

    /// An argument vector as a line `--command` would read back: words with
    /// spaces, quotes or backslashes single-quoted.
    static func commandLine(_ argv: [String]) -> String {
        argv.map { word in
            word.isEmpty || word.contains(where: { " \t'\"\\".contains($0) }) ? "'" + word.replacing("'", with: #"'\''"#) + "'" : word
        }.spaced
    }

    /// A pinned alarm shows its zone with its time: 07:30 there is not 07:30 here.
    private func timeColumn(_ alarm: AlarmView) -> String {
        let shown = (try? TimeOfDay.parse(alarm.time)).map(userLanguage.time) ?? alarm.time
        return alarm.timeZone.map { Lf("%1$s (%2$s)", shown, $0) } ?? shown
    }

    /// What a row adds to an alarm's time; `summarised`, the skip is said
    /// in the summary's own words.
    private func markers(_ alarm: AlarmView, summarised: Bool = false) -> [String] {
        var markers: [String] = []
        if alarm.phase == "ringing" || alarm.phase == "snoozed" { markers.append(phaseName(alarm.phase)) }
        if alarm.skipNext, !(summarised && alarm.enabled && alarm.skipping != nil) {
            markers.append(alarm.skipping.map { Lf("skips %s", time.short($0)) } ?? L("skipping next"))
        }
        if let paused = time.dayAhead(alarm.pausedUntil) { markers.append(Lf("paused until %s", paused)) }
        // A trip's pause (`pause --from`) and `skip DAYS`: the days, not a count.
        if let skipped = skippedDays(alarm, runs: Self.skippedRunsShown) { markers.append(Lf("skips %s", skipped)) }
        return markers
    }

    // MARK: Reminders

    /// `POS  ID  DONE  TITLE  DUE`, in the list's manual order.
    func reminderTable(_ reminders: [ReminderView], all: Bool) -> String {
        guard !reminders.isEmpty else { return (all ? L("No reminders.") : L("No open reminders.")) + "\n" }
        let dues = reminders.map { dueText($0, short: true) }
        // DONE only with --all: without it every row would say [ ].
        let table = Table(
            header: [L("POS"), L("ID")] + (all ? [L("DONE")] : []) + [L("TITLE"), L("DUE")],
            // The open ones numbered from 1 without gaps, as remind move takes
            // them, the same with --all; a done one has no place ("—").
            rows: zip(reminders, dues).reduce(into: (rows: [[String]](), open: 0)) { result, pair in
                let (reminder, due) = pair
                if !reminder.done { result.open += 1 }
                result.rows.append([reminder.done ? "—" : String(result.open), shortID(reminder.id)] + (all ? [reminder.done ? "[x]" : "[ ]"] : [])
                    + [oneLine(reminder.title), ([due] + reminderMarkers(reminder)).joined(separator: "  ")])
            }.rows,
            rightAligned: [0], maxWidth: columns, shrinkable: all ? 3 : 2, lastColumnOwed: dues.map(DisplayWidth.of).max()
        )
        let lines = table.lines
        let body = zip(reminders, lines.dropFirst()).map { reminder, line in emphasis(line, enabled: !reminder.done, phase: reminder.phase) }
        return ([lines[0]] + body).joined(separator: "\n") + "\n"
    }

    /// `1a2b3c4d Buy milk (due 2026-03-09 14:00)`; `sayingDone: false` after
    /// a `Done:` that says it already.
    func reminderSummary(_ reminder: ReminderView, sayingDone: Bool = true) -> String {
        var state = reminder.due == nil ? L("no due time") : Lf("due %s", dueText(reminder))
        if let repeatText = reminder.repeatText { state = Lf("%1$s, %2$s", state, repeatText) }
        if reminder.done, sayingDone { state = Lf("done, %s", state) }
        // TRANSLATORS: a reminder's short id, its title, and its state in brackets.
        return Lf("%1$s %2$s (%3$s)", shortID(reminder.id), oneLine(reminder.title), state)
    }

    /// Every field; `place` is its number in `remind list` (none for a done
    /// to-do or a timer, which the list does not number).
    func reminderDetails(_ reminder: ReminderView, place: Int?) -> String {
        var list = KeyValueList()
        list.add(L("id"), reminder.id)
        list.add(L("title"), reminder.title)
        if !reminder.notes.isEmpty { list.add(L("notes"), reminder.notes) }
        list.add(L("due"), reminder.allDay ? Lf("%s (all day)", time.day(reminder.due)) : time.full(reminder.due))
        if let repeatText = reminder.repeatText { list.add(L("repeat"), repeatText) }
        if !reminder.before.isEmpty { list.add(L("notices"), Lf("%s before", userLanguage.list(reminder.before.map { DurationText.countdown(Double($0), in: userLanguage) }))) }
        list.add(L("done"), reminder.done ? L("yes") : L("no"))
        list.add(L("position"), place.map(String.init) ?? "—")
        if let image = reminder.imagePath { list.add(L("image"), image) }
        list.add(L("state"), reminder.done ? L("done") : phaseText(reminder.phase, snoozes: reminder.reply.int(Wire.Reminder.snoozeCount)))
        list.add(L("next"), time.full(reminder.next))
        list.add(L("created"), time.full(reminder.reply.optionalString(Wire.Reminder.created)))
        list.add(L("updated"), time.full(reminder.reply.optionalString(Wire.Reminder.updated)))
        return list.text
    }

    private func reminderMarkers(_ reminder: ReminderView) -> [String] {
        var markers = reminder.phase == "ringing" || reminder.phase == "snoozed" ? [phaseName(reminder.phase)] : []
        // Past its due time (an all-day one's day) and not done: it rang (or was missed) and waits.
        if markers.isEmpty, isOverdue(reminder, due: TimeText.instant(reminder.due)) { markers.append(L("overdue")) }
        if let repeatText = reminder.repeatText { markers.append(Lf("(%s)", repeatText)) }
        return markers
    }

    private func isOverdue(_ reminder: ReminderView, due: Date?) -> Bool {
        ReminderItem.isOverdue(due: due, allDay: reminder.allDay, done: reminder.done,
                               phase: ItemPhase(rawValue: reminder.phase) ?? .waiting, now: time.now, zone: time.zone)
    }

    /// `5e6f7a8b Dentist: due in 3 d 2 h (Thu 14:30)`, as a phone says it.
    func reminderComing(_ reminder: ReminderView) -> String {
        let due = TimeText.instant(reminder.due).map { isOverdue(reminder, due: $0) ? L("overdue") : Lf("due %s", reminder.allDay ? dueText(reminder) : time.coming(reminder.due)) }
        return Lf("%1$s %2$s: %3$s", shortID(reminder.id), oneLine(reminder.title), reminder.done ? L("done") : due ?? L("no due time"))
    }

    /// The due date alone for an all-day reminder, else its date and time;
    /// `short`, as list's NEXT says it (`Sat 18:00`), for the table.
    private func dueText(_ reminder: ReminderView, short: Bool = false) -> String {
        reminder.allDay ? time.day(reminder.due) : short ? time.short(reminder.due) : time.dateTime(reminder.due)
    }

    /// `15m`, `1h`, `1d`, `1h30m`.
    // MARK: Shared

    private func phaseText(_ phase: String, snoozes: Int) -> String {
        guard snoozes > 0 else { return phaseName(phase) }
        return Ln("%1$s (snoozed %2$d time)", "%1$s (snoozed %2$d times)", snoozes, phaseName(phase), snoozes)
    }

    /// A wire phase (`waiting`, `ringing`, `snoozed`) in words.
    private func phaseName(_ phase: String) -> String {
        switch phase {
        case "waiting": return L("waiting")
        case "ringing": return L("ringing")
        case "snoozed": return L("snoozed")
        default: return phase
        }
    }

    /// Ringing stands out; things switched off or done recede.
    private func emphasis(_ line: String, enabled: Bool, phase: String) -> String {
        if phase == "ringing" { return style.bold(line) }
        return enabled ? line : style.dim(line)
    }

    /// A table cell must not break its line.
    private func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }

    /// `alarm`, `reminder`, `notice`: what a firing is, in words.
    /// A firing's kind in words: alarm, reminder, timer, notice.
    func kindName(_ kind: String) -> String {
        switch kind {
        case "alarm": return L("alarm")
        case "reminder": return L("reminder")
        case "timer": return L("timer")
        case "notice": return L("notice")
        default: return kind
        }
    }

    /// An event kind of the history and `watch` in words.
    private func eventName(_ kind: String) -> String {
        switch kind {
        case "fired": return L("fired")
        case "snoozed": return L("snoozed")
        case "dismissed": return L("dismissed")
        case "timed-out": return L("timed out")
        case "skipped": return L("skipped")
        case "missed": return L("missed")
        case "completed": return L("completed")
        case "changed": return L("changed")
        case "escalated": return L("escalated")
        case "notice": return L("notice")
        default: return kind
        }
    }

    /// `on time`, `3 ms late`.
    private func latenessText(_ seconds: Double) -> String {
        seconds < 0.0005 ? L("on time") : Lf("%s late", EventText.durationText(seconds, in: userLanguage))
    }

    /// `2026-03-09 Mon 07:30  alarm  1a2b3c4d  Work`, one upcoming firing a
    /// line, under a header.
    func firingLines(_ firings: [Wire.Firing]) -> String {
        guard !firings.isEmpty else { return L("Nothing scheduled.") + "\n" }
        // To the minute, as every list shows a time: a timer's seconds are `timer`'s.
        let table = Table(header: [L("WHEN"), L("KIND"), L("ID"), L("TITLE")], rows: firings.map { firing in
            [time.dayAndTime(firing.at, seconds: false), kindName(firing.kind), shortID(firing.id), oneLine(firing.title)]
        })
        return table.lines.joined(separator: "\n") + "\n"
    }

    /// An event's detail in the reader's language (``EventDetail``'s
    /// templates), its instants in local time.
    func detailText(_ text: String) -> String {
        relocalized(text, among: EventDetail.templates).replacing(#/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/#) { match in time.seconds(String(match.output)) }
    }

    /// `WHEN  EVENT  ID  TITLE  DETAIL`, newest first, one line each.
    func historyTable(_ events: [ReplyObject]) -> String {
        typealias H = Wire.HistoryEntry
        guard !events.isEmpty else { return L("No history.") + "\n" }
        let table = Table(
            header: [L("WHEN"), L("EVENT"), L("ID"), L("TITLE"), L("DETAIL")],
            rows: events.map { event in
                let title = event.optionalString(H.title).map(oneLine) ?? L("(removed)")
                var detail = detailText(event.string(H.detail))
                if event.string(H.kind) == "fired", let scheduled = TimeText.instant(event.optionalString(H.scheduled)),
                   let actual = TimeText.instant(event.optionalString(H.actual)) {
                    detail = latenessText(max(0, actual.timeIntervalSince(scheduled))) + (detail.isEmpty ? "" : L("; ") + detail)
                }
                return [time.seconds(event.optionalString(H.actual)), eventName(event.string(H.kind)), shortID(event.string(H.id)), title, oneLine(detail)]
            },
            maxWidth: columns, shrinkable: 3
        )
        return table.lines.joined(separator: "\n") + "\n"
    }

    /// `2026-03-09 07:30:00  fired      1a2b3c4d  Alarm "Work"  (3 ms late)`:
    /// one `watch` line, its detail in the reader's language.
    func eventLine(_ event: ReplyObject) -> String {
        typealias E = Wire.Event
        let title = inQuotes(event.string(E.title))
        let isTimer = event.nested(E.reminder).bool(Wire.Reminder.timer)
        let subject = isTimer ? Lf("Timer %s", title) : event.string(E.itemKind) == "reminder" ? Lf("Reminder %s", title) : Lf("Alarm %s", title)
        var notes: [String] = []
        let scheduled = TimeText.instant(event.optionalString(E.scheduled))
        let actual = TimeText.instant(event.optionalString(E.actual))
        switch event.string(E.kind) {
        case "fired":
            if let scheduled, let actual { notes.append(latenessText(max(0, actual.timeIntervalSince(scheduled)))) }
        case "missed":
            if let scheduled, let actual { notes.append(Lf("due %s ago", EventText.durationText(max(0, actual.timeIntervalSince(scheduled)), in: userLanguage))) }
        case "snoozed" where event.string(E.detail).isEmpty:
            notes.append(Lf("snooze %d", event.int(E.snoozeCount)))
        default:
            break
        }
        if !event.string(E.detail).isEmpty { notes.append(oneLine(detailText(event.string(E.detail)))) }
        var line = "\(time.seconds(event.optionalString(E.actual)))  \(eventName(event.string(E.kind)).padding(toLength: 9))  \(shortID(event.string(E.id)))  \(subject)"
        if !notes.isEmpty { line += "  " + Lf("(%s)", notes.joined(separator: L("; "))) }
        return line
    }
}

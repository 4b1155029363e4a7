// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// The short notes a toast shows after an action, with the button some
/// offer (Undo).
public struct ToastText: Equatable, Sendable {
    public let title: String
    /// The button's label (`Undo`), when the toast has one.
    public let buttonLabel: String?

    public init(title: String, buttonLabel: String? = nil) {
        self.title = title
        self.buttonLabel = buttonLabel
    }

    /// After saving an alarm: `Alarm set for 8 h 5 min from now`; for a
    /// switched-off alarm or one that will not ring, what it is.
    public static func alarmSaved(_ item: AlarmItem, now: Date, language l: some Localization) -> ToastText {
        guard item.enabled else { return ToastText(title: l.L("Alarm saved, switched off")) }
        guard let next = item.next else { return ToastText(title: l.L("Alarm saved; it will not ring again")) }
        return ToastText(title: l.Lf("Alarm set for %s from now", DurationText.text(next.timeIntervalSince(now), in: l)))
    }

    /// After switching an alarm on or off from its row.
    public static func alarmSwitched(_ item: AlarmItem, now: Date, language l: some Localization) -> ToastText {
        item.enabled ? alarmSaved(item, now: now, language: l) : ToastText(title: l.Lf("“%s” switched off", item.label))
    }

    /// After a delete: `Deleted “Work”`, with Undo.
    public static func deleted(title: String, language l: some Localization) -> ToastText {
        ToastText(title: l.Lf("Deleted “%s”", title), buttonLabel: l.L("Undo"))
    }

    /// After Skip next / Unskip.
    public static func skipped(_ item: AlarmItem, now: Date, zone: Zone, language l: some Localization) -> ToastText {
        guard item.skipNext else { return ToastText(title: l.Lf("“%s” will ring as usual", item.label)) }
        let days = DayText(now: now, zone: zone)
        // The daemon's `next` is already the ring after the skipped one (as
        // in ``NextRingPhrase``): the skipped one is the rule's next from now.
        let skipped = item.estimatedNext(after: now, systemZone: zone) ?? item.next
        let when = skipped.map { days.weekdayOrDate(days.day(of: $0), in: l) }
        return ToastText(title: when.map { l.Lf("“%1$s” will not ring on %2$s", item.label, $0) } ?? l.Lf("“%s” will skip its next ring", item.label))
    }

    /// After a snooze: `Snoozed until 07:39`.
    public static func snoozed(until: Date, now: Date, zone: Zone, language l: some Localization) -> ToastText {
        ToastText(title: l.Lf("Snoozed until %s", DayText(now: now, zone: zone).clock(until, in: l)))
    }

    /// After marking a to-do done: `“Buy milk” done`, with Undo; a repeating
    /// one says when it is due again.
    public static func completed(_ item: ReminderItem, now: Date, zone: Zone, language l: some Localization) -> ToastText {
        if !item.done, let due = item.due, item.rule != nil {
            return ToastText(title: l.Lf("“%1$s” done; next due %2$s", item.title, DayText(now: now, zone: zone).clock(due, in: l)), buttonLabel: l.L("Undo"))
        }
        return ToastText(title: l.Lf("“%s” done", item.title), buttonLabel: l.L("Undo"))
    }

    /// After starting a timer: `Timer set for 5 min`.
    public static func timerStarted(seconds: Int, language l: some Localization) -> ToastText {
        ToastText(title: l.Lf("Timer set for %s", TimerRow.remainingText(seconds)))
    }

    /// After a timer's Pause, Resume or more time: `“Tea” paused, 4:59
    /// left`, `“Tea” goes on, 4:59 left`, `“Tea”: 5:59 left`.
    public static func timerChanged(_ change: TimerChange, _ row: TimerRow, language l: some Localization) -> ToastText {
        switch change {
        case .pause: ToastText(title: l.Lf("“%1$s” paused, %2$s left", row.title, row.remainingText))
        case .resume: ToastText(title: l.Lf("“%1$s” goes on, %2$s left", row.title, row.remainingText))
        case .add: ToastText(title: l.Lf("“%1$s”: %2$s left", row.title, row.remainingText))
        }
    }

    /// A timer's Pause, Resume or more time that does not apply to it now.
    public static func timerRefused(_ refusal: TimerChange.Refusal, title: String, language l: some Localization) -> ToastText {
        switch refusal {
        case .ringing: ToastText(title: l.Lf("“%s” is ringing: stop or snooze it", title))
        case .snoozed: ToastText(title: l.Lf("“%s” is snoozed: it rings again when the snooze ends", title))
        case .pausedAlready: ToastText(title: l.Lf("“%s” is paused already", title))
        case .notPaused: ToastText(title: l.Lf("“%s” is not paused", title))
        }
    }

    /// A call that failed, as a toast (a field's refusal goes next to the field).
    public static func failed(_ failure: DaemonFailure, language l: some Localization) -> ToastText {
        ToastText(title: failure.text(in: l))
    }
}

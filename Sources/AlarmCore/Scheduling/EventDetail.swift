// SPDX-License-Identifier: Apache-2.0
/// The details alarmd writes with an event (history, journal, `Watch`), in
/// English as stored: each is made from one of these templates, so a client
/// can say it again in the reader's language (`MessageFormat.match`).
/// Instants in them are RFC 3339 UTC, which a client shows in local time.
public enum EventDetail {
    public static let added = N_("added")
    public static let removed = N_("removed")
    public static let edited = N_("edited")
    public static let rescheduledByEdit = N_("rescheduled by an edit")
    public static let switchedOffByEdit = N_("switched off by an edit")
    public static let dismissed = N_("dismissed")
    public static let movedTo = N_("moved to %s")
    public static let afterSnooze = N_("after snooze %s")
    public static let snoozeOf = N_("snooze %1$s of %2$s, rings again at %3$s")
    public static let snooze = N_("snooze %1$s, rings again at %2$s")
    public static let nextDue = N_("next due %s")
    public static let snoozedUntil = N_("snoozed until %s")
    public static let unanswered = N_("ringing unanswered for %s")
    public static let missedFrom = N_("occurrences from %s were missed")
    public static let missedWhileStopped = N_("snoozed alarm was due while alarmd was not running")

    /// Every template, the longer of two that share a start first.
    public static let templates = [added, removed, edited, rescheduledByEdit, switchedOffByEdit, dismissed, movedTo, afterSnooze, snoozeOf, snooze,
                                   nextDue, snoozedUntil, unanswered, missedFrom, missedWhileStopped]

    /// A detail from its template and arguments.
    public static func text(_ template: String, _ arguments: any CustomStringConvertible...) -> String {
        MessageFormat.fill(template, arguments.map(\.description))
    }
}

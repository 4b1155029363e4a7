// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// What alarmd says before an alarm rings: the upcoming notice
/// (`[Alarms] UpcomingNotice=`, "Alarm at 07:30 — Work" with Dismiss now) and
/// the check, ten minutes ahead, that the alarm will be heard; and before a
/// reminder is due, its advance notices (`remind add --before`). Pure: the
/// daemon gives it the next firings, the time and what it has said already,
/// and arms a timer for what it returns.
public enum NoticePlan {
    public enum Kind: String, Hashable, Sendable {
        case upcoming
        case audibility
        /// A reminder's advance notice, `before` seconds ahead.
        case advance
    }

    /// One notice for one occurrence of one alarm, due `at`.
    public struct Notice: Hashable, Sendable {
        public let kind: Kind
        public let id: UUID
        public let occurrence: Date
        public let at: Date
    }

    /// How long before an occurrence its audibility is checked: time enough
    /// to unmute, plug the speakers back in, or charge the laptop.
    public static let audibilityLead: TimeInterval = 600
    /// How late a notice may still come (a timer that fired late, a resume):
    /// later than that, it would only report the past. An alarm set for
    /// twenty minutes from now gets no "upcoming" notice thirty minutes before.
    public static let grace: TimeInterval = 60
    /// How many of the next alarm firings are looked at: several alarms
    /// within the notice's lead each get theirs.
    public static let horizon = 8

    /// The notices for `firings` (each alarm's next occurrence) that are due
    /// now, and when the next one is. A notice is due from its instant until
    /// `grace` after it, and only before its occurrence and once: `given`
    /// holds those already given.
    ///
    /// `reminders` are reminders' next due times with their advance notices'
    /// leads in seconds, each a notice of kind `advance`.
    public static func plan(firings: [(id: UUID, at: Date)], reminders: [(id: UUID, at: Date, before: [Int])] = [], now: Date,
                            upcomingLead: TimeInterval, given: Set<Notice>) -> (due: [Notice], next: Date?) {
        var due: [Notice] = []
        var next: Date?
        var alarmLeads: [(Kind, TimeInterval)] = [(.audibility, audibilityLead)]
        if upcomingLead > 0 { alarmLeads.append((.upcoming, upcomingLead)) }
        let entries = firings.map { ($0.id, $0.at, alarmLeads) }
            + reminders.map { reminder in (reminder.id, reminder.at, reminder.before.map { (Kind.advance, TimeInterval($0)) }) }
        for (id, at, leads) in entries where at > now {
            for (kind, lead) in leads {
                let notice = Notice(kind: kind, id: id, occurrence: at, at: at.addingTimeInterval(-lead))
                guard !given.contains(notice) else { continue }
                if notice.at <= now {
                    if now.timeIntervalSince(notice.at) <= grace { due.append(notice) }
                } else if next.map({ notice.at < $0 }) ?? true {
                    next = notice.at
                }
            }
        }
        return (due.sorted { $0.at < $1.at }, next)
    }

    /// `given` without the notices of occurrences that have passed, so it
    /// stays as small as the plan.
    public static func pruned(_ given: Set<Notice>, now: Date) -> Set<Notice> {
        given.filter { $0.occurrence > now }
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// The full-window view of an item ringing: its title, the time, Stop, and
/// Snooze with its choices.
public struct RingingModel: Equatable, Sendable {
    /// One way to snooze: for the item's own minutes (`minutes` `nil` for a
    /// reminder, whose length is the daemon's configuration) or for others.
    public struct SnoozeChoice: Equatable, Sendable {
        public let minutes: Int?
        /// `9 min`; `Snooze` for a reminder's own.
        public let text: String
    }

    /// The extra lengths offered beside the item's own.
    public static let otherMinutes = [5, 10, 15]

    public let id: String
    /// The alarm's label or the reminder's title.
    public let title: String
    /// The alarm's time of day, or the reminder's due time, in the locale's clock.
    public let timeText: String
    /// Whether Snooze is offered (an alarm's snooze on and under its limit).
    public let snoozeAllowed: Bool
    /// The item's own length first, then the others; empty when snoozing is not allowed.
    public let snoozeChoices: [SnoozeChoice]
    /// The buttons' labels and accessible names.
    public let stopLabel: String
    public let snoozeLabel: String
    /// `1 more ringing` when other items ring too (each shows once this one
    /// is stopped or snoozed); `nil` when it rings alone.
    public private(set) var othersText: String?

    /// What the ringing view shows of everything ringing: the item with id
    /// `shown` while it still rings (what Stop and Snooze act on does not
    /// change under the hand about to press them), else the first alarm,
    /// else the reminder or timer due first; saying how many others ring.
    public static func first(alarms: [AlarmItem], reminders: [ReminderItem], keeping shown: String? = nil, now: Date, zone: Zone,
                             language l: some Localization) -> RingingModel? {
        let ringingAlarms = alarms.filter { $0.phase == .ringing }
        let ringingReminders = reminders.filter { $0.phase == .ringing }
        var model: RingingModel
        if let shown, let alarm = ringingAlarms.first(where: { $0.id == shown }) {
            model = RingingModel(alarm: alarm, language: l)
        } else if let shown, let reminder = ringingReminders.first(where: { $0.id == shown }) {
            model = RingingModel(reminder: reminder, now: now, zone: zone, language: l)
        } else if let alarm = ringingAlarms.first {
            model = RingingModel(alarm: alarm, language: l)
        } else if let reminder = ringingReminders.min(by: { ($0.due ?? .distantPast) < ($1.due ?? .distantPast) }) {
            model = RingingModel(reminder: reminder, now: now, zone: zone, language: l)
        } else {
            return nil
        }
        let others = ringingAlarms.count + ringingReminders.count - 1
        if others > 0 { model.othersText = l.Ln("%d more ringing", "%d more ringing", others) }
        return model
    }

    public init(alarm: AlarmItem, language l: some Localization) {
        id = alarm.id
        title = alarm.label
        timeText = l.time(alarm.time)
        snoozeAllowed = alarm.snooze.allowsSnooze(after: alarm.snoozeCount)
        let own = alarm.snooze.minutes
        snoozeChoices = snoozeAllowed
            ? ([own] + Self.otherMinutes.filter { $0 != own }).map { SnoozeChoice(minutes: $0, text: l.Lf("%d min", $0)) }
            : []
        stopLabel = l.L("Stop")
        snoozeLabel = l.L("Snooze")
    }

    /// A ringing reminder or timer; its due time in `zone`, else now's.
    public init(reminder: ReminderItem, now: Date, zone: Zone, language l: some Localization) {
        id = reminder.id
        title = reminder.title
        timeText = l.time(of: zone.rules.localDateTime(at: (reminder.due ?? now).epochSecondsFloor))
        snoozeAllowed = true
        snoozeChoices = [SnoozeChoice(minutes: nil, text: l.L("Snooze"))] + Self.otherMinutes.map { SnoozeChoice(minutes: $0, text: l.Lf("%d min", $0)) }
        stopLabel = l.L("Stop")
        snoozeLabel = l.L("Snooze")
    }

    /// Stop: `Dismiss` of this item.
    public var stopRequest: Dismiss.Request { Dismiss.Request(id: id) }

    /// Snooze for `minutes` (`nil`: the item's own length).
    public func snoozeRequest(minutes: Int? = nil) -> Snooze.Request { Snooze.Request(id: id, minutes: minutes) }
}

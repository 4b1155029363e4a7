// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// A reminder (a to-do, or a timer) as the daemon describes it
/// (`Reminder` in io.alarmd.varlink), typed.
public struct ReminderItem: Equatable, Sendable, Identifiable {
    /// The full UUID, lowercase.
    public var id: String
    public var title: String
    public var notes: String
    /// When it is due (a repeating one's current occurrence); `nil` for none.
    public var due: Date?
    /// Due on a day rather than at a time.
    public var allDay: Bool
    public var rule: RecurrenceRule?
    /// Seconds before the due time of its advance notices.
    public var before: [Int]
    /// Its own sound; `nil` follows the configuration.
    public var sound: String?
    /// A countdown: it rings like an alarm and is over once it stops ringing.
    public var isTimer: Bool
    /// Seconds left on a paused timer; `nil` while it runs.
    public var timerLeft: Int?
    public var done: Bool
    /// Place in the list, 0-based and dense.
    public var position: Int
    public var imagePath: String?
    public var phase: ItemPhase
    /// When it next needs attention; `nil` when it will not ring.
    public var next: Date?
    public var snoozeCount: Int
    /// Whether `phase`, `next` and `snoozeCount` came from the daemon.
    public var hasLiveState: Bool

    /// A reminder from its parts.
    public init(id: String, title: String, notes: String = "", due: Date? = nil, allDay: Bool = false, rule: RecurrenceRule? = nil,
                before: [Int] = [], sound: String? = nil, isTimer: Bool = false, done: Bool = false, position: Int = 0,
                imagePath: String? = nil, phase: ItemPhase = .waiting, next: Date? = nil, snoozeCount: Int = 0, hasLiveState: Bool = true) {
        self.id = id
        self.title = title
        self.notes = notes
        self.due = due
        self.allDay = allDay
        self.rule = rule
        self.before = before
        self.sound = sound
        self.isTimer = isTimer
        self.done = done
        self.position = position
        self.imagePath = imagePath
        self.phase = phase
        self.next = next
        self.snoozeCount = snoozeCount
        self.hasLiveState = hasLiveState
    }

    /// Reads a wire `Reminder`. Throws naming the first member that is
    /// missing, of the wrong type, or not a valid value; never traps.
    public init(wire object: JSONObject) throws(ItemDecodingError) {
        typealias W = Wire.Reminder
        let reader = WireReader(object)
        id = try reader.id(W.id)
        title = try reader.string(W.title)
        notes = try reader.optionalString(W.notes) ?? ""
        due = try reader.optionalInstant(W.due)
        allDay = try reader.optionalBool(W.allDay) ?? false
        rule = try reader.rule(W.rule)
        before = try reader.ints(W.before) ?? []
        sound = try reader.optionalString(W.sound)
        isTimer = try reader.optionalBool(W.timer) ?? false
        timerLeft = try reader.optionalInt(W.timerLeft)
        done = try reader.bool(W.done)
        position = try reader.int(W.position)
        guard position >= 0 else { throw reader.fail(W.position, .invalid("negative: \(position)")) }
        imagePath = try reader.optionalString(W.imagePath)
        let livePhase = try reader.phase(W.phase)
        phase = livePhase ?? .waiting
        next = try reader.optionalInstant(W.next)
        snoozeCount = try reader.optionalInt(W.snoozeCount) ?? 0
        hasLiveState = livePhase != nil
    }

    /// Overdue: not done, neither ringing nor snoozed, and past its due
    /// time, or for an all-day one, past its day in `zone` (a task due
    /// today is not late until the day is over). alarmctl, the app and the
    /// terminal interface say it by this one rule.
    public static func isOverdue(due: Date?, allDay: Bool, done: Bool, phase: ItemPhase, now: Date, zone: Zone) -> Bool {
        guard let due, !done, phase == .waiting else { return false }
        guard allDay else { return due < now }
        return zone.rules.localDay(at: due.epochSecondsFloor) < zone.rules.localDay(at: now.epochSecondsFloor)
    }

    /// The repeat in the rule's own words; `nil` when it does not repeat.
    public func repeatText(in l: some Localization) -> String? { rule?.text(in: l) }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// A to-do item with an optional due instant, kept in a manual order.
public struct Reminder: Identifiable, Hashable, Sendable {
    public let id: UUID
    public var title: String
    public var notes: String
    /// An absolute instant; a reminder does not move with the time zone.
    public var due: Date?
    public var done: Bool
    /// 0-based place in the list; the store keeps positions dense.
    public var position: Int
    /// Absolute path of an image shown with the notification.
    public var imagePath: String?
    /// A command run when the reminder fires (an argument vector); empty for none.
    public var command: [String]
    /// Due on a day rather than at a time (`--on`): `due` is that day at
    /// `[Reminders] AllDayAt=`, and lists show the day alone.
    public var allDay: Bool
    /// The rarely set fields, boxed (see ``Box``).
    private var extras: Box<Extras>?

    private struct Extras: Hashable, Sendable {
        var recurrence: RecurrenceRule?
        var before: [Int] = []
        var sound: Sound?
        var isTimer = false
        var timerLeft: Int?
    }

    private mutating func setExtras(_ change: (inout Extras) -> Void) {
        extras = Box.changing(extras, empty: Extras(), change)
    }

    /// Comes back: marking it done makes the rule's next occurrence due
    /// (``nextDue(after:in:)``), until the rule ends.
    public var recurrence: RecurrenceRule? {
        get { extras?.value.recurrence }
        set { setExtras { $0.recurrence = newValue } }
    }
    /// Advance notices, seconds before the due time (ascending): a quiet
    /// notification that long before each occurrence.
    public var before: [Int] {
        get { extras?.value.before ?? [] }
        set { setExtras { $0.before = newValue } }
    }

    /// Its own sound; `nil` follows `[Sound] ReminderSound=` (a timer's,
    /// `AlarmSound=`).
    public var sound: Sound? {
        get { extras?.value.sound }
        set { setExtras { $0.sound = newValue } }
    }
    /// A countdown (`alarmctl timer 25m`): it rings like an alarm and is
    /// over (done, and out of every list) once it stops ringing.
    public var isTimer: Bool {
        get { extras?.value.isTimer ?? false }
        set { setExtras { $0.isTimer = newValue } }
    }
    /// Seconds left on a paused timer (`alarmctl timer pause`); its ``due``
    /// is `nil` meanwhile, so it does not ring. `nil` for a timer that runs
    /// and for every other reminder.
    public var timerLeft: Int? {
        get { extras?.value.timerLeft }
        set { setExtras { $0.timerLeft = newValue } }
    }
    /// The longest a paused timer may have left: the longest duration.
    public static let timerLeftRange = 1...Int(DurationParser.maxDays * 86_400)

    public static let maxBefore = 8
    /// Up to 28 days ahead.
    public static let beforeRange = 1...(28 * 86_400)

    public var created: Date
    public var updated: Date

    /// Without an `id`, a new one stamped with `created` (`UUID(madeAt:)`).
    public init(
        id: UUID? = nil,
        title: String,
        notes: String = "",
        due: Date? = nil,
        done: Bool = false,
        position: Int = 0,
        imagePath: String? = nil,
        command: [String] = [],
        allDay: Bool = false,
        recurrence: RecurrenceRule? = nil,
        before: [Int] = [],
        sound: Sound? = nil,
        isTimer: Bool = false,
        created: Date,
        updated: Date? = nil
    ) {
        self.id = id ?? UUID(madeAt: created)
        self.title = title
        self.notes = notes
        self.due = due
        self.done = done
        self.position = position
        self.imagePath = imagePath
        self.command = command
        self.allDay = allDay
        self.created = created
        self.updated = updated ?? created
        let extras = Extras(recurrence: recurrence, before: before, sound: sound, isTimer: isTimer)
        if extras != Extras() { self.extras = Box(extras) }
    }

    public func validate() throws(ValidationError) {
        try TextRules.title.check(title, field: "title")
        try TextRules.notes.check(notes, field: "notes")
        if let imagePath {
            guard imagePath.hasPrefix("/"), imagePath.utf8.count <= 4096,
                  !imagePath.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw .text("imagePath", N_("must be an absolute file path"), got: imagePath) }
        }
        try CommandRules.check(command)
        if let recurrence {
            try recurrence.validate()
            guard due != nil else {
                throw ValidationError(field: "due", requirement: N_("must be set for a reminder that repeats"), value: "none")
            }
        }
        try sound?.validate()
        if isTimer, recurrence != nil {
            throw ValidationError(field: "rule", requirement: N_("cannot be given to a timer"), value: recurrence!.displayText)
        }
        if let timerLeft {
            guard isTimer else { throw ValidationError(field: "timerLeft", requirement: N_("is only for a timer"), value: String(timerLeft)) }
            guard Self.timerLeftRange.contains(timerLeft) else {
                throw ValidationError(field: "timerLeft", requirement: N_("must be 1 s to 100 years"), value: String(timerLeft))
            }
            guard due == nil else { throw ValidationError(field: "due", requirement: N_("must not be set while a timer is paused"), value: "set") }
        }
        guard before.count <= Self.maxBefore else {
            throw ValidationError(field: "before", requirement: ValidationError.with(ValidationError.atMostNotices, Self.maxBefore), value: String(before.count))
        }
        for seconds in before where !Self.beforeRange.contains(seconds) {
            throw ValidationError(field: "before", requirement: N_("must be 1 s to 28 days before the due time"), value: String(seconds))
        }
        guard position >= 0 else {
            throw ValidationError(field: "position", requirement: N_("must be 0 or more"), value: String(position))
        }
    }
}

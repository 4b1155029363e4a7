// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// A repeating or one-shot alarm at a local time of day.
public struct Alarm: Identifiable, Hashable, Sendable {
    /// English, as stored; a new alarm gets it in the language of whoever
    /// makes it (the daemon's `LANG`, or alarmctl's), and stored labels are
    /// never translated.
    public static let defaultLabel = N_("Alarm")
    /// Auto-silence bounds, seconds.
    public static let ringSecondsRange = 1...3600
    public static let defaultRingSeconds = 300

    // Stored properties are ordered so the small ones pack into the padding
    // after `sound`: a daemon keeps a million alarms in memory.
    public let id: UUID
    public var label: String
    public var sound: Sound
    public var time: TimeOfDay
    /// Empty for a one-shot alarm.
    public var days: RepeatDays
    public var enabled: Bool
    /// Pass over the next occurrence silently, then clear.
    public var skipNext: Bool
    public var snooze: SnoozeSettings
    private var storedRingSeconds: Int32
    /// Seconds of ringing before the alarm silences itself.
    public var ringSeconds: Int {
        get { Int(storedRingSeconds) }
        set { storedRingSeconds = Int32(clamping: newValue) }
    }
    // Int16 with a sentinel rather than Int?: two bytes each instead of nine.
    // Values beyond Int16 saturate and still fail validation, like the snooze
    // settings'.
    private var storedVolume: Int16
    private var storedFade: Int16
    private static let unset = Int16.min
    /// The stream volume, 1–100 %; `nil` follows `[Sound] Volume=`, so changing
    /// the configuration changes every alarm that was not given its own.
    public var volume: Int? {
        get { storedVolume == Self.unset ? nil : Int(storedVolume) }
        set { storedVolume = newValue.map { Int16(clamping: max($0, Int(Self.unset) + 1)) } ?? Self.unset }
    }
    /// Seconds from silence to ``volume``, 0–300 (0: full volume at once);
    /// `nil` follows `[Sound] Fade=`.
    public var fadeSeconds: Int? {
        get { storedFade == Self.unset ? nil : Int(storedFade) }
        set { storedFade = newValue.map { Int16(clamping: max($0, Int(Self.unset) + 1)) } ?? Self.unset }
    }
    /// `nil` is a floating alarm that follows the system zone, like a phone alarm;
    /// a pinned alarm keeps ringing at its time in this zone wherever the machine is.
    public var timeZone: Zone?
    /// The fields few alarms set — commands, a calendar rule, a pause,
    /// holiday skipping — in one box (see ``Box``): `nil`, eight bytes, for
    /// the plain alarms a daemon keeps a million of. (It took the place of
    /// the one array both commands shared, so an alarm is no bigger for the
    /// calendar fields.)
    private var rare: Box<RareFields>?

    private struct RareFields: Hashable, Sendable {
        var command: [String] = []
        var escalateCommand: [String] = []
        var recurrence: RecurrenceRule?
        var pausedUntil: Int64?
        var skipHolidays = false
    }

    private mutating func setRare(_ change: (inout RareFields) -> Void) {
        rare = Box.changing(rare, empty: RareFields(), change)
    }

    /// A command run when the alarm fires (an argument vector, never a shell);
    /// empty for none.
    public var command: [String] {
        get { rare?.value.command ?? [] }
        set { setRare { $0.command = newValue } }
    }
    /// A command run when the alarm escalates (`[Alarms] EscalateAfter=`),
    /// such as a push message to a phone; empty for none.
    public var escalateCommand: [String] {
        get { rare?.value.escalateCommand ?? [] }
        set { setRare { $0.escalateCommand = newValue } }
    }
    /// A calendar rule (dated, every N days or weeks, monthly, yearly, with
    /// an end and exceptions); `nil` when ``days`` says it all. An alarm has
    /// one or the other: a rule's weekdays are in its `byDay`.
    public var recurrence: RecurrenceRule? {
        get { rare?.value.recurrence }
        set { setRare { $0.recurrence = newValue } }
    }
    /// Occurrences on days before this one (a day number) pass silently: a
    /// holiday trip. The alarm rings again on the day itself.
    public var pausedUntil: Int64? {
        get { rare?.value.pausedUntil }
        set { setRare { $0.pausedUntil = newValue } }
    }
    /// Pass over days that `[Alarms] Holidays=` lists.
    public var skipHolidays: Bool {
        get { rare?.value.skipHolidays ?? false }
        set { setRare { $0.skipHolidays = newValue } }
    }

    public var created: Date
    public var updated: Date

    /// Without an `id`, a new one stamped with `created` (`UUID(madeAt:)`).
    public init(
        id: UUID? = nil,
        time: TimeOfDay,
        days: RepeatDays = .never,
        label: String = Alarm.defaultLabel,
        sound: Sound = .defaultAlarm,
        snooze: SnoozeSettings = .default,
        ringSeconds: Int = Alarm.defaultRingSeconds,
        volume: Int? = nil,
        fadeSeconds: Int? = nil,
        enabled: Bool = true,
        skipNext: Bool = false,
        timeZone: Zone? = nil,
        command: [String] = [],
        escalateCommand: [String] = [],
        recurrence: RecurrenceRule? = nil,
        pausedUntil: Int64? = nil,
        skipHolidays: Bool = false,
        created: Date,
        updated: Date? = nil
    ) {
        self.id = id ?? UUID(madeAt: created)
        self.time = time
        self.days = days
        self.label = label
        self.sound = sound
        self.snooze = snooze
        storedRingSeconds = Int32(clamping: ringSeconds)
        storedVolume = Self.unset
        storedFade = Self.unset
        self.enabled = enabled
        self.skipNext = skipNext
        self.timeZone = timeZone
        self.created = created
        self.updated = updated ?? created
        self.volume = volume
        self.fadeSeconds = fadeSeconds
        let rare = RareFields(command: command, escalateCommand: escalateCommand, recurrence: recurrence, pausedUntil: pausedUntil,
                              skipHolidays: skipHolidays)
        if rare != RareFields() { self.rare = Box(rare) }
    }

    /// `true` when the alarm rings once, at the next occurrence of its time:
    /// no repeat days and no rule. (A dated alarm has a rule: it rings once,
    /// on its day.)
    public var isOneShot: Bool { days.isEmpty && recurrence == nil }

    /// How it repeats, in words: `Weekdays`, `Every 2 weeks on Mon, Thu`,
    /// `Once on Thu, Dec 24`; `Never` for a one-shot alarm.
    public var repeatText: String { recurrence?.displayText ?? days.displayText }

    /// The list line of a phone's alarm screen: `Work, Weekdays`, or just the label
    /// for a one-shot alarm.
    public var listLine: String { isOneShot ? label : "\(label), \(repeatText)" }

    /// Whether `other` is this alarm again: the same time, repeat and label
    /// (in any case). Days are the weekly rule they are, however given
    /// (`--days daily` and a daily alarm with a day skipped, which is kept
    /// as a rule). A repeat's first day and the days it skips do not tell two
    /// alarms apart, since both ring on the same days from now on, but for
    /// those; a one-off's day does.
    public func isTwin(of other: Alarm) -> Bool {
        time == other.time && Item.folded(label) == Item.folded(other.label) && ringingDays == other.ringingDays
    }

    /// What twins share (``isTwin(of:)``), hashed: the time, the folded label
    /// and the repeat as one rule. In this process only (``Hasher`` is seeded).
    public var twinHash: Int {
        var hasher = Hasher()
        hasher.combine(time)
        hasher.combine(Item.folded(label))
        hasher.combine(ringingDays)
        return hasher.finalize()
    }

    /// Whether `other` has this alarm's ``twinHash`` for certain, told
    /// without folding a label: the same time, label and repeat, as given.
    /// (Most changes of an alarm, a switch or a ring, leave all three.)
    public func hasSameTwinFields(as other: Alarm) -> Bool {
        time == other.time && label == other.label && days == other.days && recurrence == other.recurrence
    }

    /// The repeat as one rule, without its first day or the days it skips;
    /// a one-off's own; `nil` for a one-off at its next time.
    private var ringingDays: RecurrenceRule? {
        guard var rule = recurrence ?? (days.isEmpty ? nil : .weekly(on: days, start: 0)) else { return nil }
        guard rule.end != .count(1) else { return rule }
        rule.start = 0
        rule.exceptions = []
        return rule
    }

    /// Checks every field; the first problem found is thrown.
    public func validate() throws(ValidationError) {
        try TextRules.label.check(label, field: "label")
        try snooze.validate()
        guard Self.ringSecondsRange.contains(ringSeconds) else {
            throw ValidationError(field: "ringSeconds", requirement: N_("must be 1–3600"), value: String(ringSeconds))
        }
        if let volume, !SoundLevel.volumeRange.contains(volume) {
            throw ValidationError(field: "volume", requirement: N_("must be 1–100 (percent)"), value: String(volume))
        }
        if let fadeSeconds, !SoundLevel.fadeSecondsRange.contains(fadeSeconds) {
            throw ValidationError(field: "fadeSeconds", requirement: N_("must be 0–300 (seconds)"), value: String(fadeSeconds))
        }
        if let recurrence {
            try recurrence.validate()
            guard days.isEmpty else {
                throw ValidationError(field: "days", requirement: N_("cannot be combined with a rule (a rule names its weekdays in byDay)"),
                                      value: days.codes.joined(separator: ","))
            }
        }
        try CommandRules.check(command)
        try CommandRules.check(escalateCommand, field: "escalateCommand")
        // A hand-built `Sound` (say `.themed("-x")`) must obey the same rules as a parsed one.
        try sound.validate()
    }
}

import FoundationEssentials

/// A repeating or one-shot alarm at a local time of day.
public struct Alarm: Identifiable, Hashable, Sendable {
    public static let defaultLabel = "Alarm"
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
    /// Both commands in one array — `command`, then a NUL and `escalateCommand`
    /// when there is one — so that a million alarms pay for one array, not
    /// two. No argument can contain a NUL (``CommandRules``), so it cannot be
    /// mistaken for one.
    private var commandWords: [String]
    private static let commandSeparator = "\0"

    /// A command run when the alarm fires (an argument vector, never a shell);
    /// empty for none.
    public var command: [String] {
        get { commandWords.firstIndex(of: Self.commandSeparator).map { Array(commandWords[..<$0]) } ?? commandWords }
        set { commandWords = Self.joined(newValue, escalateCommand) }
    }
    /// A command run when the alarm escalates (`[Alarms] EscalateAfter=`),
    /// such as a push message to a phone; empty for none.
    public var escalateCommand: [String] {
        get { commandWords.firstIndex(of: Self.commandSeparator).map { Array(commandWords[($0 + 1)...]) } ?? [] }
        set { commandWords = Self.joined(command, newValue) }
    }

    private static func joined(_ command: [String], _ escalate: [String]) -> [String] {
        escalate.isEmpty ? command : command + [commandSeparator] + escalate
    }
    public var created: Date
    public var updated: Date

    public init(
        id: UUID = UUID(),
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
        created: Date,
        updated: Date? = nil
    ) {
        self.id = id
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
        commandWords = Self.joined(command, escalateCommand)
        self.created = created
        self.updated = updated ?? created
        self.volume = volume
        self.fadeSeconds = fadeSeconds
    }

    /// `true` when the alarm has no repeat days.
    public var isOneShot: Bool { days.isEmpty }

    /// The list line of a phone's alarm screen: `Work, Weekdays`, or just the label
    /// for a one-shot alarm.
    public var listLine: String { isOneShot ? label : "\(label), \(days.displayText)" }

    /// Checks every field; the first problem found is thrown.
    public func validate() throws(ValidationError) {
        try TextRules.label.check(label, field: "label")
        try snooze.validate()
        guard Self.ringSecondsRange.contains(ringSeconds) else {
            throw ValidationError(field: "ringSeconds", requirement: "must be 1–3600", value: String(ringSeconds))
        }
        if let volume, !SoundLevel.volumeRange.contains(volume) {
            throw ValidationError(field: "volume", requirement: "must be 1–100 (percent)", value: String(volume))
        }
        if let fadeSeconds, !SoundLevel.fadeSecondsRange.contains(fadeSeconds) {
            throw ValidationError(field: "fadeSeconds", requirement: "must be 0–300 (seconds)", value: String(fadeSeconds))
        }
        try CommandRules.check(command)
        try CommandRules.check(escalateCommand, field: "escalateCommand")
        // A hand-built `Sound` (say `.themed("-x")`) must obey the same rules as a parsed one.
        try sound.validate()
    }
}

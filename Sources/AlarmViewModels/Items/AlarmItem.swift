// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// An alarm as the daemon describes it (`Alarm` in io.alarmd.varlink),
/// typed: what rows and forms are made from.
public struct AlarmItem: Equatable, Sendable, Identifiable {
    /// The full UUID, lowercase.
    public var id: String
    public var time: TimeOfDay
    /// The weekdays it repeats on; empty for a one-shot alarm or one with a rule.
    public var days: RepeatDays
    /// A calendar rule, when the repeat is more than weekdays.
    public var rule: RecurrenceRule?
    public var label: String
    /// A sound-theme name, an absolute path, or `none`.
    public var sound: String
    public var snooze: SnoozeSettings
    public var ringSeconds: Int
    /// 1–100 %; `nil` follows `[Sound] Volume=`.
    public var volume: Int?
    /// 0–300 s; `nil` follows `[Sound] Fade=`.
    public var fadeSeconds: Int?
    public var enabled: Bool
    public var skipNext: Bool
    /// Occurrences on days before this day number pass silently.
    public var pausedUntil: Int64?
    public var skipHolidays: Bool
    /// The zone it is pinned to; `nil` follows the system's.
    public var timeZone: String?
    public var phase: ItemPhase
    /// When it next needs attention: it rings, stops ringing, or a snooze
    /// ends; `nil` when it will not.
    public var next: Date?
    /// Snoozes taken for the occurrence ringing or snoozed now.
    public var snoozeCount: Int
    /// Whether `phase`, `next` and `snoozeCount` came from the daemon. An
    /// event's copy of an item has no live state: ``AlarmList`` then keeps
    /// or guesses it until the app asks `GetAlarm`.
    public var hasLiveState: Bool

    /// An alarm from its parts; what is not given takes the daemon's defaults.
    public init(id: String, time: TimeOfDay, days: RepeatDays = .never, rule: RecurrenceRule? = nil, label: String = Alarm.defaultLabel,
                sound: String = Sound.defaultAlarm.description, snooze: SnoozeSettings = .default, ringSeconds: Int = Alarm.defaultRingSeconds,
                volume: Int? = nil, fadeSeconds: Int? = nil, enabled: Bool = true, skipNext: Bool = false, pausedUntil: Int64? = nil,
                skipHolidays: Bool = false, timeZone: String? = nil, phase: ItemPhase = .waiting, next: Date? = nil, snoozeCount: Int = 0,
                hasLiveState: Bool = true) {
        self.id = id
        self.time = time
        self.days = days
        self.rule = rule
        self.label = label
        self.sound = sound
        self.snooze = snooze
        self.ringSeconds = ringSeconds
        self.volume = volume
        self.fadeSeconds = fadeSeconds
        self.enabled = enabled
        self.skipNext = skipNext
        self.pausedUntil = pausedUntil
        self.skipHolidays = skipHolidays
        self.timeZone = timeZone
        self.phase = phase
        self.next = next
        self.snoozeCount = snoozeCount
        self.hasLiveState = hasLiveState
    }

    /// Reads a wire `Alarm`. Throws naming the first member that is missing,
    /// of the wrong type, or not a valid value; never traps.
    public init(wire object: JSONObject) throws(ItemDecodingError) {
        typealias W = Wire.Alarm
        let reader = WireReader(object)
        id = try reader.id(W.id)
        let timeText = try reader.string(W.time)
        do throws(ValidationError) { time = try TimeOfDay.parse(timeText) } catch {
            throw reader.fail(W.time, .invalid(error.description))
        }
        let codes = try reader.strings(W.days) ?? []
        do throws(ValidationError) { days = try RepeatDays.fromCodes(codes) } catch {
            throw reader.fail(W.days, .invalid(error.description))
        }
        rule = try reader.rule(W.rule)
        label = try reader.string(W.label)
        sound = try reader.string(W.sound)
        guard let settings = try reader.optionalObject(W.snooze) else { throw reader.fail(W.snooze, .missing) }
        let nested = WireReader(settings, path: W.snooze.name + ".")
        snooze = SnoozeSettings(enabled: try nested.bool(Wire.SnoozeSettings.enabled), minutes: try nested.int(Wire.SnoozeSettings.minutes),
                                maxCount: try nested.int(Wire.SnoozeSettings.maxCount))
        ringSeconds = try reader.int(W.ringSeconds)
        volume = try reader.optionalInt(W.volume)
        fadeSeconds = try reader.optionalInt(W.fadeSeconds)
        enabled = try reader.bool(W.enabled)
        skipNext = try reader.bool(W.skipNext)
        pausedUntil = try reader.optionalDay(W.pausedUntil)
        skipHolidays = try reader.optionalBool(W.skipHolidays) ?? false
        timeZone = try reader.optionalString(W.timeZone)
        // Live state: absent from an event's or an export's copy.
        let livePhase = try reader.phase(W.phase)
        phase = livePhase ?? .waiting
        next = try reader.optionalInstant(W.next)
        snoozeCount = try reader.optionalInt(W.snoozeCount) ?? 0
        hasLiveState = livePhase != nil
    }

    /// No repeat days and no rule: it rings once.
    public var isOneShot: Bool { days.isEmpty && rule == nil }

    /// The repeat in words: 永不 / 每天 / 平日 / 假日, `Mon, Wed`, or the
    /// rule's own words (`Every 2 weeks on Mon, Thu`).
    public func repeatText(in l: some Localization) -> String {
        rule?.text(in: l) ?? days.text(in: l)
    }

    /// The next time it rings by its own rules, ignoring `enabled`: what
    /// stands in for `next` until the daemon says (an event's copy). A
    /// skipped occurrence counts, as the daemon's `next` counts it. `nil`
    /// when it will not ring.
    public func estimatedNext(after now: Date, systemZone: Zone) -> Date? {
        // Holidays are the daemon's configuration, unknown here.
        let alarm = Alarm(time: time, days: days, timeZone: timeZone.flatMap(ZoneName.zone), recurrence: rule, pausedUntil: pausedUntil,
                          created: now)
        return alarm.nextFire(after: now, in: systemZone)
    }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// alarmd's settings, with the built-in defaults that apply when no file sets them.
/// ``keys`` is the one list of the file's keys: ``parse(_:name:)`` reads by it,
/// ``defaultFileText`` (shipped as `config/alarmd.conf`) is written from it, and
/// tests hold alarmd.conf(5) to it.
public struct DaemonConfig: Hashable, Sendable {
    /// `[Alarms] SnoozeMinutes=`: snooze length for new alarms and for reminders.
    public var snoozeMinutes = 9
    /// `[Alarms] RingDuration=`: seconds of ringing before auto-silence.
    public var ringSeconds = Alarm.defaultRingSeconds
    /// `[Alarms] MissedGrace=`: how late an occurrence may be and still ring.
    public var missedGrace: TimeInterval = 300
    /// `[Alarms] SnoozeChoices=`: snooze lengths (minutes) a ringing item's
    /// notification offers beside its own; ascending, without repeats.
    public var snoozeChoices = [5, 10, 15]
    public static let maxSnoozeChoices = 6
    /// `[Alarms] UpcomingNotice=`: how long before an alarm a quiet notice
    /// says it is coming (with "Dismiss now"); 0 is off.
    public var upcomingNotice: TimeInterval = 1800
    /// `[Alarms] EscalateAfter=`: how long an alarm rings unanswered before it
    /// goes to full volume and runs its escalation command; 0 is off.
    public var escalateAfter: TimeInterval = 0
    /// `[Sound] AlarmSound=`
    public var alarmSound = Sound.defaultAlarm
    /// `[Sound] ReminderSound=`
    public var reminderSound = Sound.defaultReminder
    /// `[Sound] Theme=`: the freedesktop sound theme searched first.
    public var soundTheme = "freedesktop"
    /// `[Sound] Player=`: an argument vector (no shell); empty picks the first of
    /// pw-play, paplay, ogg123, aplay that is installed.
    public var player: [String] = []
    /// `[Sound] Volume=`: the ringing stream's volume, 1–100 %.
    public var soundVolume = SoundLevel.defaultVolume
    /// `[Sound] Fade=`: seconds from silence to that volume, 0–300 (0: at once).
    public var soundFade = SoundLevel.defaultFade
    /// `[Hooks] Timeout=`: how long an item's command may run before it is killed.
    public var hookTimeout: TimeInterval = 30
    /// `[Control] IdleTimeout=`: seconds a client connection may stay silent.
    public var idleTimeout: TimeInterval = 60
    /// `[Control] RequestTimeout=`: seconds from the first byte of a request
    /// to its last.
    public var requestTimeout: TimeInterval = 10
    /// `[Control] MaxClients=`: connections at once.
    public var maxClients = 256
    /// `[Control] WatchBacklog=`: bytes of events a `Watch` subscriber may fall behind.
    public var watchBacklog = 256 * 1024
    /// `[Control] MaxMessageSize=`: the longest request but an import, in bytes.
    public var maxMessageSize = 1 << 20
    /// `[Control] MaxImportSize=`: the longest `Import` request, in bytes (the
    /// whole document is one request); never below `maxMessageSize`.
    public var maxImportSize = 64 << 20
    /// `[Wake]`: waking a suspended machine for what is due.
    public var wake = WakeSettings()
    /// `[Alarms] Holidays=`: iCalendar files whose days count as holidays.
    public var holidayFiles: [String] = []
    /// `[Reminders] AllDayAt=`: when a reminder due on a day (`--on`) rings.
    public var allDayAt = TimeOfDay.nineAM
    /// `[Sync]`: CalDAV sync, off while `url` is empty.
    public var sync = SyncSettings()

    public init() {}

    /// The ringing machine's view of these settings, with the holidays the
    /// daemon read from ``holidayFiles``.
    public func ringPolicy(holidays: HolidayCalendar = .empty) -> RingPolicy {
        RingPolicy(
            missedGrace: missedGrace,
            reminderSnooze: SnoozeSettings(enabled: true, minutes: snoozeMinutes, maxCount: 0),
            reminderRingSeconds: ringSeconds,
            escalateAfter: escalateAfter,
            holidays: holidays
        )
    }

    /// Reads an INI file over the defaults, each entry by its ``Key``. Unknown
    /// sections or keys, and a key set twice, become warnings (a newer config
    /// on an older daemon should still start, and the last value counts as in
    /// systemd's files); a value its key refuses is an error naming file, line
    /// and key.
    public static func parse(_ text: String, name: String) throws(ConfigError) -> (config: DaemonConfig, warnings: [String]) {
        let file = try INIFile(parsing: text, name: name)
        var config = DaemonConfig()
        var warnings: [String] = []
        var firstLines: [String: Int] = [:]
        for entry in file.entries {
            let id = Key.id(section: entry.section, name: entry.key)
            guard let key = keysByID[id] else {
                warnings.append("\(name):\(entry.line): unknown key \(id), ignored")
                continue
            }
            if let first = firstLines[id] {
                warnings.append("\(name):\(entry.line): \(id) is set again (first on line \(first)); the last value counts")
            } else {
                firstLines[id] = entry.line
            }
            do throws(Refusal) { try key.apply(entry.value, to: &config) } catch {
                throw ConfigError(file: name, line: entry.line, section: entry.section, key: entry.key, value: entry.value, requirement: error.requirement)
            }
        }
        return (config, warnings)
    }
}

import FoundationEssentials

/// alarmd's settings, with the built-in defaults that apply when no file sets them.
/// `config/alarmd.conf` documents every key.
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

    /// Where reminders (and, optionally, alarms) are shared through a CalDAV
    /// server, and how often it is asked for changes.
    public struct SyncSettings: Hashable, Sendable {
        /// A task collection (`VTODO`s), `http://` or `https://`.
        public var url = ""
        /// An event collection for alarms; empty keeps alarms on this machine.
        public var alarmsURL = ""
        public var user = ""
        /// A file holding the password (mode 0600, owned by the user); empty
        /// reads systemd's credential `alarmd-sync` instead.
        public var passwordFile = ""
        public var interval: TimeInterval = 300

        public init() {}

        public var isEnabled: Bool { !url.isEmpty }
    }

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

    /// Reads an INI file over the defaults. Unknown sections or keys become
    /// warnings (a newer config on an older daemon should still start); a value
    /// that does not parse is an error naming file, line and key.
    public static func parse(_ text: String, name: String) throws(ConfigError) -> (config: DaemonConfig, warnings: [String]) {
        let file = try INIFile(parsing: text, name: name)
        var config = DaemonConfig()
        var warnings: [String] = []
        for entry in file.entries {
            func fail(_ message: String) -> ConfigError {
                ConfigError(file: name, line: entry.line, key: entry.key, message: message + ", got \(ValidationError.quoted(entry.value))")
            }
            switch (entry.section, entry.key) {
            case ("Alarms", "SnoozeMinutes"):
                guard let minutes = Int(entry.value), SnoozeSettings.minutesRange.contains(minutes) else { throw fail("must be 1–60") }
                config.snoozeMinutes = minutes
            case ("Alarms", "SnoozeChoices"):
                // The file's value is trimmed already; the words between commas are trimmed here.
                if entry.value.isEmpty { config.snoozeChoices = []; continue }
                let words = entry.value.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
                let minutes = words.compactMap { Int($0) }.filter(SnoozeSettings.minutesRange.contains)
                guard minutes.count == words.count, Set(minutes).count <= Self.maxSnoozeChoices else {
                    throw fail("must be up to \(Self.maxSnoozeChoices) snooze lengths in minutes (1–60), comma-separated, like 5,10,15, or empty for none")
                }
                config.snoozeChoices = Array(Set(minutes)).sorted()
            case ("Alarms", "UpcomingNotice"):
                if entry.value == "0" { config.upcomingNotice = 0; continue }
                guard let seconds = try? DurationParser.parse(entry.value), seconds >= 60, seconds <= 86_400 else {
                    throw fail("must be 0 (off) or a duration from 1m to 1d, like 30m")
                }
                config.upcomingNotice = TimeInterval(seconds)
            case ("Alarms", "EscalateAfter"):
                if entry.value == "0" || entry.value == "off" { config.escalateAfter = 0; continue }
                guard let seconds = try? DurationParser.parse(entry.value), seconds >= 10, seconds <= 3600 else {
                    throw fail("must be off (or 0) or a duration from 10s to 1h, like 2m")
                }
                config.escalateAfter = TimeInterval(seconds)
            case ("Alarms", "RingDuration"):
                guard let seconds = try? DurationParser.parse(entry.value), Alarm.ringSecondsRange.contains(Int(seconds)) else {
                    throw fail("must be a duration from 1s to 1h, like 5m or 90s")
                }
                config.ringSeconds = Int(seconds)
            case ("Alarms", "MissedGrace"):
                if entry.value == "0" { config.missedGrace = 0; continue }
                guard let seconds = try? DurationParser.parse(entry.value), seconds <= 86_400 else {
                    throw fail("must be 0 or a duration up to 1d, like 5m")
                }
                config.missedGrace = TimeInterval(seconds)
            case ("Sound", "AlarmSound"):
                guard let sound = try? Sound.parse(entry.value) else { throw fail("must be a sound-theme name, an absolute path, or none") }
                config.alarmSound = sound
            case ("Sound", "ReminderSound"):
                guard let sound = try? Sound.parse(entry.value) else { throw fail("must be a sound-theme name, an absolute path, or none") }
                config.reminderSound = sound
            case ("Sound", "Theme"):
                guard case .themed(let theme)? = try? Sound.parse(entry.value) else { throw fail("must be a theme directory name") }
                config.soundTheme = theme
            case ("Sound", "Player"):
                let argv: [String]
                do throws(ArgumentVector.UnbalancedQuote) { argv = try ArgumentVector.split(entry.value) } catch {
                    // Trailing white space is trimmed from every value, so `a\ ` arrives as `a\`.
                    throw fail(error.trailingEscape ? "must not end in a lone backslash (an escaped trailing space is trimmed; quote it instead)"
                                                    : "must be a command line with balanced quotes")
                }
                guard !argv.joined().unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    throw fail("must not contain control characters")
                }
                if let program = argv.first, !program.hasPrefix("/"), program.contains("/") {
                    throw fail("must name a program on PATH or by absolute path")
                }
                config.player = argv
            case ("Sound", "Volume"):
                let digits = entry.value.hasSuffix("%") ? String(entry.value.dropLast()) : entry.value
                guard let percent = Int(digits), SoundLevel.volumeRange.contains(percent) else { throw fail("must be a volume of 1–100 (%)") }
                config.soundVolume = percent
            case ("Sound", "Fade"):
                if entry.value == "0" { config.soundFade = 0; continue }
                guard let seconds = try? DurationParser.parse(entry.value), seconds <= Int64(SoundLevel.fadeSecondsRange.upperBound) else {
                    throw fail("must be 0 or a duration up to 5m, like 30s")
                }
                config.soundFade = TimeInterval(seconds)
            case ("Hooks", "Timeout"):
                guard let seconds = try? DurationParser.parse(entry.value), seconds <= 3600 else {
                    throw fail("must be a duration from 1s to 1h, like 30s")
                }
                config.hookTimeout = TimeInterval(seconds)
            case ("Control", "IdleTimeout"):
                guard let seconds = try? DurationParser.parse(entry.value), seconds <= 86_400 else {
                    throw fail("must be a duration from 1s to 1d, like 60s")
                }
                config.idleTimeout = TimeInterval(seconds)
            case ("Control", "RequestTimeout"):
                guard let seconds = try? DurationParser.parse(entry.value), seconds <= 3600 else {
                    throw fail("must be a duration from 1s to 1h, like 10s")
                }
                config.requestTimeout = TimeInterval(seconds)
            case ("Control", "MaxClients"):
                guard let count = Int(entry.value), (1...4096).contains(count) else { throw fail("must be 1–4096") }
                config.maxClients = count
            case ("Control", "WatchBacklog"):
                guard let kibibytes = entry.value.hasSuffix("K") ? Int(entry.value.dropLast()) : nil, (1...65_536).contains(kibibytes) else {
                    throw fail("must be a size in KiB from 1K to 65536K, like 256K")
                }
                config.watchBacklog = kibibytes * 1024
            case ("Control", "MaxMessageSize"):
                guard let size = Self.messageSize(entry.value) else { throw fail("must be a size from 64K to 1024M, like 1M") }
                config.maxMessageSize = size
            case ("Control", "MaxImportSize"):
                guard let size = Self.messageSize(entry.value) else { throw fail("must be a size from 64K to 1024M, like 64M") }
                config.maxImportSize = size
            case ("Wake", "Enabled"):
                guard let value = Self.boolean(entry.value) else { throw fail("must be yes or no") }
                config.wake.enabled = value
            case ("Wake", "Lead"):
                if entry.value == "0" { config.wake.lead = 0; continue }
                guard let seconds = try? DurationParser.parse(entry.value), seconds <= 3600 else {
                    throw fail("must be 0 or a duration up to 1h, like 60s")
                }
                config.wake.lead = TimeInterval(seconds)
            case ("Wake", "Reminders"):
                guard let value = Self.boolean(entry.value) else { throw fail("must be yes or no") }
                config.wake.reminders = value
            case ("Alarms", "Holidays"):
                guard let paths = try? ArgumentVector.split(entry.value), paths.allSatisfy({ $0.hasPrefix("/") || $0.hasPrefix("~/") }), paths.count <= 16 else {
                    throw fail("must be up to 16 absolute paths of iCalendar files (~/ for the home directory), separated by spaces, quoted if they contain one")
                }
                config.holidayFiles = paths
            case ("Reminders", "AllDayAt"):
                guard let time = try? TimeOfDay.parse(entry.value) else { throw fail("must be a time of day, like 09:00") }
                config.allDayAt = time
            case ("Sync", "URL"):
                config.sync.url = try Self.collectionURL(entry.value, fail)
            case ("Sync", "AlarmsURL"):
                config.sync.alarmsURL = try Self.collectionURL(entry.value, fail)
            case ("Sync", "User"):
                guard entry.value.utf8.count <= 256, !entry.value.contains(":") else { throw fail("must be a user name without a colon") }
                config.sync.user = entry.value
            case ("Sync", "PasswordFile"):
                guard entry.value.isEmpty || entry.value.hasPrefix("/") || entry.value.hasPrefix("~/") else {
                    throw fail("must be an absolute path (~/ for the home directory)")
                }
                config.sync.passwordFile = entry.value
            case ("Sync", "Interval"):
                guard let seconds = try? DurationParser.parse(entry.value), seconds >= 1, seconds <= 86_400 else {
                    throw fail("must be a duration from 1s to 1d, like 5m")
                }
                config.sync.interval = TimeInterval(seconds)
            case ("Wake", "SuspendAgain"):
                guard let value = Self.boolean(entry.value) else { throw fail("must be yes or no") }
                config.wake.suspendAgain = value
            default:
                warnings.append("\(name):\(entry.line): unknown key [\(entry.section)] \(entry.key)=, ignored")
            }
        }
        return (config, warnings)
    }

    /// A CalDAV collection's address, ending in `/` (the items' addresses go
    /// after it), or empty; `fail` makes the error for anything else.
    static func collectionURL(_ value: String, _ fail: (String) -> ConfigError) throws(ConfigError) -> String {
        // The part before the path must not carry a user (or a password).
        let authority = value.split(separator: "/", omittingEmptySubsequences: false).dropFirst(2).first ?? ""
        guard value.isEmpty || ((value.hasPrefix("https://") || value.hasPrefix("http://")) && value.utf8.count <= 2048
            && !value.contains(where: \.isWhitespace) && !authority.isEmpty && !authority.contains("@")) else {
            throw fail("must be the http:// or https:// address of a collection on a CalDAV server, without a user name in it (User= and PasswordFile= say who)")
        }
        return value.isEmpty || value.hasSuffix("/") ? value : value + "/"
    }

    /// A boolean as systemd's unit files write it: yes/no, true/false, on/off, 1/0.
    static func boolean(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: return nil
        }
    }

    /// `64K` to `1024M`, in bytes; `nil` for anything else.
    static func messageSize(_ value: String) -> Int? {
        let unit = value.hasSuffix("M") ? 1 << 20 : value.hasSuffix("K") ? 1 << 10 : 0
        // The range is checked before multiplying: a huge count must be an
        // error, not an overflow.
        guard unit > 0, let count = Int(value.dropLast()), count > 0, count <= (1 << 30) / unit, count * unit >= 64 << 10 else { return nil }
        return count * unit
    }
}

/// Splits a command line into an argument vector the way systemd's `ExecStart=`
/// does for the simple cases: whitespace separates, single or double quotes
/// group, backslash escapes the next character. Nothing is expanded: the result
/// is run directly, never through a shell.
public enum ArgumentVector {
    public struct UnbalancedQuote: Error {
        /// The line ended in a lone backslash rather than inside quotes.
        public let trailingEscape: Bool
    }

    public static func split(_ line: String) throws(UnbalancedQuote) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            if character == "\\" { escaped = true; inWord = true; continue }
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            switch character {
            case "\"", "'":
                quote = character
                inWord = true
            case " ", "\t":
                if inWord { words.append(current); current = ""; inWord = false }
            default:
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { throw UnbalancedQuote(trailingEscape: escaped) }
        if inWord { words.append(current) }
        return words
    }
}

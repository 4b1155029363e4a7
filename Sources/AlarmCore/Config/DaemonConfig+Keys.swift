// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

extension DaemonConfig {
    /// Every key alarmd.conf takes, in the order ``defaultFileText`` shows
    /// them, a section's keys together. Each names the field it sets, how its
    /// value is read (the parser's range is the one its error states), its
    /// default as the file writes it, and the comment above it in the
    /// default file. alarmd.conf(5) describes each at length; tests hold the
    /// man page's list, and the defaults it states, to this one.
    public static let keys: [Key] = alarms + reminders + sound + hooks + control + wake + sync

    /// ``keys`` by their ``Key/description``; two keys with one name stop the
    /// program at its first configuration read, and the tests.
    static let keysByID = Dictionary(uniqueKeysWithValues: keys.map { ($0.description, $0) })

    private static let alarms: [Key] = [
        Key("Alarms", "SnoozeMinutes", .integer(SnoozeSettings.minutesRange), \.snoozeMinutes, default: "9",
            doc: "Snooze length in minutes (1-60) for new alarms and for reminders."),
        Key("Alarms", "SnoozeChoices", .minuteList(SnoozeSettings.minutesRange, atMost: maxSnoozeChoices, of: "snooze lengths", like: "5,10,15"),
            \.snoozeChoices, default: "5,10,15",
            doc: "Other snooze lengths (minutes, 1-60, up to six, comma-separated) offered as actions of a ringing item's notification, "
                + "after its own length. Empty: none."),
        Key("Alarms", "UpcomingNotice", .duration(60...86_400, like: "30m", off: ["0"]), \.upcomingNotice, default: "30m",
            doc: "A quiet notice this long (1m to 1d) before each alarm (\"Alarm at 07:30 - Work\"), with a Dismiss now action "
                + "that skips that occurrence. 0: none."),
        Key("Alarms", "EscalateAfter", .duration(10...3600, like: "2m", off: ["off", "0"]), \.escalateAfter, default: "off",
            doc: "An alarm still ringing unanswered after this long (10s to 1h) goes to full volume and runs its escalation command "
                + "(alarmctl add --escalate-command), and the journal and Watch get an \"escalated\" event. off: never."),
        Key("Alarms", "RingDuration", .duration(Alarm.ringSecondsRange, like: "5m or 90s"), \.ringSeconds, default: "5m",
            doc: "How long an item rings before it silences itself (1s to 1h). It then snoozes if it may, otherwise it is dismissed; "
                + "the journal records \"timed-out\"."),
        Key("Alarms", "MissedGrace", .duration(0...86_400, like: "5m"), \.missedGrace, default: "5m",
            doc: "How late an occurrence may be when alarmd gets to it (after being stopped, a suspend, or the clock jumping forward) "
                + "and still ring, up to 1d. Older occurrences become a single \"missed\" event per item. 0: no late ringing."),
        Key("Alarms", "Holidays", .paths(atMost: 16, of: "iCalendar files"), \.holidayFiles, default: "",
            doc: "iCalendar files (RFC 5545) whose all-day events are holidays, such as a country's public-holiday calendar; "
                + "alarms made with --skip-holidays pass over those days. Up to 16 absolute paths (~/ for the home directory), "
                + "separated by spaces. Re-read on reload; a file that does not parse is named, with its line, in the journal, "
                + "and the other files still count."),
    ]

    private static let reminders: [Key] = [
        Key("Reminders", "AllDayAt", .timeOfDay(like: "09:00"), \.allDayAt, default: "09:00",
            doc: "When a reminder due on a day rather than at a time (alarmctl remind add --on 2026-12-24) rings, local time."),
    ]

    private static let sound: [Key] = [
        Key("Sound", "AlarmSound", .sound, \.alarmSound, default: Sound.defaultAlarm.description,
            doc: "The sound given to new alarms: a freedesktop sound-theme name, an absolute file path, or none."),
        Key("Sound", "ReminderSound", .sound, \.reminderSound, default: Sound.defaultReminder.description,
            doc: "The sound of every reminder, written the same way."),
        Key("Sound", "Theme", .themeName, \.soundTheme, default: "freedesktop",
            doc: "The sound theme searched first; the freedesktop theme is always the fallback."),
        Key("Sound", "Volume", .percent(SoundLevel.volumeRange, of: "a volume"), \.soundVolume, default: "80",
            doc: "How loud a ringing sound plays, 1-100 (%), set on alarmd's own stream as a desktop mixer shows it "
                + "(never on your output)."),
        Key("Sound", "Fade", .duration(SoundLevel.fadeSecondsRange, like: "30s"), \.soundFade, default: "30s",
            doc: "How long a ringing sound takes to rise from silence to Volume= (0: at once; at most 5m)."),
        Key("Sound", "Player", .commandLine, \.player, default: "",
            doc: "Sounds play through the desktop's sound server (PulseAudio, or PipeWire's pipewire-pulse). Without one, "
                + "or when Player= is set, an external player runs instead: a command line run without a shell; "
                + "the sound file is appended. Empty: the first of pw-play, paplay, ogg123, aplay that is installed."),
    ]

    private static let hooks: [Key] = [
        Key("Hooks", "Timeout", .duration(1...3600, like: "30s"), \.hookTimeout, default: "30s",
            doc: "An item's command (alarmctl add --command …) is killed, with everything it started, when it runs longer "
                + "than this, at most 1h. Its output goes to the journal."),
    ]

    private static let control: [Key] = [
        Key("Control", "IdleTimeout", .duration(1...86_400, like: "60s"), \.idleTimeout, default: "60s",
            doc: "A client connection silent this long (at most 1d) is closed; a Watch subscriber is not."),
        Key("Control", "RequestTimeout", .duration(1...3600, like: "10s"), \.requestTimeout, default: "10s",
            doc: "A request must arrive whole within this time of its first byte (at most 1h); one that does not gets an error "
                + "and the connection is closed."),
        Key("Control", "MaxClients", .integer(1...4096), \.maxClients, default: "256",
            doc: "Connections at once, 1-4096; more are told so and closed."),
        Key("Control", "WatchBacklog", .kibibytes(1...65_536, like: "256K"), \.watchBacklog, default: "256K",
            doc: "How far (in KiB, 1K to 65536K) a Watch subscriber may fall behind before it is dropped."),
        Key("Control", "MaxMessageSize", .size((64 << 10)...(1 << 30), like: "1M"), \.maxMessageSize, default: "1M",
            doc: "The longest request (K or M, 64K to 1024M), other than an import."),
        Key("Control", "MaxImportSize", .size((64 << 10)...(1 << 30), like: "64M"), \.maxImportSize, default: "64M",
            doc: "The longest Import request, written the same way: the document is one request, about 200 bytes an alarm."),
    ]

    private static let wake: [Key] = [
        Key("Wake", "Enabled", .boolean, \.wake.enabled, default: "yes",
            doc: "Set the machine to wake from suspend for the next alarm. Needs CAP_WAKE_ALARM (see the README, "
                + "\"Alarms while the laptop sleeps\")."),
        Key("Wake", "Lead", .duration(0...3600, like: "60s"), \.wake.lead, default: "60s",
            doc: "Wake this long (0 to 1h) before the alarm, so that it rings on time after resume."),
        Key("Wake", "Reminders", .boolean, \.wake.reminders, default: "no",
            doc: "Reminders with a due time wake the machine too, not only alarms and timers."),
        Key("Wake", "SuspendAgain", .boolean, \.wake.suspendAgain, default: "no",
            doc: "After a wake alarmd caused, when the alarm rings out with nobody snoozing or dismissing anything, "
                + "suspend again (only if logind's CanSuspend says yes)."),
    ]

    private static let sync: [Key] = [
        Key("Sync", "URL", .collectionURL, \.sync.url, default: "",
            doc: "Share reminders (and, with AlarmsURL=, alarms) with your other devices through a CalDAV server "
                + "(Nextcloud, Radicale, Baïkal, Fastmail, iCloud): the http:// or https:// address of a task collection, "
                + "empty for no sync."),
        Key("Sync", "AlarmsURL", .collectionURL, \.sync.alarmsURL, default: "",
            doc: "An event collection for alarms; empty keeps alarms on this machine."),
        Key("Sync", "User", .userName, \.sync.user, default: "",
            doc: "The user name to sign in to the server with."),
        Key("Sync", "PasswordFile", .path, \.sync.passwordFile, default: "",
            doc: "A file holding the password, readable by you only (chmod 600), else the service's credential alarmd-sync "
                + "(systemd LoadCredential=). Never logged."),
        Key("Sync", "Interval", .duration(1...86_400, like: "5m"), \.sync.interval, default: "5m",
            doc: "How often (1s to 1d) to ask the server for changes; changes made here go at once."),
    ]
}

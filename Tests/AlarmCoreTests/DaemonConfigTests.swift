// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Testing

@Suite("Daemon configuration")
struct DaemonConfigTests {
    @Test func emptyFileGivesTheBuiltInDefaults() throws {
        let (config, warnings) = try DaemonConfig.parse("# nothing set\n\n", name: "alarmd.conf")
        #expect(config == DaemonConfig())
        #expect(config.snoozeMinutes == 9)
        #expect(config.ringSeconds == 300)
        #expect(config.missedGrace == 300)
        #expect(config.alarmSound == .themed("alarm-clock-elapsed"))
        #expect(config.reminderSound == .themed("message-new-instant"))
        #expect(config.player.isEmpty)
        #expect(config.snoozeChoices == [5, 10, 15])
        #expect(config.upcomingNotice == 1800)
        #expect(config.escalateAfter == 0 && config.ringPolicy().escalateAfter == 0, "escalation is off unless asked for")
        #expect(warnings.isEmpty)
    }

    @Test func everyKeyIsRead() throws {
        let text = """
            [Alarms]
            SnoozeMinutes = 5
            RingDuration=90s
            MissedGrace=0
            SnoozeChoices= 30, 2 ,30,10
            UpcomingNotice=1h
            EscalateAfter=2m
            ; a comment in the other style
            [Sound]
            AlarmSound=/usr/share/sounds/bell.oga
            ReminderSound=none
            Theme=ocean
            Player=pw-play --volume 0.8 "--target" 'my sink'\r
            Volume=35%
            Fade=2m
            [Control]
            IdleTimeout=2m
            RequestTimeout=3s
            MaxClients=8
            WatchBacklog=64K
            MaxMessageSize=128M
            MaxImportSize=256M
            """
        let (config, warnings) = try DaemonConfig.parse(text, name: "alarmd.conf")
        #expect(warnings.isEmpty)
        #expect(config.snoozeMinutes == 5)
        #expect(config.ringSeconds == 90)
        #expect(config.missedGrace == 0)
        #expect(config.snoozeChoices == [2, 10, 30], "sorted, without repeats")
        #expect(config.upcomingNotice == 3600)
        #expect(config.escalateAfter == 120 && config.ringPolicy().escalateAfter == 120)
        let off = try DaemonConfig.parse("[Alarms]\nSnoozeChoices=\nUpcomingNotice=0\n", name: "a.conf").config
        #expect(off.snoozeChoices.isEmpty && off.upcomingNotice == 0)
        #expect(config.alarmSound == .file("/usr/share/sounds/bell.oga"))
        #expect(config.reminderSound == Sound.none)
        #expect(config.soundTheme == "ocean")
        #expect(config.player == ["pw-play", "--volume", "0.8", "--target", "my sink"])
        #expect(config.soundVolume == 35 && config.soundFade == 120)
        #expect(DaemonConfig().soundVolume == 80 && DaemonConfig().soundFade == 30)
        #expect(config.ringPolicy().reminderSnooze.minutes == 5)
        #expect(config.idleTimeout == 120)
        #expect(config.requestTimeout == 3)
        #expect(DaemonConfig().requestTimeout == 10)
        #expect(config.maxClients == 8)
        #expect(config.watchBacklog == 64 * 1024)
        #expect(config.maxMessageSize == 128 << 20)
        #expect(config.maxImportSize == 256 << 20)
        #expect(DaemonConfig().maxMessageSize == 1 << 20)
        #expect(DaemonConfig().maxImportSize == 64 << 20)
    }

    @Test func unknownKeysAndSectionsWarnWithFileAndLine() throws {
        let (config, warnings) = try DaemonConfig.parse("[Alarms]\nSnoozeMinute=5\n[Fancy]\nColour=red\n", name: "/etc/xdg/alarmd/alarmd.conf")
        #expect(config == DaemonConfig())
        #expect(warnings == [
            "/etc/xdg/alarmd/alarmd.conf:2: unknown key [Alarms] SnoozeMinute=, ignored",
            "/etc/xdg/alarmd/alarmd.conf:4: unknown key [Fancy] Colour=, ignored",
        ])
    }

    @Test(arguments: [
        ("[Alarms]\nSnoozeMinutes=61\n", "a.conf:2: SnoozeMinutes: must be 1–60, got \"61\""),
        ("[Alarms]\nRingDuration=2h\n", "a.conf:2: RingDuration: must be a duration from 1s to 1h, like 5m or 90s, got \"2h\""),
        ("[Alarms]\nMissedGrace=soon\n", "a.conf:2: MissedGrace: must be 0 or a duration up to 1d, like 5m, got \"soon\""),
        ("[Alarms]\nSnoozeChoices=5,61\n", "a.conf:2: SnoozeChoices: must be up to 6 snooze lengths in minutes (1–60), comma-separated, like 5,10,15, or empty for none, got \"5,61\""),
        ("[Alarms]\nSnoozeChoices=5,,10\n", "a.conf:2: SnoozeChoices: must be up to 6 snooze lengths in minutes (1–60), comma-separated, like 5,10,15, or empty for none, got \"5,,10\""),
        ("[Alarms]\nSnoozeChoices=1,2,3,4,5,6,7\n", "a.conf:2: SnoozeChoices: must be up to 6 snooze lengths in minutes (1–60), comma-separated, like 5,10,15, or empty for none, got \"1,2,3,4,5,6,7\""),
        ("[Alarms]\nEscalateAfter=5s\n", "a.conf:2: EscalateAfter: must be off (or 0) or a duration from 10s to 1h, like 2m, got \"5s\""),
        ("[Alarms]\nUpcomingNotice=30s\n", "a.conf:2: UpcomingNotice: must be 0 (off) or a duration from 1m to 1d, like 30m, got \"30s\""),
        ("[Sound]\nAlarmSound=../x\n", "a.conf:2: AlarmSound: must be a sound-theme name, an absolute path, or none, got \"../x\""),
        ("[Sound]\nPlayer=pw-play \"unterminated\n", "a.conf:2: Player: must be a command line with balanced quotes, got \"pw-play \\\"unterminated\""),
        ("[Sound]\nPlayer=bin/player\n", "a.conf:2: Player: must name a program on PATH or by absolute path, got \"bin/player\""),
        ("[Sound]\nPlayer=play my\\ \n", "a.conf:2: Player: must not end in a lone backslash (an escaped trailing space is trimmed; quote it instead), got \"play my\\\\\""),
        ("[Sound]\nPlayer=play \u{7}\n", "a.conf:2: Player: must not contain control characters, got \"play \\u{7}\""),
        ("[Sound]\nVolume=0\n", "a.conf:2: Volume: must be a volume of 1–100 (%), got \"0\""),
        ("[Sound]\nVolume=loud\n", "a.conf:2: Volume: must be a volume of 1–100 (%), got \"loud\""),
        ("[Sound]\nFade=6m\n", "a.conf:2: Fade: must be 0 or a duration up to 5m, like 30s, got \"6m\""),
        ("SnoozeMinutes=5\n", "a.conf:1: SnoozeMinutes: SnoozeMinutes= must be inside a [Section]"),
        ("[Control]\nRequestTimeout=2h\n", "a.conf:2: RequestTimeout: must be a duration from 1s to 1h, like 10s, got \"2h\""),
        ("[Control]\nMaxClients=0\n", "a.conf:2: MaxClients: must be 1–4096, got \"0\""),
        ("[Control]\nWatchBacklog=1M\n", "a.conf:2: WatchBacklog: must be a size in KiB from 1K to 65536K, like 256K, got \"1M\""),
        ("[Control]\nMaxMessageSize=2G\n", "a.conf:2: MaxMessageSize: must be a size from 64K to 1024M, like 1M, got \"2G\""),
        ("[Control]\nMaxMessageSize=1K\n", "a.conf:2: MaxMessageSize: must be a size from 64K to 1024M, like 1M, got \"1K\""),
        ("[Control]\nMaxImportSize=0M\n", "a.conf:2: MaxImportSize: must be a size from 64K to 1024M, like 64M, got \"0M\""),
        // Found by the config fuzzer: a count whose size in bytes overflows is refused by its range, not trapped.
        ("[Control]\nMaxMessageSize=9223372036854775807M\n", "a.conf:2: MaxMessageSize: must be a size from 64K to 1024M, like 1M, got \"9223372036854775807M\""),
        ("[Sync]\nURL=https://me:secret@dav.example.org/tasks/\n",
         "a.conf:2: URL: must be the http:// or https:// address of a collection on a CalDAV server, without a user name in it (User= and PasswordFile= say who), got \"https://me:secret@dav.example.org/tasks/\""),
        ("[Sync]\nAlarmsURL=ftp://dav.example.org/\n",
         "a.conf:2: AlarmsURL: must be the http:// or https:// address of a collection on a CalDAV server, without a user name in it (User= and PasswordFile= say who), got \"ftp://dav.example.org/\""),
        ("[Sync]\nInterval=0s\n", "a.conf:2: Interval: must be a duration from 1s to 1d, like 5m, got \"0s\""),
        ("[Sync]\nPasswordFile=secret.txt\n", "a.conf:2: PasswordFile: must be an absolute path (~/ for the home directory), got \"secret.txt\""),
        ("[Alarms\n", "a.conf:1: a section header must look like [Section], got \"[Alarms\""),
        ("[Alarms]\njust words\n", "a.conf:2: expected Key=Value, got \"just words\""),
    ])
    func badValuesNameFileLineAndKey(text: String, message: String) {
        #expect(throws: ConfigError.self) { try DaemonConfig.parse(text, name: "a.conf") }
        do {
            _ = try DaemonConfig.parse(text, name: "a.conf")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func syncSettingsAreRead() throws {
        let (config, warnings) = try DaemonConfig.parse("""
            [Sync]
            URL=https://cloud.example.org/remote.php/dav/calendars/me@example.org/tasks
            AlarmsURL=http://127.0.0.1:5232/me/alarms/
            User=me@example.org
            PasswordFile=~/.config/alarmd/sync-password
            Interval=90s
            """, name: "a.conf")
        #expect(warnings.isEmpty)
        #expect(config.sync.url == "https://cloud.example.org/remote.php/dav/calendars/me@example.org/tasks/", "an @ in the path is fine; a slash is added")
        #expect(config.sync.alarmsURL == "http://127.0.0.1:5232/me/alarms/" && config.sync.user == "me@example.org")
        #expect(config.sync.passwordFile == "~/.config/alarmd/sync-password" && config.sync.interval == 90 && config.sync.isEnabled)
        #expect(!DaemonConfig().sync.isEnabled && DaemonConfig().sync.interval == 300)
    }

    @Test(arguments: [
        ("aplay", ["aplay"]),
        ("  paplay   --volume=65536  ", ["paplay", "--volume=65536"]),
        (#"a "b c" 'd e' f\ g"#, ["a", "b c", "d e", "f g"]),
        (#"a "" b"#, ["a", "", "b"]),
        ("", []),
    ])
    func argumentVectorsSplitLikeSystemd(line: String, words: [String]) throws {
        #expect(try ArgumentVector.split(line) == words)
    }
}

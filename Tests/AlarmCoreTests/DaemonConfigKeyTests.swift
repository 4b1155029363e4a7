// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Testing

/// Every key of `DaemonConfig.keys`, read one at a time: values inside its
/// range and at each bound land in its field, values past a bound are
/// refused with an error naming the section, key, line and value. The rows
/// are written here, apart from the table, so that they check it.
@Suite("Daemon configuration keys")
struct DaemonConfigKeyTests {
    /// One key's accepted values (each with a check of the field it sets)
    /// and refused values.
    struct Row: Sendable, CustomStringConvertible {
        let key: String
        let accepted: [(text: String, lands: @Sendable (DaemonConfig) -> Bool)]
        let refused: [String]

        var description: String { key }
    }

    /// A row for `key` (`[Section] Name=`) whose accepted texts read as the
    /// given values at `field`.
    static func row<Value: Equatable & Sendable>(_ key: String, _ field: KeyPath<DaemonConfig, Value> & Sendable,
                                                 accepts: [(String, Value)], refuses: [String]) -> Row {
        Row(key: key, accepted: accepts.map { text, value in (text, { $0[keyPath: field] == value }) }, refused: refuses)
    }

    static let sixteenPaths = (1...16).map { "/h/\($0).ics" }.joined(separator: " ")

    static let rows: [Row] = [
        row("[Alarms] SnoozeMinutes=", \.snoozeMinutes, accepts: [("1", 1), ("60", 60), ("15", 15)], refuses: ["0", "61", "", "nine", "5m"]),
        row("[Alarms] SnoozeChoices=", \.snoozeChoices,
            accepts: [("1,60", [1, 60]), ("", []), ("30, 2 ,30,10", [2, 10, 30]), ("1,2,3,4,5,6", [1, 2, 3, 4, 5, 6])],
            refuses: ["0", "61", "5,,10", "5;10", "1,2,3,4,5,6,7"]),
        row("[Alarms] UpcomingNotice=", \.upcomingNotice, accepts: [("0", 0), ("1m", 60), ("1d", 86_400), ("90m", 5400)],
            refuses: ["59s", "1d1s", "off", ""]),
        row("[Alarms] EscalateAfter=", \.escalateAfter, accepts: [("off", 0), ("0", 0), ("10s", 10), ("1h", 3600), ("2m", 120)],
            refuses: ["9s", "1h1s", "never"]),
        row("[Alarms] RingDuration=", \.ringSeconds, accepts: [("1s", 1), ("1h", 3600), ("90s", 90)], refuses: ["0", "1h1s", ""]),
        row("[Alarms] MissedGrace=", \.missedGrace, accepts: [("0", 0), ("1s", 1), ("1d", 86_400), ("15m", 900)], refuses: ["1d1s", "soon"]),
        row("[Alarms] Holidays=", \.holidayFiles,
            accepts: [("/a.ics ~/b.ics", ["/a.ics", "~/b.ics"]), ("'/my holidays.ics'", ["/my holidays.ics"]), ("", []),
                      (sixteenPaths, (1...16).map { "/h/\($0).ics" })],
            refuses: ["a.ics", "~x.ics", "\"/a.ics", sixteenPaths + " /h/17.ics"]),
        row("[Reminders] AllDayAt=", \.allDayAt,
            accepts: [("00:00", try! TimeOfDay(hour: 0, minute: 0)), ("23:59", try! TimeOfDay(hour: 23, minute: 59)), ("07:30", try! TimeOfDay(hour: 7, minute: 30))],
            refuses: ["24:00", "07:60", "whenever"]),
        row("[Sound] AlarmSound=", \.alarmSound, accepts: [("none", Sound.none), ("/s/bell.oga", .file("/s/bell.oga")), ("bell", .themed("bell"))],
            refuses: ["../x", "-x", ""]),
        row("[Sound] ReminderSound=", \.reminderSound, accepts: [("none", Sound.none), ("/s/ding.oga", .file("/s/ding.oga")), ("ding", .themed("ding"))],
            refuses: ["../x", ".x"]),
        row("[Sound] Theme=", \.soundTheme, accepts: [("ocean", "ocean")], refuses: ["none", "/usr/share/sounds/ocean", "a/b"]),
        row("[Sound] Volume=", \.soundVolume, accepts: [("1", 1), ("100", 100), ("35%", 35)], refuses: ["0", "101", "100%%", "50 %", "loud"]),
        row("[Sound] Fade=", \.soundFade, accepts: [("0", 0), ("1s", 1), ("5m", 300)], refuses: ["5m1s", "slow"]),
        row("[Sound] Player=", \.player,
            accepts: [("aplay", ["aplay"]), ("", []), ("/usr/bin/pw-play --volume 0.8", ["/usr/bin/pw-play", "--volume", "0.8"])],
            refuses: ["bin/player", "a \"b", "play \u{7}", "play my\\"]),
        row("[Hooks] Timeout=", \.hookTimeout, accepts: [("1s", 1), ("1h", 3600)], refuses: ["0", "1h1s"]),
        row("[Control] IdleTimeout=", \.idleTimeout, accepts: [("1s", 1), ("1d", 86_400)], refuses: ["0", "1d1s"]),
        row("[Control] RequestTimeout=", \.requestTimeout, accepts: [("1s", 1), ("1h", 3600)], refuses: ["0", "1h1s"]),
        row("[Control] MaxClients=", \.maxClients, accepts: [("1", 1), ("4096", 4096)], refuses: ["0", "4097", "many"]),
        row("[Control] WatchBacklog=", \.watchBacklog, accepts: [("1K", 1024), ("65536K", 64 << 20)], refuses: ["0K", "65537K", "1M", "256"]),
        row("[Control] MaxMessageSize=", \.maxMessageSize, accepts: [("64K", 64 << 10), ("1024M", 1 << 30), ("1048576K", 1 << 30), ("2M", 2 << 20)],
            refuses: ["63K", "1025M", "1048577K", "1G", "-1M", "1"]),
        row("[Control] MaxImportSize=", \.maxImportSize, accepts: [("64K", 64 << 10), ("1024M", 1 << 30)], refuses: ["63K", "1025M", "0M"]),
        row("[Wake] Enabled=", \.wake.enabled, accepts: [("no", false), ("YES", true), ("off", false), ("1", true)], refuses: ["maybe", ""]),
        row("[Wake] Lead=", \.wake.lead, accepts: [("0", 0), ("1s", 1), ("1h", 3600)], refuses: ["1h1s", "early"]),
        row("[Wake] Reminders=", \.wake.reminders, accepts: [("yes", true), ("false", false)], refuses: ["sometimes"]),
        row("[Wake] SuspendAgain=", \.wake.suspendAgain, accepts: [("on", true), ("0", false)], refuses: ["2"]),
        row("[Sync] URL=", \.sync.url,
            accepts: [("https://dav.example.org/tasks", "https://dav.example.org/tasks/"), ("http://127.0.0.1:5232/me/", "http://127.0.0.1:5232/me/"), ("", "")],
            refuses: ["ftp://dav.example.org/", "https://me@dav.example.org/", "https:///tasks/", "https://dav.example.org/my tasks/"]),
        row("[Sync] AlarmsURL=", \.sync.alarmsURL, accepts: [("https://dav.example.org/alarms/", "https://dav.example.org/alarms/"), ("", "")],
            refuses: ["dav.example.org/alarms/"]),
        row("[Sync] User=", \.sync.user, accepts: [("me@example.org", "me@example.org"), ("", ""), (String(repeating: "u", count: 256), String(repeating: "u", count: 256))],
            refuses: ["me:secret", String(repeating: "u", count: 257)]),
        row("[Sync] PasswordFile=", \.sync.passwordFile, accepts: [("/p", "/p"), ("~/.p", "~/.p"), ("", "")], refuses: ["p", "./p"]),
        row("[Sync] Interval=", \.sync.interval, accepts: [("1s", 1), ("1d", 86_400)], refuses: ["0s", "0", "1d1s"]),
    ]

    @Test func everyKeyHasARowAndEveryRowAKey() {
        let table = DaemonConfig.keys.map(\.description)
        #expect(Set(table).count == table.count, "a key is in the table twice")
        #expect(Set(Self.rows.map(\.key)) == Set(table))
    }

    @Test(arguments: rows)
    func acceptedValuesLandInTheirField(row: Row) throws {
        let key = try #require(DaemonConfig.keys.first { $0.description == row.key })
        for (text, lands) in row.accepted {
            let (config, warnings) = try DaemonConfig.parse("[\(key.section)]\n\(key.name)=\(text)\n", name: "a.conf")
            #expect(warnings.isEmpty, "\(text)")
            #expect(lands(config), "\(row.key)\(text)")
        }
    }

    @Test(arguments: rows)
    func refusedValuesNameSectionKeyLineAndValue(row: Row) throws {
        let key = try #require(DaemonConfig.keys.first { $0.description == row.key })
        for text in row.refused {
            do {
                let (config, _) = try DaemonConfig.parse("# first\n[\(key.section)]\n\(key.name)=\(text)\n", name: "a.conf")
                Issue.record("\(row.key)\(text) was taken as \(config)")
            } catch {
                #expect(error.file == "a.conf" && error.line == 3, "\(error)")
                #expect(error.section == key.section && error.key == key.name && error.value == text, "\(error)")
                #expect(error.description.hasPrefix("a.conf:3: \(key.name): must "), "\(error)")
                #expect(error.description.hasSuffix(", got " + ValidationError.quoted(text)), "\(error)")
            }
        }
    }

    @Test func aKeySetTwiceWarnsAndTheLastValueCounts() throws {
        let (config, warnings) = try DaemonConfig.parse("[Alarms]\nSnoozeMinutes=5\n[Sound]\nVolume=50\n[Alarms]\nSnoozeMinutes=7\n", name: "a.conf")
        #expect(config.snoozeMinutes == 7 && config.soundVolume == 50)
        #expect(warnings == ["a.conf:6: [Alarms] SnoozeMinutes= is set again (first on line 2); the last value counts"])
    }

    @Test func aKeyIsReadOnlyInItsOwnSection() throws {
        let (config, warnings) = try DaemonConfig.parse("[Sound]\nSnoozeMinutes=5\n", name: "a.conf")
        #expect(config == DaemonConfig())
        #expect(warnings == ["a.conf:2: unknown key [Sound] SnoozeMinutes=, ignored"])
    }

    @Test func lineErrorsNameNoSectionOrValue() {
        do {
            _ = try DaemonConfig.parse("[Alarms]\njust words\n", name: "a.conf")
            Issue.record("a line without = was taken")
        } catch {
            #expect(error.line == 2 && error.section == nil && error.key == nil && error.value == nil)
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// alarmctl against a fake alarmd: the exact text it prints for fixed replies,
/// the calls it sends for each command line, and how it reports errors.
@Suite struct FakeDaemonTests {
    static func run(_ arguments: [String], _ fake: FakeDaemon, zone: String = "UTC", input: Data? = nil) throws -> BinaryRunner.Result {
        try BinaryRunner.alarmctl(arguments, socket: fake.socketPath, zone: zone, input: input)
    }

    /// JSON text in one canonical form (sorted keys), for comparing values.
    static func json(_ text: String) throws -> String {
        canonical(try JSONSerialization.jsonObject(with: Data(text.utf8)))
    }

    static func canonical(_ value: Any?) -> String {
        guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]) else { return "nil" }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: Alarms

    @Test func listPrintsAlignedColumnsAndJSONVerbatim() throws {
        let reply = #"{"alarms":[\#(Fixtures.work),\#(Fixtures.dentist),\#(Fixtures.run)]}"#
        let fake = FakeDaemon(replies: ["ListAlarms": reply])
        let result = try Self.run(["list"], fake)
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(result.standardOutput == """
            ID        TIME                   LABEL, REPEAT   ON/OFF  NEXT
            1a2b3c4d  07:30                  Work, Weekdays  on      2030-01-07 07:30
            9f8e7d6c  08:15 (Europe/Berlin)  Dentist         off     —
            5555aaaa  09:00                  Run, Weekends   on      2030-01-05 09:05  ringing  skipping next

            """)
        #expect(fake.calls.map(\.method) == ["io.alarmd.ListAlarms"])

        let json = try Self.run(["list", "--json"], fake)
        #expect(json.standardOutput.hasSuffix("}\n"))
        #expect(json.standardOutput.filter { $0 == "\n" }.count == 1, "one line")
        #expect(try Self.json(json.standardOutput) == Self.json(reply))
    }

    @Test func anEmptyListSaysSo() throws {
        let fake = FakeDaemon(replies: ["ListAlarms": #"{"alarms":[]}"#, "ListReminders": #"{"reminders":[]}"#])
        #expect(try Self.run(["list"], fake).standardOutput == "No alarms.\n")
        #expect(try Self.run(["remind", "list"], fake).standardOutput == "No open reminders.\n")
        #expect(try Self.run(["remind", "list", "--all"], fake).standardOutput == "No reminders.\n")
    }

    @Test func showPrintsEverySetting() throws {
        let fake = FakeDaemon(replies: ["GetAlarm": #"{"alarm":\#(Fixtures.run)}"#])
        let result = try Self.run(["show", "5555"], fake, zone: "Europe/Berlin")
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            id:         5555aaaa-0000-4000-8000-000000000003
            time:       09:00
            repeat:     Weekends
            label:      Run
            time zone:  system (Europe/Berlin)
            sound:      alarm-clock-elapsed
            volume:     60 %
            fade:       default ([Sound] Fade=)
            snooze:     5 min, at most 3 per alarm
            rings for:  300 s
            enabled:    yes
            skip next:  yes
            state:      ringing (snoozed 2 times)
            next:       2030-01-05 Sat 10:05 +01:00
            created:    2026-03-01 Sun 11:00 +01:00
            updated:    2026-03-02 Mon 12:30:15 +01:00

            """)
        #expect(Self.canonical(fake.calls.first?.parameters) == Self.canonical(["id": "5555"]))
    }

    /// An alarm with the same time, repeat and label as one that exists is
    /// not added twice by mistake: the daemon refuses it, and alarmctl
    /// shows the one that exists as `list` does; `--force` asks for it anyway.
    @Test func anExactDuplicateIsRefusedUnlessForced() throws {
        let fake = FakeDaemon { call in
            switch (call.method, call.parameters["force"] as? Bool) {
            case ("io.alarmd.AddAlarm", true?): [#"{"parameters":{"alarm":\#(Fixtures.work)}}"#]
            case ("io.alarmd.AddAlarm", _):
                [#"{"error":"io.alarmd.DuplicateAlarm","parameters":{"id":"1a2b3c4d-0000-4000-8000-000000000001","message":"alarm 1a2b3c4d-0000-4000-8000-000000000001 \"Work\" rings at 07:30 just so; nothing was added (force adds another)"}}"#]
            case ("io.alarmd.GetAlarm", _): [#"{"parameters":{"alarm":\#(Fixtures.work),"warnings":[]}}"#]
            default: [#"{"error":"org.varlink.service.MethodNotFound","parameters":{"method":"\#(call.method)"}}"#]
            }
        }
        let twin = try Self.run(["add", "weekdays", "at", "7:30", "--label", "work"], fake)
        #expect(twin.status == 1)
        #expect(twin.standardError == "alarmctl: alarm 1a2b3c4d is the same: 07:30 Work, Weekdays; nothing was added (--force adds another)\n")
        #expect(fake.calls.map(\.method) == ["io.alarmd.AddAlarm", "io.alarmd.GetAlarm"])
        #expect(fake.calls.first?.parameters["force"] == nil)
        #expect(try Self.run(["add", "7:30", "--days", "weekdays", "--label", "Work", "--force"], fake).status == 0)
        #expect(fake.calls.last?.method == "io.alarmd.AddAlarm" && fake.calls.last?.parameters["force"] as? Bool == true)
    }

    @Test func addSendsEveryFieldParsedLocally() throws {
        let fake = FakeDaemon(replies: ["AddAlarm": #"{"alarm":\#(Fixtures.work)}"#])
        let result = try Self.run(["add", "6:45pm", "--days", "mon-wed,Fri", "--label", "Gym", "--sound", "bell", "--snooze", "5",
                                   "--max-snoozes", "2", "--ring", "2m", "--volume", "35%", "--fade", "1m30s", "--tz", "Europe/Berlin", "--disabled",
                                   "--escalate-command", "ntfy publish 'still asleep'"], fake)
        #expect(result.status == 0)
        #expect(result.standardOutput == "Added alarm 1a2b3c4d 07:30 Work, Weekdays: rings 2030-01-07 07:30\n")
        #expect(fake.calls.map(\.method) == ["io.alarmd.AddAlarm"], "the daemon looks for the same alarm")
        #expect(Self.canonical(fake.calls.last?.parameters["fields"]) == Self.canonical([
            "time": "18:45", "days": ["mon", "tue", "wed", "fri"], "label": "Gym", "sound": "bell", "snooze": true, "snoozeMinutes": 5,
            "maxSnoozes": 2, "ringSeconds": 120, "volume": 35, "fadeSeconds": 90, "enabled": false, "timeZone": "Europe/Berlin",
            "escalateCommand": ["ntfy", "publish", "still asleep"],
        ] as [String: Any]))

        _ = try Self.run(["add", "07:05", "--no-snooze", "--json"], fake)
        #expect(Self.canonical(fake.calls.last?.parameters["fields"]) == Self.canonical(["time": "07:05", "snooze": false] as [String: Any]))
    }

    @Test func playingASoundSendsItsNameAndVolume() throws {
        let fake = FakeDaemon(replies: ["PlaySound": #"{"path":"/usr/share/sounds/freedesktop/stereo/bell.oga","volume":60}"#])
        let result = try Self.run(["sounds", "--play", "bell", "--volume", "60%"], fake)
        #expect(result.status == 0)
        #expect(result.standardOutput == "Playing /usr/share/sounds/freedesktop/stereo/bell.oga at 60 %\n")
        #expect(fake.calls.first?.method == "io.alarmd.PlaySound")
        #expect(Self.canonical(fake.calls.first?.parameters) == Self.canonical(["sound": "bell", "volume": 60] as [String: Any]))
        _ = try Self.run(["sounds", "--play", "/tmp/ring.oga"], fake)
        #expect(Self.canonical(fake.calls.last?.parameters) == Self.canonical(["sound": "/tmp/ring.oga"] as [String: Any]))
    }

    @Test func editSendsOnlyWhatChangesAndCanUnpinTheZone() throws {
        let fake = FakeDaemon(replies: ["UpdateAlarm": #"{"alarm":\#(Fixtures.dentist)}"#])
        let result = try Self.run(["edit", "9f8e", "--time", "8:20", "--tz", "", "--days", "never", "--enabled", "--volume", "default", "--fade", "0",
                                   "--no-escalate-command"], fake)
        #expect(result.status == 0)
        #expect(result.standardOutput == "Changed alarm 9f8e7d6c 08:15 (Europe/Berlin) Dentist: off\n")
        let call = try #require(fake.calls.first)
        #expect(call.method == "io.alarmd.UpdateAlarm")
        #expect(Self.canonical(call.parameters) == Self.canonical(["id": "9f8e", "fields": ["time": "08:20", "timeZone": "", "days": [String](), "enabled": true,
                                                                                                        "volume": 0, "fadeSeconds": 0, "escalateCommand": [String]()] as [String: Any]] as [String: Any]))
    }

    @Test func switchingAndSkippingCallTheirMethods() throws {
        // skip and unskip read the alarm first: one skipped already, or with nothing to undo, is said and left.
        let waiting = Fixtures.alarm(id: "5555aaaa-0000-4000-8000-000000000003", time: "09:00", days: ["sat", "sun"], repeatText: "Weekends", label: "Run",
                                     next: "2030-01-05T09:00:00+00:00")
        let fake = FakeDaemon(replies: ["SetAlarmEnabled": #"{"alarm":\#(Fixtures.work)}"#, "SkipNext": #"{"alarm":\#(Fixtures.run)}"#,
                                        "GetAlarm": #"{"alarm":\#(waiting)}"#])
        #expect(try Self.run(["enable", "1a2b", "1a2c"], fake).standardOutput == """
            Enabled alarm 1a2b3c4d 07:30 Work, Weekdays: rings 2030-01-07 07:30
            Enabled alarm 1a2b3c4d 07:30 Work, Weekdays: rings 2030-01-07 07:30

            """)
        _ = try Self.run(["disable", "1a2b"], fake)
        #expect(try Self.run(["skip", "5555"], fake).standardOutput
            == "Skipping the next occurrence of alarm 5555aaaa 09:00 Run, Weekends: rings 2030-01-05 09:05, ringing, skipping next\n")
        #expect(try Self.run(["unskip", "5555"], fake).standardOutput == "Nothing skipped for alarm 5555aaaa 09:00 Run, Weekends: rings 2030-01-05 09:00\n")
        #expect(fake.calls.map(\.method) == ["io.alarmd.SetAlarmEnabled", "io.alarmd.SetAlarmEnabled", "io.alarmd.SetAlarmEnabled", "io.alarmd.GetAlarm",
                                             "io.alarmd.SkipNext", "io.alarmd.GetAlarm"])
        #expect(Self.canonical(fake.calls.map(\.parameters)) == Self.canonical([
            ["id": "1a2b", "enabled": true], ["id": "1a2c", "enabled": true], ["id": "1a2b", "enabled": false],
            ["id": "5555"], ["id": "5555aaaa-0000-4000-8000-000000000003", "skip": true], ["id": "5555"],
        ] as [[String: Any]]))
        // A waiting alarm says which occurrence it passes over and which rings.
        let skipping = Fixtures.alarm(id: "5555aaaa-0000-4000-8000-000000000003", time: "09:00", days: ["sat", "sun"], repeatText: "Weekends", label: "Run",
                                      skipNext: true, next: "2030-01-06T09:00:00+00:00", skipping: "2030-01-05T09:00:00+00:00")
        let skipFake = FakeDaemon(replies: ["SkipNext": #"{"alarm":\#(skipping)}"#, "GetAlarm": #"{"alarm":\#(waiting)}"#])
        #expect(try Self.run(["skip", "5555"], skipFake).standardOutput
            == "Skipping the next occurrence of alarm 5555aaaa 09:00 Run, Weekends: skips 2030-01-05 09:00, rings 2030-01-06 09:00\n")
        let unskipFake = FakeDaemon(replies: ["SkipNext": #"{"alarm":\#(waiting)}"#, "GetAlarm": #"{"alarm":\#(skipping)}"#])
        #expect(try Self.run(["skip", "5555"], unskipFake).standardOutput
            == "Already skipping the next occurrence of alarm 5555aaaa 09:00 Run, Weekends: skips 2030-01-05 09:00, rings 2030-01-06 09:00\n")
        #expect(try Self.run(["unskip", "5555"], unskipFake).standardOutput == "No longer skipping alarm 5555aaaa 09:00 Run, Weekends: rings 2030-01-05 09:00\n")
        #expect(unskipFake.calls.map(\.method) == ["io.alarmd.GetAlarm", "io.alarmd.GetAlarm", "io.alarmd.SkipNext"])
        #expect(Self.canonical(unskipFake.calls.last?.parameters) == Self.canonical(["id": "5555aaaa-0000-4000-8000-000000000003", "skip": false] as [String: Any]))
    }

    @Test func removingSeveralReportsEachFailureAndExits1() throws {
        let fake = FakeDaemon { call in
            let id = call.parameters["id"] as? String ?? ""
            if id == "dead" { return [#"{"error":"io.alarmd.NoSuchItem","parameters":{"id":"dead"}}"#] }
            return [#"{"parameters":{"id":"\#(id)0000-0000-4000-8000-000000000001","title":"Alarm \#(id)"}}"#]
        }
        let result = try Self.run(["rm", "aaaa", "dead", "bbbb"], fake)
        #expect(result.status == 1)
        // Each named, not just its id.
        #expect(result.standardOutput == "Removed alarm \"Alarm aaaa\" (aaaa0000)\nRemoved alarm \"Alarm bbbb\" (bbbb0000)\n")
        #expect(result.standardError == "alarmctl: no alarm with id or name \"dead\"\nalarmctl: 1 of 3 alarms could not be removed\n")
        #expect(fake.calls.count == 3)

        let single = try Self.run(["rm", "dead"], fake)
        #expect(single.status == 1)
        #expect(single.standardError == "alarmctl: no alarm with id or name \"dead\"\n")
    }

    // MARK: Reminders

    @Test func remindListShowsPositionsDoneMarksAndDueTimes() throws {
        let fake = FakeDaemon(replies: ["ListReminders": #"{"reminders":[\#(Fixtures.milk),\#(Fixtures.tax),\#(Fixtures.tea)]}"#])
        let result = try Self.run(["remind", "list", "--all"], fake, zone: "Europe/Berlin")
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            POS  ID        DONE  TITLE       DUE
              1  abcd0001  [ ]   Buy milk    2030-01-07 15:00
              —  abcd0002  [x]   File taxes  —
              2  beef0003  [ ]   Tea         2030-01-06 17:00  snoozed

            """)
        #expect(Self.canonical(fake.calls.first?.parameters) == Self.canonical(["all": true] as [String: Any]))
        _ = try Self.run(["remind", "list"], fake)
        #expect(Self.canonical(fake.calls.last?.parameters) == Self.canonical([String: Any]()))
    }

    @Test func remindAddReadsWhenInTheLocalZone() throws {
        let fake = FakeDaemon(replies: ["AddReminder": #"{"reminder":\#(Fixtures.milk)}"#])
        let result = try Self.run(["remind", "add", "Buy milk", "--at", "2030-01-07 15:00", "--notes", "oat"], fake, zone: "Europe/Berlin")
        #expect(result.status == 0)
        #expect(result.standardOutput == "Added reminder abcd0001 Buy milk (due 2030-01-07 15:00)\n")
        #expect(Self.canonical(fake.calls.last?.parameters) == Self.canonical(["title": "Buy milk", "due": "2030-01-07T15:00:00+01:00", "notes": "oat"]))

        _ = try Self.run(["remind", "add", "Call", "--at", "2030-07-01T09:00:00Z", "--image", "pics/cat.png"], fake, zone: "Europe/Berlin")
        let call = try #require(fake.calls.last)
        #expect(call.parameters["due"] as? String == "2030-07-01T11:00:00+02:00")
        let image = try #require(call.parameters["imagePath"] as? String)
        #expect(image.hasPrefix("/") && image.hasSuffix("/pics/cat.png"))

        _ = try Self.run(["remind", "add", "Plain to-do"], fake)
        #expect(Self.canonical(fake.calls.last?.parameters) == Self.canonical(["title": "Plain to-do"]))
    }

    /// A repeat in words after the title makes the reminder come back, as
    /// `add` takes one for an alarm; it never ends up in the title.
    @Test func remindAddTakesARepeatInWords() throws {
        let fake = FakeDaemon(replies: ["AddReminder": #"{"reminder":\#(Fixtures.milk)}"#])
        func sent(_ words: [String]) throws -> [String: Any] {
            let result = try Self.run(["remind", "add"] + words, fake)
            #expect(result.status == 0, "\(words): \(result.standardError)")
            return try #require(fake.calls.last?.parameters)
        }
        let rent = try sent(["rent", "every", "month", "on", "the", "1st", "9am"])
        #expect(rent["title"] as? String == "rent")
        let monthly = try #require(rent["rule"] as? [String: Any])
        #expect(monthly["frequency"] as? String == "monthly" && monthly["byMonthDay"] as? [Int] == [1], "\(monthly)")
        #expect((rent["due"] as? String)?.dropFirst(8).hasPrefix("01T09:00:00") == true, "\(String(describing: rent["due"]))")
        let plants = try sent(["water", "the", "plants", "every", "3", "days", "8:00"])
        #expect(plants["title"] as? String == "water the plants")
        #expect((plants["rule"] as? [String: Any])?["interval"] as? Int == 3)
        let swim = try sent(["swim", "tue", "thu", "7am"])
        #expect(swim["title"] as? String == "swim")
        #expect(((swim["rule"] as? [String: Any])?["byDay"] as? [[String: Any]])?.compactMap { $0["weekday"] as? String } == ["tue", "thu"], "\(swim)")
        let standup = try sent(["standup", "weekdays", "9:30"])
        #expect(standup["title"] as? String == "standup")
        #expect((standup["rule"] as? [String: Any])?["byDay"] != nil, "\(standup)")
        // Without a time, it is first due all day on the repeat's first day.
        let birthday = try sent(["Mum's birthday", "every", "year", "on", "12", "march"])
        #expect(birthday["title"] as? String == "Mum's birthday")
        #expect((birthday["on"] as? String)?.hasSuffix("-03-12") == true, "\(birthday)")
        // How long before to be told goes with a repeat in words.
        let told = try sent(["Mum's birthday", "every", "year", "on", "mar", "14", "--before", "1d"])
        #expect(told["before"] as? [Int] == [86_400] && (told["on"] as? String)?.hasSuffix("-03-14") == true, "\(told)")
        let yearly = try sent(["Dad", "--yearly", "06-01"])
        #expect((yearly["on"] as? String)?.hasSuffix("-06-01") == true, "\(yearly)")
        // A repeat said in a way not understood is refused, not made a title.
        let unread = try Self.run(["remind", "add", "gym", "every", "2", "weeks"], fake)
        #expect(unread.status == 64 && unread.standardError.contains("\"every 2 weeks\""), "\(unread.standardError)")
    }

    /// `todo TITLE` adds it, as a phone's list does; a near miss of a
    /// subcommand is still told what it probably is.
    @Test func todoWithATitleAddsIt() throws {
        let fake = FakeDaemon(replies: ["AddReminder": #"{"reminder":\#(Fixtures.milk)}"#])
        let added = try Self.run(["todo", "Buy milk"], fake)
        #expect(added.status == 0, "\(added.standardError)")
        #expect(fake.calls.last?.parameters["title"] as? String == "Buy milk")
        let typo = try Self.run(["todo", "lsit"], fake)
        #expect(typo.status == 64 && typo.standardError.contains("remind list"), "\(typo.standardError)")
    }

    /// `--weekdays` is `--days weekdays`; `snooze 10` snoozes for 10 minutes.
    @Test func shorthandsPeopleType() throws {
        let fake = FakeDaemon(replies: ["AddAlarm": #"{"alarm":\#(Fixtures.work)}"#, "Snooze": #"{"id":"1a2b3c4d-0000-4000-8000-000000000001","title":"Tea","phase":"snoozed","until":"2026-12-04T10:10:00Z","snoozeCount":1}"#])
        let added = try Self.run(["add", "6:45", "--weekdays", "--label", "Wake up"], fake)
        #expect(added.status == 0, "\(added.standardError)")
        let fields = try #require(fake.calls.last?.parameters["fields"] as? [String: Any])
        #expect(fields["days"] as? [String] == ["mon", "tue", "wed", "thu", "fri"], "\(fields)")
        let snoozed = try Self.run(["snooze", "10"], fake)
        #expect(snoozed.status == 0, "\(snoozed.standardError) \(snoozed.standardOutput)")
        #expect(fake.calls.last?.parameters["minutes"] as? Int == 10 && fake.calls.last?.parameters["id"] == nil, "\(String(describing: fake.calls.last?.parameters))")
    }

    /// Two titles, each quoted, are two to-dos by mistake joined: refused,
    /// naming both, rather than made one.
    @Test func remindAddRefusesSeveralQuotedTitles() throws {
        let fake = FakeDaemon(replies: ["AddReminder": #"{"reminder":\#(Fixtures.milk)}"#])
        let result = try Self.run(["remind", "add", "buy eggs", "pay electricity bill"], fake)
        #expect(result.status == 64)
        #expect(result.standardError.contains("\"buy eggs\"") && result.standardError.contains("\"pay electricity bill\""), "\(result.standardError)")
        #expect(fake.calls.isEmpty)
        // One quoted title with a quoted WHEN is one reminder.
        #expect(try Self.run(["remind", "add", "call mom", "tomorrow 7pm"], fake).status == 0)
    }

    /// A time inside the quotes is the title's: the reminder is added as
    /// written, with no due time, and a note says how to have it due, as a
    /// command a shell takes back. A title that only ends in a number, or
    /// one said with its time, gets no note.
    @Test func aTimeInsideTheQuotesIsNotedNotGuessed() throws {
        let fake = FakeDaemon(replies: ["AddReminder": #"{"reminder":\#(Fixtures.milk)}"#])
        let quoted = try Self.run(["remind", "add", "call mum tomorrow at 6pm"], fake)
        #expect(quoted.status == 0, "\(quoted.standardError)")
        #expect(Self.canonical(fake.calls.last?.parameters) == Self.canonical(["title": "call mum tomorrow at 6pm"]))
        #expect(quoted.standardError == "alarmctl: note: \"call mum tomorrow at 6pm\" has no due time; to have it due tomorrow at 6pm, "
                + "put the time after the quotes: alarmctl remind add \"call mum\" tomorrow at 6pm\n")
        let shortcut = try Self.run(["remind", "Pick up Jo's $5 at 3pm"], fake)
        #expect(shortcut.standardError.hasSuffix(": alarmctl remind add 'Pick up Jo'\\''s $5' at 3pm\n"), "\(shortcut.standardError)")
        for words in [["Read chapter 5"], ["call mum", "tomorrow 6pm"], ["Tea at 5pm", "--in", "1h"]] {
            let result = try Self.run(["remind", "add"] + words, fake)
            #expect(result.status == 0 && result.standardError.isEmpty, "\(words): \(result.standardError)")
        }
    }

    /// A repeating reminder is first due on a day its rule has: repeating
    /// on the 1st it is not first due today, on Mondays not on a Thursday,
    /// yearly on 03-14 not today; from --starting, not before.
    @Test func aRepeatingReminderIsFirstDueOnADayItsRuleHas() throws {
        let fake = FakeDaemon(replies: ["AddReminder": #"{"reminder":\#(Fixtures.milk)}"#])
        func due(_ arguments: [String]) throws -> (text: String, date: Date) {
            let result = try Self.run(["remind", "add", "Rent"] + arguments, fake)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            let text = try #require(fake.calls.last?.parameters["due"] as? String, "\(arguments) sent no due")
            return (text, try #require(ISO8601DateFormatter().date(from: text)))
        }
        let now = Date()
        let monthly = try due(["--at", "9:00", "--monthly", "1"])
        #expect(monthly.text.dropFirst(8).hasPrefix("01T09:00:00"), "\(monthly.text)")
        #expect(monthly.date > now && monthly.date.timeIntervalSince(now) < 32 * 86_400)

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let weekly = try due(["--at", "9:00", "--days", "mon"])
        #expect(calendar.component(.weekday, from: weekly.date) == 2, "\(weekly.text) is not a Monday")
        #expect(weekly.date > now && weekly.date.timeIntervalSince(now) <= 7 * 86_400)

        let yearly = try due(["--at", "9:00", "--yearly", "03-14"])
        #expect(yearly.text.dropFirst(4).hasPrefix("-03-14T09:00:00"), "\(yearly.text)")

        let started = try due(["--at", "9:00", "--every", "3d", "--starting", "2031-05-02"])
        #expect(started.text == "2031-05-02T09:00:00+00:00")
        let rule = try #require(fake.calls.last?.parameters["rule"] as? [String: Any])
        #expect(rule["starting"] as? String == "2031-05-02")

        // An all-day one moves the same way.
        _ = try Self.run(["remind", "add", "Rent", "--on", "2031-05-03", "--monthly", "1"], fake)
        #expect(fake.calls.last?.parameters["on"] as? String == "2031-06-01")
    }

    /// `history --since mon` means the last Monday: looking forward it
    /// asked for the future and printed "No history.".
    @Test func historySinceADayLooksBack() throws {
        let fake = FakeDaemon(replies: ["History": #"{"events":[]}"#])
        for (text, within) in [("mon", 7.0), ("yesterday", 2.0), ("fri 9:00", 7.0), ("9:00", 1.0)] {
            let now = Date()
            let result = try Self.run(["history", "--since", text], fake)
            #expect(result.status == 0, "\(text): \(result.standardError)")
            let since = try #require(ISO8601DateFormatter().date(from: fake.calls.last?.parameters["since"] as? String ?? ""), "--since \(text) sent no instant")
            #expect(since <= now && now.timeIntervalSince(since) <= within * 86_400, "--since \(text) asked from \(since)")
        }
    }

    @Test func remindAddInADurationAndAtATimeOfDay() throws {
        let fake = FakeDaemon(replies: ["AddReminder": #"{"reminder":\#(Fixtures.milk)}"#])
        let before = Date()
        _ = try Self.run(["remind", "add", "Tea", "--in", "1h30m"], fake)
        let inDue = try #require(ISO8601DateFormatter().date(from: fake.calls.last?.parameters["due"] as? String ?? ""))
        #expect(abs(inDue.timeIntervalSince(before) - 5400) < 10)

        // A time of day is the next such time: today if still ahead, else tomorrow.
        _ = try Self.run(["remind", "add", "Tea", "--at", "00:00"], fake, zone: "Asia/Tokyo")
        let text = try #require(fake.calls.last?.parameters["due"] as? String)
        #expect(text.hasSuffix("T00:00:00+09:00"))
        let atDue = try #require(ISO8601DateFormatter().date(from: text))
        #expect(atDue > before && atDue.timeIntervalSince(before) <= 86_400)
    }

    /// The daemon resolves what was typed (an id, a prefix or a name);
    /// alarmctl passes it on as typed and says what came back.
    @Test func remindShowAsksForWhatWasTypedAndListsTheCandidatesOfAnAmbiguousOne() throws {
        let fake = FakeDaemon { call in
            switch call.parameters["id"] as? String {
            case "ABCD0002": [#"{"parameters":{"reminder":\#(Fixtures.tax)}}"#]
            case "beef": [#"{"parameters":{"reminder":\#(Fixtures.tea)}}"#]
            case "abcd":
                [#"{"error":"io.alarmd.AmbiguousId","parameters":{"id":"abcd","matches":["abcd0001-0000-4000-8000-000000000011","abcd0002-0000-4000-8000-000000000012"],"titles":["Buy milk","File taxes"],"message":"several"}}"#]
            default: [#"{"error":"io.alarmd.NoSuchItem","parameters":{"id":"ffff","message":"none"}}"#]
            }
        }
        let result = try Self.run(["remind", "show", "ABCD0002"], fake)
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            id:        abcd0002-0000-4000-8000-000000000012
            title:     File taxes
            notes:     forms in the
                       blue folder
            due:       —
            done:      yes
            position:  —
            image:     /home/me/taxes.png
            state:     done
            next:      —
            created:   2026-03-01 Sun 10:00 +00:00
            updated:   2026-03-01 Sun 10:00 +00:00

            """)
        let json = try Self.run(["remind", "show", "beef", "--json"], fake)
        #expect(try Self.json(json.standardOutput) == Self.json(#"{"reminder":\#(Fixtures.tea)}"#))

        let ambiguous = try Self.run(["remind", "show", "abcd"], fake)
        #expect(ambiguous.status == 1)
        #expect(ambiguous.standardError == """
            alarmctl: "abcd" matches several items; name one by its id:
              abcd0001  "Buy milk"
              abcd0002  "File taxes"

            """)
        let missing = try Self.run(["remind", "show", "ffff"], fake)
        #expect(missing.status == 1)
        #expect(missing.standardError == "alarmctl: no reminder with id or name \"ffff\"\n")
        #expect(fake.calls.map(\.method) == Array(repeating: "io.alarmd.GetReminder", count: 4))
    }

    @Test func remindChangesCallTheirMethods() throws {
        let fake = FakeDaemon(replies: [
            "CompleteReminder": #"{"reminder":\#(Fixtures.tax)}"#, "UpdateReminder": #"{"reminder":\#(Fixtures.milk)}"#,
            "RemoveReminder": #"{"id":"abcd0001-0000-4000-8000-000000000011","title":"Buy milk"}"#,
            "MoveReminder": #"{"reminders":[\#(Fixtures.tea),\#(Fixtures.milk)]}"#,
            "ListReminders": #"{"reminders":[\#(Fixtures.milk),\#(Fixtures.tax),\#(Fixtures.tea)]}"#,
            "GetReminder": #"{"reminder":\#(Fixtures.tea)}"#,
        ])
        #expect(try Self.run(["remind", "done", "abcd0002"], fake).standardOutput == "Done: abcd0002 File taxes (no due time)\n")
        // Marking one as it already is writes nothing.
        #expect(try Self.run(["remind", "undone", "abcd0002"], fake).standardOutput.hasPrefix("Still not done: beef0003 Tea"))
        _ = try Self.run(["remind", "edit", "abcd0001", "--title", "Milk", "--no-due", "--no-image"], fake)
        #expect(try Self.run(["remind", "rm", "abcd0001"], fake).standardOutput == "Removed reminder \"Buy milk\" (abcd0001)\n")
        // `top` is position 0; a number counts the open reminders from 1,
        // which the list is asked for first, and the one moved must be open.
        let tea = "beef0003-0000-4000-8000-000000000013"
        let moved = try Self.run(["remind", "move", "beef", "top"], fake)
        #expect(moved.standardOutput.hasPrefix("POS  ID        TITLE     DUE\n  1  beef0003"), "\(moved.standardOutput)")
        _ = try Self.run(["remind", "move", "beef", "2"], fake)
        _ = try Self.run(["remind", "move", "beef", "bottom"], fake)
        let refused = try Self.run(["remind", "move", "beef", "0"], fake)
        #expect(refused.status == 64 && refused.standardError.contains("POSITION must be top, bottom, up, down or a number from 1"))
        #expect(fake.calls.map(\.method) == ["GetReminder", "CompleteReminder", "GetReminder", "UpdateReminder", "RemoveReminder", "ListReminders", "GetReminder",
                                             "MoveReminder", "ListReminders", "GetReminder", "MoveReminder", "ListReminders", "GetReminder",
                                             "MoveReminder"].map { "io.alarmd." + $0 })
        #expect(Self.canonical(fake.calls.map(\.parameters)) == Self.canonical([
            // The write names the reminder the read found, by its whole id.
            ["id": "abcd0002"], ["id": tea, "done": true], ["id": "abcd0002"],
            ["id": "abcd0001", "title": "Milk", "due": "", "imagePath": ""],
            ["id": "abcd0001"], ["all": true], ["id": "beef"], ["id": tea, "position": 0],
            // The 2nd open reminder is Tea, at position 2 of all three (taxes is done).
            ["all": true], ["id": "beef"], ["id": tea, "position": 2], ["all": true], ["id": "beef"], ["id": tea, "position": 2],
        ] as [[String: Any]]))
    }

    // MARK: Ringing, daemon

    @Test func snoozeAndDismissTakeAnOptionalID() throws {
        let fake = FakeDaemon(replies: [
            "Snooze": #"{"id":"beef0003-0000-4000-8000-000000000013","title":"Tea","phase":"snoozed","until":"2030-01-06T16:09:00+00:00","snoozeCount":1}"#,
            "Dismiss": #"{"id":"beef0003-0000-4000-8000-000000000013","title":"Tea"}"#,
        ])
        #expect(try Self.run(["snooze"], fake).standardOutput == "Snoozed \"Tea\" (beef0003) until 2030-01-06 16:09 (snooze 1)\n")
        _ = try Self.run(["snooze", "beef", "--minutes", "3"], fake)
        #expect(try Self.run(["dismiss"], fake).standardOutput == "Dismissed \"Tea\" (beef0003)\n")
        _ = try Self.run(["dismiss", "beef"], fake)
        #expect(Self.canonical(fake.calls.map(\.parameters)) == Self.canonical([[:], ["id": "beef", "minutes": 3], [:], ["id": "beef"]] as [[String: Any]]))
    }

    @Test func statusNextAndSounds() throws {
        let fake = FakeDaemon(replies: [
            "Status": #"{"version":"0.4.0","alarms":3,"reminders":2,"ringing":["5555aaaa-0000-4000-8000-000000000003"],"next":{"id":"1a2b3c4d-0000-4000-8000-000000000001","kind":"alarm","title":"Work","at":"2030-01-07T07:30:00+00:00"},"timeZone":"UTC","wake":{"method":"timerfd","next":"2030-01-07T07:29:00+00:00","reason":null},"linger":null}"#,
            "Upcoming": #"{"firings":[{"id":"1a2b3c4d-0000-4000-8000-000000000001","kind":"alarm","title":"Work","at":"2030-01-07T07:30:00+00:00"},{"id":"abcd0001-0000-4000-8000-000000000011","kind":"reminder","title":"Buy milk","at":"2030-01-07T14:00:30+00:00"}]}"#,
            "ListSounds": #"{"sounds":[{"name":"alarm-clock-elapsed","theme":"freedesktop","path":"/usr/share/sounds/freedesktop/stereo/alarm-clock-elapsed.oga"},{"name":"bell","theme":"freedesktop","path":"/usr/share/sounds/freedesktop/stereo/bell.oga"}]}"#,
        ])
        #expect(try Self.run(["status"], fake).standardOutput == """
            version:    0.4.0
            alarms:     3
            reminders:  2
            ringing:    5555aaaa
            next:       2030-01-07 Mon 07:30  alarm "Work" (1a2b3c4d)
            time zone:  UTC
            wake:       2030-01-07 Mon 07:29 via alarmd's own timer

            """)
        #expect(try Self.run(["next", "--count", "2"], fake).standardOutput == """
            WHEN                  KIND      ID        TITLE
            2030-01-07 Mon 07:30  alarm     1a2b3c4d  Work
            2030-01-07 Mon 14:00  reminder  abcd0001  Buy milk

            """)
        #expect(Self.canonical(fake.calls.last?.parameters) == Self.canonical(["count": 2] as [String: Any]))
        #expect(try Self.run(["sounds"], fake).standardOutput == """
            NAME                 THEME        PATH
            alarm-clock-elapsed  freedesktop  /usr/share/sounds/freedesktop/stereo/alarm-clock-elapsed.oga
            bell                 freedesktop  /usr/share/sounds/freedesktop/stereo/bell.oga

            """)
    }

    @Test func watchPrintsOneLinePerEventAsItArrives() throws {
        let events = [
            #"{"kind":"fired","id":"1a2b3c4d-0000-4000-8000-000000000001","itemKind":"alarm","title":"Work","scheduled":"2030-01-07T07:30:00+00:00","actual":"2030-01-07T07:30:00.003+00:00","snoozeCount":0,"detail":""}"#,
            #"{"kind":"snoozed","id":"1a2b3c4d-0000-4000-8000-000000000001","itemKind":"alarm","title":"Work","scheduled":"2030-01-07T07:30:00+00:00","actual":"2030-01-07T07:31:10+00:00","snoozeCount":1,"detail":""}"#,
            #"{"kind":"completed","id":"abcd0001-0000-4000-8000-000000000011","itemKind":"reminder","title":"Buy milk","scheduled":null,"actual":"2030-01-07T08:00:00+00:00","snoozeCount":0,"detail":"via alarmctl"}"#,
        ]
        let fake = FakeDaemon { call in
            guard call.more else { return [#"{"error":"org.varlink.service.ExpectedMore","parameters":{}}"#] }
            // The real Watch never ends; ending here lets the command finish.
            return events.enumerated().map { index, event in
                #"{"parameters":{"event":\#(event)}"# + (index < events.count - 1 ? #","continues":true}"# : "}")
            }
        }
        let result = try Self.run(["watch"], fake)
        #expect(result.status == 0)
        #expect(result.standardOutput == """
            2030-01-07 07:30:00  fired      1a2b3c4d  Alarm "Work"  (3 ms late)
            2030-01-07 07:31:10  snoozed    1a2b3c4d  Alarm "Work"  (snooze 1)
            2030-01-07 08:00:00  completed  abcd0001  Reminder "Buy milk"  (via alarmctl)

            """)
        let json = try Self.run(["watch", "--json"], fake)
        let lines = json.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(try Self.json(lines[0]) == Self.json(#"{"event":\#(events[0])}"#))
    }

    @Test func anEventThatDoesNotReadIsSaidAndTheWatchGoesOn() throws {
        let fired = #"{"kind":"fired","id":"1a2b3c4d-0000-4000-8000-000000000001","itemKind":"alarm","title":"Work","scheduled":"2030-01-07T07:30:00+00:00","actual":"2030-01-07T07:30:00+00:00","snoozeCount":0,"detail":""}"#
        let fake = FakeDaemon { call in
            guard call.more else { return [#"{"error":"org.varlink.service.ExpectedMore","parameters":{}}"#] }
            return [#"{"parameters":{"event":3},"continues":true}"#, #"{"parameters":{"event":\#(fired)}}"#]
        }
        let result = try Self.run(["watch"], fake)
        #expect(result.status == 0)
        #expect(result.standardError == "alarmctl: alarmd sent a reply alarmctl cannot read: event must be an object, got a number\n")
        #expect(result.standardOutput == "2030-01-07 07:30:00  fired      1a2b3c4d  Alarm \"Work\"  (on time)\n")
    }

    @Test func exportWritesTheDocumentAndImportSendsItBack() throws {
        let document = #"{"format":"alarmd","version":1,"alarms":[{"id":"1a2b3c4d-0000-4000-8000-000000000001","time":"07:30"}],"reminders":[]}"#
        let reply = #"{"alarms":1,"reminders":0,"added":1,"updated":0,"removed":0,"changes":[{"change":"added","id":"1a2b3c4d-0000-4000-8000-000000000001","itemKind":"alarm","title":"Alarm"}]}"#
        let fake = FakeDaemon(replies: ["Export": #"{"document":\#(document)}"#, "Import": reply])
        let stdout = try Self.run(["export"], fake)
        #expect(stdout.standardOutput == document + "\n")

        let path = fake.directory + "/backup.json"
        let toFile = try Self.run(["export", path], fake)
        #expect(toFile.standardOutput == "Exported 1 alarm and 0 reminders to \(path)\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == document + "\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let imported = try Self.run(["import", path], fake)
        #expect(imported.status == 0)
        #expect(imported.standardOutput == "Added alarm \"Alarm\" (1a2b3c4d)\nImported: 1 added, 0 updated, 0 removed\n")
        #expect(Self.canonical(fake.calls.last?.parameters["document"]) == (try Self.json(document)))
        #expect(fake.calls.last?.parameters["mode"] as? String == "merge")

        let fromStdin = try Self.run(["import", "-", "--json"], fake, input: Data(document.utf8))
        #expect(try Self.json(fromStdin.standardOutput) == (try Self.json(reply)))
        #expect(Self.canonical(fake.calls.last?.parameters["document"]) == (try Self.json(document)))
        // What `export --json` prints imports as it is.
        _ = try Self.run(["import", "-"], fake, input: Data(#"{"document":\#(document)}"#.utf8))
        #expect(Self.canonical(fake.calls.last?.parameters["document"]) == (try Self.json(document)))
    }

    // MARK: Errors

    /// `--json` prints what the daemon sent as it is, even a reply the
    /// command itself could not read.
    @Test func jsonShowsEvenAReplyThatDoesNotRead() throws {
        let reply = #"{"alarms":[3],"extra":true}"#
        let fake = FakeDaemon(replies: ["ListAlarms": reply])
        let json = try Self.run(["list", "--json"], fake)
        #expect(json.status == 0)
        #expect(try Self.json(json.standardOutput) == Self.json(reply))
        #expect(try Self.run(["list"], fake).status == 1)
    }

    @Test(arguments: [
        (#"{"error":"io.alarmd.NoSuchItem","parameters":{"id":"abcd"}}"#, ["snooze", "abcd"], "no alarm or reminder with id or name \"abcd\""),
        (#"{"error":"io.alarmd.NoSuchItem","parameters":{"id":"abcd"}}"#, ["show", "abcd"], "no alarm with id or name \"abcd\""),
        (#"{"error":"io.alarmd.NoSuchItem","parameters":{"id":"abcd"}}"#, ["remind", "done", "abcd"], "no reminder with id or name \"abcd\""),
        (#"{"error":"io.alarmd.AmbiguousId","parameters":{"id":"ab12","matches":["ab12cd34-0000-4000-8000-000000000001","ab12ef56-0000-4000-8000-000000000002"]}}"#,
         ["show", "ab12"], "\"ab12\" matches several items; name one by its id:\n  ab12cd34\n  ab12ef56"),
        (#"{"error":"io.alarmd.InvalidParameter","parameters":{"parameter":"fields.label","message":"fields.label must not contain control characters, got \"bad\\u{7}\""}}"#,
         ["add", "7:30", "--label", "bad\u{7}"], "--label must not contain control characters, got \"bad\\u{7}\""),
        (#"{"error":"io.alarmd.InvalidParameter","parameters":{"parameter":"label","message":"is too long"}}"#, ["add", "7:30"], "label: is too long"),
        (#"{"error":"io.alarmd.NotRinging","parameters":{"message":"nothing is ringing","ringing":[]}}"#, ["dismiss"], "nothing is ringing"),
        (#"{"error":"io.alarmd.NotRinging","parameters":{"ringing":[]}}"#, ["dismiss"], "nothing is ringing"),
        (#"{"error":"io.alarmd.SnoozeNotAllowed","parameters":{"id":"beef","message":"snooze is off for alarm \"Run\""}}"#, ["snooze"], "snooze is off for alarm \"Run\""),
        (#"{"error":"io.alarmd.SnoozeNotAllowed","parameters":{"id":"beef"}}"#, ["snooze", "beef"], "alarm or reminder \"beef\" may not be snoozed now"),
        (#"{"error":"io.alarmd.StoreFailure","parameters":{"message":"disk I/O error"}}"#, ["rm", "abcd"], "disk I/O error"),
        (#"{"error":"io.alarmd.StoreFailure","parameters":{}}"#, ["rm", "abcd"], "alarmd could not save the change; nothing was changed"),
        (#"{"error":"org.varlink.service.MethodNotFound","parameters":{"method":"io.alarmd.ListSounds"}}"#, ["sounds"], "this alarmd does not offer"),
        (#"{"error":"io.alarmd.Frobnicated","parameters":{"why":"because"}}"#, ["list"], "io.alarmd.Frobnicated (why=\"because\")"),
        (#"not json"#, ["list"], "alarmd sent a reply alarmctl cannot read: the reply is not valid JSON"),
        // A reply that is not its method's names the member.
        (#"{"parameters":{"alarms":[3]}}"#, ["list"], "alarmd sent a reply alarmctl cannot read: alarms[0] must be an object, got a number"),
        (#"{"parameters":{}}"#, ["sounds"], "alarmd sent a reply alarmctl cannot read: sounds is required"),
        (#"{"parameters":{"path":"/x.oga","volume":"loud"}}"#, ["sounds", "--play", "bell"], "alarmd sent a reply alarmctl cannot read: volume must be a whole number, got \"loud\""),
    ])
    func daemonErrorsAreExit1WithOneSentence(reply: String, arguments: [String], message: String) throws {
        let fake = FakeDaemon { _ in [reply] }
        let result = try Self.run(arguments, fake)
        #expect(result.status == 1)
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("alarmctl: " + message), "stderr was: \(result.standardError)")
        #expect(result.standardError.filter { $0 == "\n" }.count == 1 + message.filter { $0 == "\n" }.count)
    }
}

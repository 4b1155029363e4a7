// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import Testing
@testable import AlarmCLI
import AlarmCore
import AlarmProtocol
import AlarmViewModels

/// The pure parts of alarmctl, in-process with a fixed clock and zone.
@Suite struct WhenParserTests {
    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test(arguments: [
        // A time of day still ahead today is today…
        ("13:00", "UTC", "2026-03-07T12:00:00Z", "2026-03-07T13:00:00Z"),
        // …one already passed, or exactly now, is tomorrow.
        ("11:00", "UTC", "2026-03-07T12:00:00Z", "2026-03-08T11:00:00Z"),
        ("12:00", "UTC", "2026-03-07T12:00:00Z", "2026-03-08T12:00:00Z"),
        ("7pm", "Asia/Tokyo", "2026-03-07T12:00:00Z", "2026-03-08T10:00:00Z"),
        // Tomorrow's 02:30 in New York falls in the spring-forward gap: 03:30 EDT, as alarms do.
        ("2:30am", "America/New_York", "2026-03-07T17:00:00Z", "2026-03-08T07:30:00Z"),
        // Dates: local in the zone, or with their own offset.
        ("2026-03-09 14:00", "Europe/Berlin", "2026-03-07T12:00:00Z", "2026-03-09T13:00:00Z"),
        ("2026-03-09T14:00:00-05:00", "Europe/Berlin", "2026-03-07T12:00:00Z", "2026-03-09T19:00:00Z"),
    ])
    func instants(text: String, zone: String, now: String, expected: String) throws {
        let result = try WhenParser.instant(text, option: "--at", now: Self.date(now), zone: Zone(identifier: zone)!)
        #expect(result == Self.date(expected))
    }

    @Test func durationsCountFromNowInWholeSeconds() throws {
        let now = Date(timeIntervalSince1970: 1_000_000_000.4)
        #expect(try WhenParser.delay("1h30m", option: "--in", now: now) == Date(timeIntervalSince1970: 1_000_005_400))
        #expect(try WhenParser.delay("1h 30m", option: "--in", now: now) == Date(timeIntervalSince1970: 1_000_005_400))
        #expect(try WhenParser.delay("now", option: "--in", now: now) == Date(timeIntervalSince1970: 1_000_000_000))
        #expect(throws: CLIError.usage("--in must be a duration like 90s, 20m, 20min, 20 minutes, 1h30m, 1h 30m, 1.5h, 2d or 1w, or now, got \"soon\"")) {
            try WhenParser.delay("soon", option: "--in", now: now)
        }
    }

    /// Everyday words for `--at` and `history --since`, from Wednesday
    /// 2026-12-02 10:00 in Taipei (02:00 UTC).
    @Test(arguments: [
        ("in 25 min", false, "2026-12-02T02:25:00Z"), ("in 1h", false, "2026-12-02T03:00:00Z"), ("25分鐘後", false, "2026-12-02T02:25:00Z"),
        ("next tue 2pm", false, "2026-12-08T06:00:00Z"), ("tue 2pm", false, "2026-12-08T06:00:00Z"), ("dec 24 9am", false, "2026-12-24T01:00:00Z"),
        ("1st of month 8:00", false, "2027-01-01T00:00:00Z"), ("明天早上7點", false, "2026-12-02T23:00:00Z"), ("下週二下午2點", false, "2026-12-08T06:00:00Z"),
        ("yesterday", true, "2026-11-30T16:00:00Z"), ("mon", true, "2026-11-29T16:00:00Z"), ("2h ago", true, "2026-12-02T00:00:00Z"),
        ("昨天", true, "2026-11-30T16:00:00Z"),
    ])
    func spokenInstants(text: String, lookingBack: Bool, expected: String) throws {
        let result = try WhenParser.instant(text, option: "--at", now: Self.date("2026-12-02T02:00:00Z"), zone: Zone(identifier: "Asia/Taipei")!, lookingBack: lookingBack)
        #expect(result == Self.date(expected), "\(text)")
    }

    /// What `add`'s TIME becomes: the time, and the repeat or the one day.
    /// Wednesday 2026-12-02 10:00:40 in Taipei.
    @Test(arguments: [
        ("in 25 min", "10:26", nil as String?, "once 2026-12-02" as String?), ("in 10 s", "10:01", nil, "once 2026-12-02"),
        ("in 14h", "00:01", nil, "once 2026-12-03"), ("next tue 2pm", "14:00", nil, "once 2026-12-08"),
        ("weekdays at 7", "07:00", "weekdays", nil), ("every monday 7:00", "07:00", "mon", nil), ("7am every day", "07:00", "daily", nil),
        ("每天早上7點", "07:00", "daily", nil), ("平日 7:00", "07:00", "weekdays", nil), ("每週一 7:00", "07:00", "mon", nil),
        ("every 2 weeks on fri 9:00", "09:00", nil, "Every 2 weeks on Fri"), ("every 3 days 8:00", "08:00", nil, "Every 3 days"),
        ("7:30 mon wed fri", "07:30", "mon,wed,fri", nil), ("every mon, wed and fri 6:45", "06:45", "mon,wed,fri", nil), ("fri 9:00", "09:00", nil, "once 2026-12-04"),
    ])
    func alarmTimesInWords(text: String, time: String, days: String?, rule: String?) throws {
        let spec = AlarmCommands.add.spec
        let arguments = try ParsedArguments(["x"], spec: spec)
        var fields = AlarmFields()
        try AlarmFieldOptions.readTime(text, field: "TIME", into: &fields, arguments, zone: Zone(identifier: "Asia/Taipei")!, now: Self.date("2026-12-02T02:00:40Z"))
        #expect(fields.time?.description == time, "\(text)")
        #expect(fields.days.map { $0.codes.joined(separator: ",") } == days.map { try! RepeatDays.parse($0).codes.joined(separator: ",") }, "\(text)")
        let described: String? = switch fields.rule {
        case .some(.some(let rule)) where rule.end == .count(1) && rule.interval == 1: "once " + RecurrenceRule.dateText(rule.start)
        case .some(.some(let rule)): rule.displayText
        default: nil
        }
        #expect(described == rule, "\(text)")
    }

    /// `skip work next week`: Monday to Sunday of the week after this one,
    /// or the days of it named with it; Wednesday 2026-12-02.
    @Test func nextWeekIsTheWeekAfterThisOne() throws {
        let today = try #require(CivilTime.dayNumber(isoDate: "2026-12-02"))
        let week = try #require(try SkipCommands.nextWeek("next week", field: "DAYS", today: today))
        #expect(week == Set(today + 5...today + 11))
        #expect(try SkipCommands.nextWeek("mon-fri next week", field: "DAYS", today: today) == Set(today + 5...today + 9))
        #expect(try SkipCommands.nextWeek("next week weekends", field: "DAYS", today: today) == [today + 10, today + 11])
        #expect(try SkipCommands.nextWeek("下週", field: "DAYS", today: today) == week)
        // On a Sunday, next week starts the day after.
        #expect(try SkipCommands.nextWeek("next week", field: "DAYS", today: today + 4)?.min() == today + 5)
        #expect(try SkipCommands.nextWeek("tomorrow", field: "DAYS", today: today) == nil)
    }

    @Test func badInstantsNameTheOption() {
        let zone = Zone.utc
        #expect(throws: CLIError.usage("--at must have an hour of 0–23, got \"24:00\"")) {
            try WhenParser.instant("24:00", option: "--at", now: Date(), zone: zone)
        }
        #expect(throws: CLIError.usage("--at must have a month of 01–12, got \"2026-13-01\"")) {
            try WhenParser.instant("2026-13-01", option: "--at", now: Date(), zone: zone)
        }
    }
}

@Suite struct OutputPieceTests {
    static func context(now: String = "2026-03-09T10:00:00Z", zone: String = "Europe/Berlin", terminal: Bool = false, environment: [String: String] = [:]) -> CommandContext {
        CommandContext(environment: environment, now: WhenParserTests.date(now), systemZone: Zone(identifier: zone)!, isTerminal: terminal,
                       standardOutput: { _ in }, standardError: { _ in })
    }

    /// After a change, when the alarm rings, from now, as a phone says it.
    @Test func comingTimesSayHowLongFromNow() {
        let time = TimeText(Self.context())
        #expect(time.coming("2026-03-09T18:05:30Z") == "in 8 h 5 min (Mon 19:05)")
        #expect(time.coming("2026-03-10T06:30:00Z") == "in 20 h 30 min (Tue 07:30)")
        #expect(time.coming("2026-03-12T12:00:00Z") == "in 3 d 2 h (Thu 13:00)")
        #expect(time.coming("2026-03-09T10:00:45Z") == "in less than a minute (Mon 11:00)")
        #expect(time.coming("2026-03-20T06:30:00Z") == "Fri, Mar 20 07:30", "beyond the coming week, the date")
        #expect(DurationText.countdown(0, in: .source) == "0 s")
        #expect(DurationText.countdown(1255.2, in: .source) == "20 min 56 s")
        #expect(DurationText.countdown(300, in: .source) == "5 min")
        #expect(DurationText.countdown(86_400, in: .source) == "1 d")
        #expect(DurationText.countdown(5400, in: .source) == "1 h 30 min")
    }

    /// Words that all read as a day and a time are refused as a whole when
    /// it has passed, never split into a label and a time: at 19:00, `add
    /// this evening` is no alarm labelled "this" at 18:00 tomorrow.
    @Test func aDayAndTimeThatHasPassedIsNoLabel() {
        let errors = Mutex("")
        var context = Self.context(now: "2026-03-09T18:00:00Z")
        context.standardError = { text in errors.withLock { $0 += text } }
        context.environment["ALARMD_SOCKET"] = "/nonexistent/alarmd.socket"
        #expect(AlarmControl.run(["add", "this", "evening"], context: context) == 64)
        #expect(errors.withLock { $0 } == "alarmctl: TIME \"this evening\" has passed (2026-03-09 18:00); give a time still to come\n")
    }

    @Test func nextTimesAreShortWithinTheComingWeek() {
        let time = TimeText(Self.context())
        #expect(time.short("2026-03-10T06:30:00Z") == "Tue 07:30")
        #expect(time.short("2026-03-15T06:30:00+00:00") == "Sun 07:30")
        // A weekday first within the coming year, so NEXT reads as one column.
        #expect(time.short("2026-03-16T06:30:00Z") == "Mon, Mar 16 07:30")
        #expect(time.short("2026-12-24T06:30:00Z") == "Thu, Dec 24 07:30")
        #expect(time.short("2027-03-16T06:30:00Z") == "2027-03-16 07:30", "a year or so ahead, the full date")
        #expect(time.short("2026-03-01T06:30:00Z") == "2026-03-01 07:30", "past, the full date")
        #expect(time.short(nil) == "—")
        #expect(time.dateTime("2026-03-09T13:00:00Z") == "2026-03-09 14:00")
        #expect(time.full("2026-03-29T01:00:00Z") == "2026-03-29 Sun 03:00 +02:00")
    }

    @Test func colourOnlyOnATerminalWithoutNoColor() {
        #expect(Style(Self.context(terminal: true)).bold("x") == "\u{1B}[1mx\u{1B}[0m")
        // Empty is unset, as no-color.org and alarmctl ui read it.
        #expect(Style(Self.context(terminal: true, environment: ["NO_COLOR": ""])).dim("x") == "\u{1B}[2mx\u{1B}[0m")
        #expect(Style(Self.context(terminal: true, environment: ["NO_COLOR": "1"])).bold("x") == "x")
        #expect(Style(Self.context(terminal: false)).bold("x") == "x")
    }

    @Test func tablesAlignAndLeaveNoTrailingSpaces() {
        let table = Table(header: ["N", "NAME", "NOTE"], rows: [["1", "a", ""], ["10", "bbb", "x"]], rightAligned: [0])
        #expect(table.lines == [" N  NAME  NOTE", " 1  a", "10  bbb   x"])
    }

    @Test func disabledAlarmsAreDimAndRingingOnesBoldOnATerminal() {
        let format = ItemFormat(Self.context(terminal: true))
        let off = AlarmView(ReplyObject(["id": "11112222-x", "time": "07:30", "days": [], "label": "A", "enabled": false, "phase": "waiting"]))
        let ringing = AlarmView(ReplyObject(["id": "33334444-x", "time": "08:00", "days": [], "label": "B", "enabled": true, "phase": "ringing"]))
        let lines = format.alarmTable([off, ringing]).split(separator: "\n").map(String.init)
        #expect(lines[0] == "ID        TIME   LABEL, REPEAT  ON/OFF  NEXT")
        #expect(lines[1] == "\u{1B}[2m11112222  07:30  A              off     —\u{1B}[0m")
        #expect(lines[2] == "\u{1B}[1m33334444  08:00  B              on      —  ringing\u{1B}[0m")
    }

    /// At 60 columns every row stays one line: the label is cut first (to
    /// 12 columns while that is enough, further when not), and only a line
    /// still too wide is cut at its end; the other columns keep their place.
    @Test func aNarrowTerminalCutsAndNeverWraps() {
        var context = Self.context(terminal: false)
        context.terminalColumns = 60
        let format = ItemFormat(context)
        func alarm(_ id: String, _ label: String, days: [String], skip: Bool = false, paused: String? = nil) -> AlarmView {
            var object: JSONObject = ["id": .string(id), "time": "07:30", "days": .array(days.map(JSONValue.string)), "repeat": "Weekdays", "label": .string(label),
                                      "enabled": true, "phase": "waiting", "next": "2026-03-10T06:30:00Z", "skipNext": .bool(skip)]
            if let paused { object["pausedUntil"] = .string(paused) }
            return AlarmView(ReplyObject(object))
        }
        let alarms = [alarm("11112222-x", "Work", days: ["mon", "tue", "wed", "thu", "fri"]),
                      alarm("33334444-x", "Early train to the airport", days: ["mon", "tue", "wed", "thu", "fri"], skip: true, paused: "2026-03-20")]
        let lines = format.alarmTable(alarms).split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        for line in lines { #expect(DisplayWidth.of(line) <= 60, "\(DisplayWidth.of(line)): \(line)") }
        #expect(lines[1].hasPrefix("11112222  07:30  Work,"), "\(lines[1])")
        #expect(lines[2].hasPrefix("33334444  07:30  Early"), "\(lines[2])")
        #expect(lines[2].contains("…  on "), "the label is cut, the switch stays: \(lines[2])")
        // Wide enough, nothing is cut.
        context.terminalColumns = 200
        #expect(!ItemFormat(context).alarmTable(alarms).contains("…"))
    }

    /// A note after the last column's value (`paused until …`) is what the
    /// end of a line cuts, never the value: the label gives up the room.
    @Test func theEndOfALineCutsTheNoteNotTheTime() {
        let table = Table(header: ["LABEL", "NEXT"], rows: [["A label that is long", "Mon, Dec 14 07:30  paused until Dec 14"]],
                          maxWidth: 31, shrinkable: 0, lastColumnOwed: DisplayWidth.of("Mon, Dec 14 07:30"))
        let lines = table.lines
        #expect(lines[1] == "A label …  Mon, Dec 14 07:30  …", "\(lines)")
        for line in lines { #expect(DisplayWidth.of(line) <= 31, "\(line)") }
    }

    @Test func socketPathPrecedence() {
        #expect(SocketPath.resolve(option: "/a", environment: ["ALARMD_SOCKET": "/b", "XDG_RUNTIME_DIR": "/c"], userID: 7) == "/a")
        #expect(SocketPath.resolve(option: nil, environment: ["ALARMD_SOCKET": "/b", "XDG_RUNTIME_DIR": "/c"], userID: 7) == "/b")
        #expect(SocketPath.resolve(option: nil, environment: ["XDG_RUNTIME_DIR": "/c"], userID: 7) == "/c/alarmd/io.alarmd")
        #expect(SocketPath.resolve(option: nil, environment: [:], userID: 7) == "/run/user/7/alarmd/io.alarmd")
    }
}

/// alarmctl copies only the environment variables it names into its context;
/// a variable read anywhere else in its sources would always be unset.
@Suite struct EnvironmentVariableTests {
    @Test func everyVariableTheSourcesReadIsCopied() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/AlarmCLI").standardized.path
        var read: Set<String> = []
        for file in try FileManager.default.subpathsOfDirectory(atPath: sources) where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for match in text.matches(of: #/environment\["([A-Z_]+)"\]/#) { read.insert(String(match.output.1)) }
        }
        #expect(read.count >= 2, "found \(read.sorted())")
        #expect(read.isSubset(of: Set(CommandContext.variables)), "read but not copied: \(read.subtracting(CommandContext.variables).sorted())")
    }

    /// The socket path's variables are read in AlarmCore (XDGPaths), out of
    /// the scan's sight: the copied ones alone must give the same path.
    @Test func theSocketPathNeedsOnlyCopiedVariables() {
        let full = ["XDG_RUNTIME_DIR": "/r", "HOME": "/h", "XDG_STATE_HOME": "/s", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d"]
        for environment in [full, full.merging(["ALARMD_SOCKET": "/a"]) { $1 }] {
            let copied = environment.filter { CommandContext.variables.contains($0.key) }
            #expect(SocketPath.resolve(option: nil, environment: copied, userID: 7) == SocketPath.resolve(option: nil, environment: environment, userID: 7))
        }
    }
}

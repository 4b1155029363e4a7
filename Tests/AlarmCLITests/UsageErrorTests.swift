// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Command lines alarmctl refuses before it ever connects: exit 64, nothing on
/// stdout, one message naming the option or argument and the value.
@Suite struct UsageErrorTests {
    /// Every case points at a socket that does not exist: reaching for it would
    /// be exit 69, so exit 64 also proves the socket was never touched.
    static let nowhere = "/nonexistent/alarmd/io.alarmd"

    @Test(arguments: [
        (["add", "25:00"], "TIME must have an hour of 0–23, got \"25:00\""),
        (["add", "7:61"], "TIME must have minutes of 00–59, got \"7:61\""),
        (["add", "soon"], "TIME must be a time, or a day and a time: a time (7:30, 7am, noon, 下午2點), a day (tomorrow, fri, next tue, dec 24, 1st, 2026-12-24, 明天), or both (tomorrow 7:30, next tue at 2pm), got \"soon\""),
        (["add", "7:30", "--days", "funday"], "--days must be day names"),
        (["add", "7:30", "--days", ""], "--days must name days"),
        (["add", "7:30", "--snooze", "0"], "--snooze must be 1–60, got 0"),
        (["add", "7:30", "--snooze", "5", "--no-snooze"], "--snooze and --no-snooze cannot be used together"),
        (["add", "7:30", "--max-snoozes", "x"], "--max-snoozes must be 0–100, got \"x\""),
        (["add", "7:30", "--ring", "2h"], "--ring must be 1–3600 seconds, got 2h"),
        (["add", "7:30", "--ring", "loud"], "--ring must be seconds (1–3600) or a duration like 5m, got \"loud\""),
        (["add", "7:30", "--volume", "0"], "--volume must be a percentage from 1 to 100, got \"0\""),
        (["add", "7:30", "--volume", "loud"], "--volume must be a percentage from 1 to 100, got \"loud\""),
        (["add", "7:30", "--volume", "default"], "--volume must be a percentage from 1 to 100, got \"default\""),
        (["edit", "abcd", "--volume", "101%"], "--volume must be a percentage from 1 to 100, or default, got \"101%\""),
        (["add", "7:30", "--fade", "6m"], "--fade must be 0 (no fade) or a duration up to 5m such as 30s or 1m30s, got \"6m\""),
        (["add", "7:30", "--fade", "99999999999999999999"], "--fade must be 0 (no fade) or a duration up to 5m"),
        (["edit", "abcd", "--fade", "slow"], "--fade must be 0 (no fade) or a duration up to 5m such as 30s or 1m30s, or default, got \"slow\""),
        (["add", "7:30", "--tz", "Mars/Olympus"], "--tz must be an IANA time zone such as Europe/Berlin, got \"Mars/Olympus\""),
        (["add", "7:30", "--tz", ""], "--tz must be an IANA time zone"),
        (["add", "7:30", "--enabled"], "add: unknown option --enabled"),
        (["add"], "add: give the TIME it rings, or --in DURATION"),
        (["add", "7:00", "--lable", "x"], "add: unknown option --lable; did you mean --label?"),
        (["lsit"], "unknown command \"lsit\"; did you mean list?"),
        (["add", "7", "30", "gym"], "add: \"30\" after the hour 7 reads as minutes: write the time as H:MM (7:30), or give the label with --label"),
        (["add", "tomorrow", "6", "5", "run"], "add: \"5\" after the hour 6 reads as minutes: write the time as H:MM (6:05), or give the label with --label"),
        (["add", "7", "30", "weekdays"], "add: \"30\" after the hour 7 reads as minutes: write the time as H:MM (7:30), or give the label with --label"),
        (["add", "7:00", "--help=x"], "add: --help takes no value"),
        (["add", "7:30", "--days", "mon,fri-weekdys"], "unknown item \"fri-weekdys\", got \"mon,fri-weekdys\"\n"),
        (["add", "7:00", "--hlep"], "add: unknown option --hlep; did you mean --help?"),
        (["add", "7:30", "--days", "mnday"], "--days must be day names (mon or monday), ranges like mon-fri or Mon..Fri, weekdays, weekends, daily or never, got \"mnday\" (did you mean monday?)"),
        (["add", "7:30", "--days", "wekdays"], "--days must be day names (mon or monday), ranges like mon-fri or Mon..Fri, weekdays, weekends, daily or never, got \"wekdays\" (did you mean weekdays?)"),
        (["add", "7:30", "--days", "mon,Fri-Sundy"], "--days must be day names (mon or monday), ranges like mon-fri or Mon..Fri, weekdays, weekends, daily or never; unknown item \"Fri-Sundy\", got \"mon,Fri-Sundy\" (did you mean sunday?)"),
        (["add", "7:00", "--in", "5m"], "add: give TIME or --in, not both"),
        (["add", "every blue moon"], "TIME must be a repeat such as every day, weekdays, weekends, every mon, every 2 weeks on fri, every 3 days, every month on the 1st or every year on mar 12, with a time, got \"every blue moon\""),
        (["add", "weekdays 7:00", "--days", "mon"], "TIME \"weekdays 7:00\" says how it repeats, so --days and the repeat options cannot go with it"),
        (["add", "every mon tomorrow 7:00"], "TIME \"every mon tomorrow 7:00\" names a repeat and a day; give one of them"),
        (["add", "in 5 min", "--days", "mon"], "TIME \"in 5 min\" is one moment from now: a one-off alarm, so --days and the repeat options cannot go with it"),
        (["pause", "1a2b", "--for", "36h"], "--for must be whole days or weeks (3d, 1w), got \"36h\""),
        (["pause", "1a2b", "--until", "mon 7:00"], "--until is a day, without a time, got \"mon 7:00\""),
        (["pause", "1a2b", "--from", "2030-01-05", "--until", "2030-01-05"], "--until must be after --from (2030-01-05)"),
        (["skip", "1a2b", "2030-01-09..2030-01-07"], "DAYS must be a range from its first day to its last, at most a year long, got \"2030-01-09..2030-01-07\""),
        (["pause", "1a2b", "--until", "mon", "--for", "1w"], "pause: --until and --for cannot be used together"),
        (["pause", "1a2b"], "pause: give the day the alarms ring again (--until DAY), how long they stay quiet (--for DURATION) or next week; --from DAY starts it later, --all pauses every alarm"),
        (["edit", "abcd"], "edit: nothing to change"),
        (["edit", "abcd", "--time", "24:00"], "--time must have an hour of 0–23, got \"24:00\""),
        (["edit", "abcd", "--enabled", "--disabled"], "--enabled and --disabled cannot be used together"),
        (["show"], "show: ID is missing (usage: alarmctl show ID [OPTIONS]; see alarmctl show --help)"),
        // After an id, a second word is no part of a name.
        (["show", "1a2b", "b"], "show: unexpected argument \"b\" (usage: alarmctl show ID [OPTIONS]; see alarmctl show --help)"),
        (["rm"], "rm: ID is missing"),
        (["enable"], "enable: give the alarms' ids, or --all"),
        (["snooze", "--minutes", "61"], "--minutes must be whole minutes, 1–60: 5, 5m or 10 minutes, got \"61\""),
        (["snooze", "--minutes", "90s"], "--minutes must be whole minutes, 1–60: 5, 5m or 10 minutes, got \"90s\""),
        (["next", "--count", "0"], "--count must be 1–1000, got 0"),
        (["list", "extra"], "list: unexpected argument \"extra\""),
        (["list", "--bogus"], "list: unknown option --bogus"),
        (["remind", "add", "Tea", "--at", "teatime"], "--at must be a time (7:30, 7am, noon, 下午2點), a day (tomorrow, fri, next tue, dec 24, 1st, 2026-12-24, 明天), or both (tomorrow 7:30, next tue at 2pm), got \"teatime\""),
        (["remind", "add", "Tea", "--at", "2026-02-30 10:00"], "--at must have a day that exists in that month, got \"2026-02-30 10:00\""),
        (["remind", "add", "Tea", "--at", "25:00"], "--at must have an hour of 0–23, got \"25:00\""),
        (["remind", "add", "Tea", "--in", "5 parsecs"], "--in must be a duration like 90s, 20m, 20min, 20 minutes, 1h30m, 1h 30m, 1.5h, 2d or 1w, or now, got \"5 parsecs\""),
        (["remind", "add", "Tea", "--in", "0s"], "--in must be longer than zero, got \"0s\""),
        // Once a SIGILL (an overflow trap), once a confusing refusal from the daemon.
        (["remind", "add", "x", "--in", "300000000d"], "alarmctl: --in must be at most 36500 days (100 years), got \"300000000d\""),
        (["remind", "add", "x", "--in", "2914000d"], "alarmctl: --in must be at most 36500 days (100 years), got \"2914000d\""),
        (["remind", "edit", "abcd", "--in", "99999999999999999999d"], "--in must be at most 36500 days (100 years)"),
        (["remind", "add", "x", "--at", "99999-01-01"], "--at must be a time (7:30, 7am, noon, 下午2點), a day (tomorrow, fri, next tue, dec 24, 1st, 2026-12-24, 明天), or both (tomorrow 7:30, next tue at 2pm), got \"99999-01-01\""),
        (["remind", "add", "x", "--at", "9999-12-31T23:59:59-01:00"], "--at must lie between the years 0001 and 9999 in UTC"),
        (["remind", "add", "Tea", "--at", "14:00", "--in", "1h"], "--at and --in cannot be used together"),
        (["remind", "add"], "remind add: TITLE is missing"),
        (["remind", "edit", "abcd"], "remind edit: nothing to change"),
        (["remind", "edit", "abcd", "--in", "1h", "--no-due"], "--in and --no-due cannot be used together"),
        (["remind", "edit", "abcd", "--image", "a.png", "--no-image"], "--image and --no-image cannot be used together"),
        (["remind", "move", "abcd", "middle"], "POSITION must be top, bottom, up, down or a number from 1 (the top), got \"middle\""),
        (["remind", "move", "abcd", "-1"], "POSITION must be top, bottom, up, down or a number from 1 (the top), got \"-1\""),
        (["remind", "move", "abcd"], "remind move: POSITION is missing"),
        (["remind", "lsit"], "unknown command \"remind lsit\"; did you mean remind list?"),
        (["frobnicate"], "unknown command \"frobnicate\"; run 'alarmctl --help'"),
        (["label", "1a2b", "Brunch"], "unknown command \"label\"; to do that, run alarmctl edit ID --label TEXT"),
        (["rename", "1a2b"], "rename: NAME is missing"),
        (["todo", "dnoe"], "unknown command \"todo dnoe\"; did you mean remind done?"),
        (["--bogus", "list"], "unknown option --bogus before the command"),
        (["--socket"], "--socket needs a value (PATH)"),
        (["list", "--socket", "/a", "--socket", "/b"], "--socket given more than once"),
        (["--socket", "/a", "list", "--socket", "/b"], "--socket given more than once"),
        (["--socket", "/a", "remind", "--socket", "/b", "list"], "--socket given more than once"),
        (["import"], "import: FILE is missing"),
    ])
    func isRefusedWithExit64(arguments: [String], message: String) throws {
        let result = try BinaryRunner.alarmctl(arguments, socket: Self.nowhere)
        #expect(result.status == 64, "stderr: \(result.standardError)")
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("alarmctl: "))
        #expect(result.standardError.contains(message), "stderr was: \(result.standardError)")
        #expect(result.standardError.filter { $0 == "\n" }.count == 1, "one line: \(result.standardError)")
    }

    @Test func noArgumentsPrintsTheUsageOnStderr() throws {
        let result = try BinaryRunner.alarmctl([], socket: Self.nowhere)
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("Usage: alarmctl [--socket PATH] COMMAND [OPTIONS]\n"))
    }

    @Test func bareRemindPrintsItsSubcommandsOnStderr() throws {
        let result = try BinaryRunner.alarmctl(["remind"], socket: Self.nowhere)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("Usage: alarmctl remind SUBCOMMAND [OPTIONS]\n"))
    }

    @Test func anImportFileThatIsNotJSONIsADataError() throws {
        let fake = FakeDaemon(replies: [:])
        let path = fake.directory + "/broken.json"
        try Data("{\"format\": ".utf8).write(to: URL(fileURLWithPath: path))
        let result = try BinaryRunner.alarmctl(["import", path], socket: fake.socketPath)
        #expect(result.status == 65)
        #expect(result.standardError.hasPrefix("alarmctl: \(path) is not a JSON document: unexpected end of input at byte "))
        let missing = try BinaryRunner.alarmctl(["import", fake.directory + "/none.json"], socket: fake.socketPath)
        #expect(missing.status == 66)
        #expect(missing.standardError == "alarmctl: cannot read \(fake.directory)/none.json: No such file or directory\n")
        #expect(fake.calls.isEmpty, "nothing reached the daemon")
    }
}

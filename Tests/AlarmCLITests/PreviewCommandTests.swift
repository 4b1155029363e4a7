// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `alarmctl preview`, run as the real binary.
@Suite struct PreviewCommandTests {
    // 2026-03-08 is the US spring-forward day (02:00 EST → 03:00 EDT): 02:30 does not
    // exist and fires at 03:30 EDT, the same 07:30 UTC instant an unshifted 02:30 EST would be.
    @Test func dailyAcrossTheNewYorkSpringGap() throws {
        let result = try BinaryRunner.run("alarmctl", ["preview", "2:30am", "--days", "daily", "--tz", "America/New_York", "--from", "2026-03-07", "--count", "3"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(result.standardOutput == """
            2026-03-07 Sat 02:30 -05:00
            2026-03-08 Sun 03:30 -04:00  (02:30 does not exist that day: DST gap)
            2026-03-09 Mon 02:30 -04:00

            """)
    }

    /// TIME as add takes it: Chinese, with a repeat in words; with a day or
    /// a moment from now, the one-off alarm add would make, seen from --from.
    @Test func timeAsAddTakesIt() throws {
        let afternoon = try BinaryRunner.run("alarmctl", ["preview", "下午2點", "--tz", "UTC", "--from", "2030-01-07", "--count", "1"])
        #expect(afternoon.status == 0 && afternoon.standardOutput == "2030-01-07 Mon 14:00 +00:00\n", "\(afternoon.standardOutput)\(afternoon.standardError)")
        let saturdays = try BinaryRunner.run("alarmctl", ["preview", "9:30", "saturdays", "--tz", "UTC", "--from", "2030-01-07", "--count", "2"])
        #expect(saturdays.standardOutput == "2030-01-12 Sat 09:30 +00:00\n2030-01-19 Sat 09:30 +00:00\n", "\(saturdays.standardOutput)\(saturdays.standardError)")
        // 2030-01-07 is a Monday.
        for (words, fire) in [(["tomorrow", "7:00"], "2030-01-08 Tue 07:00"), (["fri", "9:00"], "2030-01-11 Fri 09:00"),
                              (["tonight", "at", "9"], "2030-01-07 Mon 21:00"), (["in", "20", "min"], "2030-01-07 Mon 10:20")] {
            let day = try BinaryRunner.run("alarmctl", ["preview"] + words + ["--tz", "UTC", "--from", "2030-01-07 10:00"])
            let lines = day.standardOutput.split(separator: "\n")
            #expect(day.status == 0 && lines.count == 2 && lines.last == "\(fire) +00:00", "\(words): \(day.standardOutput)\(day.standardError)")
        }
        let passed = try BinaryRunner.run("alarmctl", ["preview", "2030-01-06", "7:00", "--tz", "UTC", "--from", "2030-01-07"])
        #expect(passed.status == 64 && passed.standardError.contains("has passed"), "\(passed.standardError)")
        let both = try BinaryRunner.run("alarmctl", ["preview", "fri", "9:00", "--days", "daily"])
        #expect(both.status == 64 && both.standardError.contains("one-off"), "\(both.standardError)")
    }

    // A POSIX rule in TZ is the system zone, as glibc and the daemon read it:
    // the New York rule written out, across the same spring gap.
    @Test func posixRuleInTZ() throws {
        let result = try BinaryRunner.run("alarmctl", ["preview", "2:30am", "--days", "daily", "--from", "2026-03-07", "--count", "2"],
                                          environment: ["TZ": "EST5EDT,M3.2.0,M11.1.0"])
        #expect(result.status == 0)
        #expect(result.standardError == "")
        #expect(result.standardOutput == """
            2026-03-07 Sat 02:30 -05:00
            2026-03-08 Sun 03:30 -04:00  (02:30 does not exist that day: DST gap)

            """)
    }

    // Europe/Berlin falls back on 2026-10-25 (03:00 CEST → 02:00 CET): 02:30 happens
    // twice and fires once, at the first (CEST, 00:30 UTC) occurrence.
    @Test func overlapFiresOnceAtFirstOccurrence() throws {
        let result = try BinaryRunner.run("alarmctl", ["preview", "02:30", "--days", "sun", "--tz", "Europe/Berlin", "--from", "2026-10-20T00:00:00Z", "--count", "2", "--json"])
        #expect(result.status == 0)
        let fires = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(fires.count == 2)
        #expect(fires[0]["local"] as? String == "2026-10-25T02:30:00+02:00")
        #expect(fires[0]["utc"] as? String == "2026-10-25T00:30:00Z")
        #expect(fires[0]["weekday"] as? String == "sun")
        #expect(fires[0]["shifted"] as? Bool == false)
        #expect(fires[1]["local"] as? String == "2026-11-01T02:30:00+01:00")
        #expect(fires[1]["utc"] as? String == "2026-11-01T01:30:00Z")
    }

    @Test func followsTZWhenNoZoneIsGiven() throws {
        // Taipei has no DST: always +08:00. 2026-01-01 is a Thursday.
        let result = try BinaryRunner.run("alarmctl", ["preview", "7:05pm", "--days", "weekends", "--from", "2026-01-01T00:00:00Z", "--count", "2"], environment: ["TZ": "Asia/Taipei"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "2026-01-03 Sat 19:05 +08:00\n2026-01-04 Sun 19:05 +08:00\n")
    }

    /// `TZ` as glibc and alarmd read it: a name, a name after `:`, or a
    /// zoneinfo path. Foundation alone falls back to UTC for the last two.
    @Test(arguments: ["Asia/Taipei", ":Asia/Taipei", "/usr/share/zoneinfo/Asia/Taipei"])
    func readsTZAsGlibcDoes(tz: String) throws {
        let result = try BinaryRunner.run("alarmctl", ["preview", "7:05pm", "--from", "2026-01-01T00:00:00Z", "--count", "1"], environment: ["TZ": tz])
        #expect(result.status == 0)
        #expect(result.standardOutput == "2026-01-01 Thu 19:05 +08:00\n", "TZ=\(tz)")
    }

    /// A time alone is a one-shot alarm, as add makes it: one firing,
    /// whatever --count asks.
    @Test func oneShotFiresOnce() throws {
        let result = try BinaryRunner.run("alarmctl", ["preview", "07:30", "--tz", "UTC", "--from", "2026-03-07T00:00:00Z"])
        #expect(result.status == 0 && result.standardOutput == "2026-03-07 Sat 07:30 +00:00\n", "\(result.standardOutput)\(result.standardError)")
    }

    @Test func oneShotIsTheNextOccurrenceOfTheTime() throws {
        let result = try BinaryRunner.run("alarmctl", ["preview", "07:30", "--tz", "UTC", "--from", "2026-03-07T07:30:00Z", "--count", "1"])
        // Exactly at 07:30 the occurrence is not "after" the start: the next is tomorrow.
        #expect(result.standardOutput == "2026-03-08 Sun 07:30 +00:00\n")
    }

    @Test(arguments: [
        (["preview", "25:00"], "TIME must have an hour of 0–23, got \"25:00\""),
        (["preview", "7:30", "--days", "funday"], "--days must be day names"),
        (["preview", "7:30", "--tz", "Mars/Olympus"], "--tz must be an IANA time zone such as Europe/Berlin, got \"Mars/Olympus\""),
        (["preview", "7:30", "--count", "0"], "--count must be 1–1000, got 0"),
        (["preview", "7:30", "--count", "abc"], "--count must be 1–1000, got \"abc\""),
        (["preview", "7:30", "--tz", "PST"], "--tz must be an IANA time zone such as Europe/Berlin, got \"PST\""),
        (["preview", "7:30", "--from", "2026-02-30 10:00"], "--from must have a day that exists in that month, got \"2026-02-30 10:00\""),
        (["preview", "7:30", "--bogus"], "preview: unknown option --bogus"),
        (["preview"], "preview: TIME is missing"),
        (["preview", "7:30", "--count", "2", "--count", "3"], "--count given more than once"),
        (["frobnicate"], "unknown command \"frobnicate\""),
    ])
    func badInputIsAUsageError(arguments: [String], message: String) throws {
        let result = try BinaryRunner.run("alarmctl", arguments)
        #expect(result.status == 64)
        #expect(result.standardOutput == "")
        #expect(result.standardError.hasPrefix("alarmctl: "))
        #expect(result.standardError.contains(message), "stderr was: \(result.standardError)")
        #expect(result.standardError.filter { $0 == "\n" }.count == 1, "one line: \(result.standardError)")
    }

    @Test func helpListsOptionsAndExamples() throws {
        let result = try BinaryRunner.run("alarmctl", ["preview", "--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("Usage: alarmctl preview TIME"))
        for needle in ["--days SPEC", "--count N", "--from WHEN", "--tz ZONE", "--json", "Examples:"] {
            #expect(result.standardOutput.contains(needle))
        }
        let top = try BinaryRunner.run("alarmctl", ["--help"])
        #expect(top.status == 0)
        #expect(top.standardOutput.contains("preview"))
    }
}

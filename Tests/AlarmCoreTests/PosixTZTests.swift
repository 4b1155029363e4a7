// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import AlarmCore

/// `TZ` values that are POSIX rules rather than zone names, compared with
/// glibc's own reading of them: `date` run with that `TZ` is the oracle.
@Suite struct PosixTZTests {
    /// glibc's UTC offset, in seconds east, at each instant, from one run of
    /// `date -f -` (one `@EPOCH` a line on standard input).
    static func glibcOffsets(tz: String, at instants: [Int64]) throws -> [Int] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/date")
        process.arguments = ["-f", "-", "+%z"]
        process.environment = ["TZ": tz, "LANG": "C"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(instants.map { "@\($0)\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").map { line in
            let sign = line.first == "-" ? -1 : 1
            let digits = line.dropFirst()
            return sign * (Int(digits.prefix(2))! * 3600 + Int(digits.suffix(2))! * 60)
        }
    }

    /// Each second either side of every switch from 2020 to 2040, and noon of
    /// the 1st and 15th of every month of 1970, 2026 and 2100.
    static func instants(around rules: ZoneRules) -> [Int64] {
        var instants: [Int64] = []
        var previous = rules.offset(at: 1_577_836_800)
        for hour in stride(from: Int64(1_577_836_800), to: 2_209_075_200, by: 3600) where rules.offset(at: hour) != previous {
            previous = rules.offset(at: hour)
            // The switch lies within the hour before `hour`; find its second.
            var low = hour - 3600, high = hour
            while high - low > 1 {
                let middle = (low + high) / 2
                if rules.offset(at: middle) == previous { high = middle } else { low = middle }
            }
            instants += [high - 1, high]
        }
        for year in [1970, 2026, 2100] {
            for month in 1...12 {
                for day in [1, 15] {
                    let components = DateComponents(timeZone: TimeZone(identifier: "UTC"), year: year, month: month, day: day, hour: 12)
                    instants.append(Int64(Calendar(identifier: .gregorian).date(from: components)!.timeIntervalSince1970))
                }
            }
        }
        return instants
    }

    @Test(arguments: [
        "EST5EDT,M3.2.0,M11.1.0", "IST-5:30", ":IST-5:30", "<+0330>-3:30", "CET-1CEST,M3.5.0,M10.5.0/3",
        // Southern hemisphere: daylight time across the new year.
        "AEST-10AEDT,M10.1.0,M4.1.0/3",
        // Julian days, zero-based days, explicit offsets and times past 24 h.
        "XST3XDT2,J60/1,300/25", "ABC-2DEF-3:15,M4.1.6/-1,M9.5.0/26",
    ])
    func offsetsMatchGlibc(tz: String) throws {
        let zone = ZoneDatabase.lookUpSystemZone(environmentTZ: tz).zone
        #expect(zone.identifier == tz)
        let instants = Self.instants(around: zone.rules)
        let expected = try Self.glibcOffsets(tz: tz, at: instants)
        try #require(expected.count == instants.count)
        for (instant, offset) in zip(instants, expected) {
            #expect(zone.rules.offset(at: instant) == offset, "\(tz) at \(ISO.string(seconds: instant)): glibc says \(offset)")
        }
    }

    /// The switches of `EST5EDT,M3.2.0,M11.1.0` in 2026, spelled out: 02:00
    /// EST on 8 March and 02:00 EDT on 1 November.
    @Test func newYorkRuleIn2026() throws {
        let zone = try #require(ZoneName.fromTZ("EST5EDT,M3.2.0,M11.1.0"))
        #expect(zone.rules.offset(at: try ISO.seconds("2026-03-08T06:59:59Z")) == -5 * 3600)
        #expect(zone.rules.offset(at: try ISO.seconds("2026-03-08T07:00:00Z")) == -4 * 3600)
        #expect(zone.rules.offset(at: try ISO.seconds("2026-11-01T05:59:59Z")) == -4 * 3600)
        #expect(zone.rules.offset(at: try ISO.seconds("2026-11-01T06:00:00Z")) == -5 * 3600)
        // And far beyond the written-out table.
        #expect(zone.rules.offset(at: try ISO.seconds("2300-07-01T12:00:00Z")) == -4 * 3600)
    }

    /// Daylight time without dates gets the US dates at 02:00, glibc's built-in
    /// ones. (glibc on Debian takes them from the `posixrules` file instead,
    /// New York's, and switches at New York's instants shifted by the offsets'
    /// difference, 13:00 UTC for CET-1CEST; the days are the same.)
    @Test func daylightTimeWithoutDates() throws {
        let zone = try #require(ZoneName.fromTZ("CET-1CEST"))
        #expect(zone.identifier == "CET-1CEST")
        #expect(zone.rules.offset(at: try ISO.seconds("2026-03-08T00:59:59Z")) == 3600)
        #expect(zone.rules.offset(at: try ISO.seconds("2026-03-08T01:00:00Z")) == 7200)
        #expect(zone.rules.offset(at: try ISO.seconds("2026-10-31T23:59:59Z")) == 7200)
        #expect(zone.rules.offset(at: try ISO.seconds("2026-11-01T00:00:00Z")) == 3600)
        let glibc = try Self.glibcOffsets(tz: "CET-1CEST", at: [try ISO.seconds("2026-03-07T12:00:00Z"), try ISO.seconds("2026-03-09T12:00:00Z"),
                                                                 try ISO.seconds("2026-10-31T12:00:00Z"), try ISO.seconds("2026-11-02T12:00:00Z")])
        #expect(glibc == [3600, 7200, 7200, 3600])
    }

    /// What the local zone is for each kind of `TZ`, and which are passed over.
    @Test(arguments: [
        ("IST-5:30", "IST-5:30", nil),
        ("Europe/Paris", "Europe/Paris", nil),
        (":Europe/Paris", "Europe/Paris", nil),
        ("/usr/share/zoneinfo/Europe/Paris", "Europe/Paris", nil),
        // A zone file wins over reading the name as a rule, as in glibc.
        ("EST5EDT", "EST5EDT", nil),
        ("", "Asia/Taipei", nil),
        ("Mars/Olympus", "Asia/Taipei", "Mars/Olympus"),
        ("/etc/passwd", "Asia/Taipei", "/etc/passwd"),
        ("/usr/share/zoneinfo/Mars/Olympus", "Asia/Taipei", "/usr/share/zoneinfo/Mars/Olympus"),
        ("EST5EDT,M3.2.0", "Asia/Taipei", "EST5EDT,M3.2.0"),
        ("IST-25", "Asia/Taipei", "IST-25"),
    ] as [(String, String, String?)])
    func lookUp(tz: String, zone: String, refused: String?) throws {
        let etc = NSTemporaryDirectory() + "alarmd-etc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: etc) }
        try "Asia/Taipei\n".write(toFile: etc + "/timezone", atomically: true, encoding: .utf8)
        let lookup = ZoneDatabase.lookUpSystemZone(environmentTZ: tz, etcDirectory: etc)
        #expect(lookup.zone.identifier == zone)
        #expect(lookup.refusedTZ == refused)
        #expect(lookup.source == (zone == "Asia/Taipei" ? "from \(etc)/timezone" : "from TZ"))
    }
}

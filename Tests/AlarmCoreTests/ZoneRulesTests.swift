// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import AlarmCore
import AlarmTestSupport

// ZoneRules is a transition table built once per zone from the system's TZif file;
// these tests check it against Foundation's TimeZone (ICU, with its own copy of the
// tz database and its own reader: an independent reference) in every zone
// Foundation knows, and against literal 2026 transitions from Python's zoneinfo.

@Suite("ZoneRules")
struct ZoneRulesTests {
    /// 1970-01-01 … 2100-01-01 (exclusive), the range sampled below.
    static let sampleRange: Range<Int64> = 0..<4_102_444_800

    /// For every zone identifier: the table's offset equals `TimeZone.secondsFromGMT`
    /// at 400 pseudo-random instants (fixed seed, so failures reproduce), and at every
    /// transition Foundation reports the table switches offset exactly there.
    ///
    /// Random sampling is what catches a transition the TZif reader or the footer
    /// rule got wrong (a misread change of standard offset would leave the table
    /// wrong for years, so hundreds of samples over 130 years hit it); the sampled
    /// range runs well past 2037, where fat TZif files stop listing transitions.
    @Test func matchesFoundationInEveryZone() throws {
        var generator = SplitMix64(seed: 0x5EED_A1A2_0D00)
        var sampleFailures: [String] = []
        var transitionFailures: [String] = []
        var missingFiles: [String] = []
        let identifiers = TimeZone.knownTimeZoneIdentifiers
        #expect(identifiers.count > 300, "Foundation should know the whole tz database")
        for identifier in identifiers {
            guard let tz = TimeZone(identifier: identifier) else { continue }
            guard let ours = Zone(identifier: identifier) else {
                missingFiles.append(identifier)
                continue
            }
            let rules = ours.rules
            func reference(_ instant: Int64) -> Int { tz.secondsFromGMT(for: Date(epochSeconds: instant)) }

            for _ in 0..<400 {
                let instant = Int64.random(in: Self.sampleRange, using: &generator)
                let (ours, theirs) = (rules.offset(at: instant), reference(instant))
                if ours != theirs {
                    sampleFailures.append("\(identifier) at \(ISO.string(seconds: instant)): table \(ours), TimeZone \(theirs)")
                }
            }

            // Walk Foundation's transitions from 1970 to the table's end. Each instant T
            // where TimeZone's offset really changes must be a transition of the table:
            // offset(T - 1) and offset(T) differ and both equal TimeZone's. The table
            // holds only real changes, so there must be exactly as many of them as it
            // has entries in that range (N distinct instants that each need an entry,
            // among N entries, are exactly those entries).
            //
            // Not before 1970: the tz database promises zone histories only from then
            // on. Debian's files follow zones merged since 2022 (Europe/Oslo is
            // Europe/Berlin's history before 1970), while ICU keeps the older history.
            var realChanges = 0
            var cursor = Date(epochSeconds: Self.sampleRange.lowerBound - 1)
            while let next = tz.nextDaylightSavingTimeTransition(after: cursor), next.epochSecondsFloor < ZoneRules.defaultEnd {
                let t = next.epochSecondsFloor
                cursor = next
                guard reference(t - 1) != reference(t) else { continue }
                realChanges += 1
                let before = rules.offset(at: t - 1), after = rules.offset(at: t)
                if before == after || before != reference(t - 1) || after != reference(t) {
                    transitionFailures.append("\(identifier) at \(ISO.string(seconds: t)): table \(before)→\(after), TimeZone \(reference(t - 1))→\(reference(t))")
                }
            }
            let listed = rules.transitionCount(in: Self.sampleRange.lowerBound..<ZoneRules.defaultEnd)
            if realChanges != listed {
                transitionFailures.append("\(identifier): \(realChanges) offset changes in TimeZone, \(listed) in the table")
            }
        }
        #expect(missingFiles.count < 5, "zones Foundation knows with no zoneinfo file: \(missingFiles)")
        #expect(sampleFailures.isEmpty, "\(sampleFailures.count) sample mismatches, e.g. \(sampleFailures.prefix(10))")
        #expect(transitionFailures.isEmpty, "\(transitionFailures.count) transition problems, e.g. \(transitionFailures.prefix(10))")
    }

    /// 2026 transitions from zoneinfo: (zone, T, offset before, offset after), seconds.
    static let transitions2026: [(String, String, Int, Int)] = [
        ("America/New_York", "2026-03-08T07:00:00Z", -5 * 3600, -4 * 3600),
        ("America/New_York", "2026-11-01T06:00:00Z", -4 * 3600, -5 * 3600),
        ("Europe/Berlin", "2026-03-29T01:00:00Z", 3600, 2 * 3600),
        ("Europe/Berlin", "2026-10-25T01:00:00Z", 2 * 3600, 3600),
        ("Australia/Sydney", "2026-04-04T16:00:00Z", 11 * 3600, 10 * 3600),
        ("Australia/Sydney", "2026-10-03T16:00:00Z", 10 * 3600, 11 * 3600),
        ("Australia/Lord_Howe", "2026-04-04T15:00:00Z", 11 * 3600, 10 * 3600 + 1800),
        ("Australia/Lord_Howe", "2026-10-03T15:30:00Z", 10 * 3600 + 1800, 11 * 3600),
        ("America/Santiago", "2026-04-05T03:00:00Z", -3 * 3600, -4 * 3600),
        ("America/Santiago", "2026-09-06T04:00:00Z", -4 * 3600, -3 * 3600),
    ]

    @Test(arguments: transitions2026)
    func knownTransitions(zoneID: String, instant: String, before: Int, after: Int) throws {
        let rules = try zone(zoneID).rules
        let t = try ISO.seconds(instant)
        #expect(rules.offset(at: t - 1) == before)
        #expect(rules.offset(at: t) == after)
        #expect(rules.offset(at: t - 3600) == before)
        #expect(rules.offset(at: t + 3600) == after)
    }

    @Test func taipeiHasNoTransitionsIn2026() throws {
        let rules = try zone("Asia/Taipei").rules
        var instant = try ISO.seconds("2026-01-01T00:00:00Z")
        let end = try ISO.seconds("2027-01-01T00:00:00Z")
        while instant < end {
            #expect(rules.offset(at: instant) == 8 * 3600)
            instant += 6 * 3600
        }
    }

    /// Wall time → instant, with the gap and overlap rules (expected values from
    /// zoneinfo with fold=0). Wall times are local seconds: day number × 86 400 + time.
    @Test(arguments: [
        ("America/New_York", 2026, 3, 8, "02:30", "2026-03-08T07:30:00Z"),   // gap → 03:30 EDT
        ("America/New_York", 2026, 3, 8, "02:00", "2026-03-08T07:00:00Z"),   // start of the gap → the transition
        ("America/New_York", 2026, 3, 8, "01:59", "2026-03-08T06:59:00Z"),   // just before
        ("America/New_York", 2026, 3, 8, "03:00", "2026-03-08T07:00:00Z"),   // first valid time after it
        ("America/New_York", 2026, 11, 1, "01:30", "2026-11-01T05:30:00Z"),  // overlap → first (EDT)
        ("America/New_York", 2026, 11, 1, "01:00", "2026-11-01T05:00:00Z"),
        ("America/New_York", 2026, 11, 1, "02:00", "2026-11-01T07:00:00Z"),  // after the overlap, EST
        ("Australia/Lord_Howe", 2026, 10, 4, "02:15", "2026-10-03T15:45:00Z"), // 30-min gap → 02:45
        ("Australia/Lord_Howe", 2026, 4, 5, "01:45", "2026-04-04T14:45:00Z"),  // 30-min overlap → first
        ("America/Santiago", 2026, 9, 6, "00:00", "2026-09-06T04:00:00Z"),     // midnight gap
        ("America/Santiago", 2026, 4, 4, "23:59", "2026-04-05T02:59:00Z"),     // overlap → first
        ("Asia/Taipei", 2026, 3, 8, "02:30", "2026-03-07T18:30:00Z"),
    ])
    func instantForWall(zoneID: String, year: Int, month: Int, day: Int, time: String, expected: String) throws {
        let rules = try zone(zoneID).rules
        let wall = Int64(CivilTime.dayNumber(year: year, month: month, day: day)) * 86_400 + Int64(try timeOfDay(time).secondsIntoDay)
        #expect(ISO.string(seconds: rules.instant(forWall: wall)) == expected)
    }

    @Test func pastTheTableTheFooterRuleHolds() throws {
        let zoneinfo = try #require(Zone(identifier: "America/New_York"))
        let tzif = try TZif(try #require(ZoneDatabase.readFile(ZoneDatabase.directory + "/America/New_York")))
        let end = try ISO.seconds("2021-01-01T00:00:00Z")
        let rules = ZoneRules(identifier: "America/New_York", tzif: tzif, end: end)
        // 1 July and 1 January of years far past the table: EDT and EST, from the footer.
        for year in [2026, 2199, 2300, 9000] {
            #expect(rules.offset(at: try ISO.seconds("\(year)-07-01T00:00:00Z")) == -4 * 3600, "\(year)")
            #expect(rules.offset(at: try ISO.seconds("\(year)-01-01T00:00:00Z")) == -5 * 3600, "\(year)")
        }
        // The table up to `end` is the full table's beginning.
        #expect(rules.offset(at: try ISO.seconds("2020-07-01T00:00:00Z")) == zoneinfo.rules.offset(at: try ISO.seconds("2020-07-01T00:00:00Z")))
        // 2300-03-11 is the second Sunday of March 2300: the change is at 07:00 UTC.
        #expect(rules.offset(at: try ISO.seconds("2300-03-11T06:59:59Z")) == -5 * 3600)
        #expect(rules.offset(at: try ISO.seconds("2300-03-11T07:00:00Z")) == -4 * 3600)
    }

    @Test func zonesAreReadOncePerProcess() throws {
        let a = try #require(Zone(identifier: "Europe/Berlin"))
        let b = try #require(Zone(identifier: "Europe/Berlin"))
        #expect(a.rules === b.rules)
        #expect(a.identifier == "Europe/Berlin")
        #expect(try #require(Zone(identifier: "Asia/Taipei")).rules !== a.rules)
    }
}

/// Zone names as the tz database has them, and `TZ` as glibc reads it.
@Suite struct ZoneNameTests {
    @Test func ianaNamesOnlyNotAbbreviations() {
        for name in ["Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+5", "US/Eastern", "UTC", "CET", "EST5EDT", "Japan"] {
            #expect(ZoneName.zone(name) != nil, "\(name)")
        }
        // Foundation takes these, but they name no zone of the tz database (IST is three places).
        for name in ["PST", "IST", "CEST", "europe/berlin", "Mars/Olympus", ""] {
            #expect(ZoneName.zone(name) == nil, "\(name)")
        }
    }

    @Test func tzVariableForms() {
        #expect(ZoneName.fromTZ("Asia/Taipei")?.identifier == "Asia/Taipei")
        #expect(ZoneName.fromTZ(":Asia/Taipei")?.identifier == "Asia/Taipei")
        #expect(ZoneName.fromTZ("/usr/share/zoneinfo/Asia/Taipei")?.identifier == "Asia/Taipei")
        #expect(ZoneName.fromTZ(":/usr/share/zoneinfo/America/Santiago")?.identifier == "America/Santiago")
        #expect(ZoneName.fromTZ("../usr/share/zoneinfo/Europe/Berlin")?.identifier == "Europe/Berlin")
        #expect(ZoneName.fromTZ("") == nil)
        #expect(ZoneName.fromTZ(":") == nil)
        // A POSIX rule, as glibc reads it, named by the value (PosixTZTests has more).
        #expect(ZoneName.fromTZ("CET-1CEST,M3.5.0,M10.5.0/3")?.identifier == "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(ZoneName.fromTZ("Mars/Olympus") == nil)
    }
}

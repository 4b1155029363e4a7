import Foundation
import Testing
import AlarmCore

// ZoneRules is a transition table built once per zone; these tests check it against
// Foundation's own TimeZone (the reference the table promises to match) in every
// zone Foundation knows, and against literal 2026 transitions from Python's zoneinfo.

@Suite("ZoneRules")
struct ZoneRulesTests {
    /// 1970-01-01 … 2100-01-01 (exclusive), the range sampled below.
    static let sampleRange: Range<Int64> = 0..<4_102_444_800

    /// For every zone identifier: the table's offset equals `TimeZone.secondsFromGMT`
    /// at 400 pseudo-random instants (fixed seed, so failures reproduce), and at every
    /// transition Foundation reports the table switches offset exactly there.
    ///
    /// Random sampling is what catches a transition the table-building walk missed
    /// (a permanent change of standard offset that `nextDaylightSavingTimeTransition`
    /// did not report would leave the table wrong for years, so hundreds of samples
    /// over 130 years hit it).
    @Test func matchesFoundationInEveryZone() throws {
        var generator = SplitMix64(seed: 0x5EED_A1A2_0D00)
        var sampleFailures: [String] = []
        var transitionFailures: [String] = []
        let identifiers = TimeZone.knownTimeZoneIdentifiers
        #expect(identifiers.count > 300, "Foundation should know the whole tz database")
        for identifier in identifiers {
            let tz = try zone(identifier)
            let rules = ZoneRules(tz)
            func reference(_ instant: Int64) -> Int { tz.secondsFromGMT(for: Date(epochSeconds: instant)) }

            for _ in 0..<400 {
                let instant = Int64.random(in: Self.sampleRange, using: &generator)
                let (ours, theirs) = (rules.offset(at: instant), reference(instant))
                if ours != theirs {
                    sampleFailures.append("\(identifier) at \(ISO.string(seconds: instant)): table \(ours), TimeZone \(theirs)")
                }
            }

            // Walk Foundation's transitions over the table's range. Each instant T where
            // TimeZone's offset really changes must be a transition of the table: offset
            // (T - 1) and offset(T) differ and both equal TimeZone's. The table holds only
            // real changes, so there must be exactly as many of them as it has entries
            // (N distinct instants that each need an entry, in a table of N entries, are
            // exactly its entries).
            var realChanges = 0
            var cursor = Date(epochSeconds: ZoneRules.defaultStart)
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
            if realChanges != rules.transitionCount {
                transitionFailures.append("\(identifier): \(realChanges) offset changes in TimeZone, \(rules.transitionCount) in the table")
            }
        }
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
        let rules = ZoneRules(try zone(zoneID))
        let t = try ISO.seconds(instant)
        #expect(rules.offset(at: t - 1) == before)
        #expect(rules.offset(at: t) == after)
        #expect(rules.offset(at: t - 3600) == before)
        #expect(rules.offset(at: t + 3600) == after)
    }

    @Test func taipeiHasNoTransitionsIn2026() throws {
        let rules = ZoneRules(try zone("Asia/Taipei"))
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
        let rules = ZoneRules(try zone(zoneID))
        let wall = Int64(CivilTime.dayNumber(year: year, month: month, day: day)) * 86_400 + Int64(try timeOfDay(time).secondsIntoDay)
        #expect(ISO.string(seconds: rules.instant(forWall: wall)) == expected)
    }

    @Test func outsideTheTableFallsBackToTimeZone() throws {
        let tz = try zone("America/New_York")
        let rules = ZoneRules(tz, start: try ISO.seconds("2020-01-01T00:00:00Z"), end: try ISO.seconds("2021-01-01T00:00:00Z"))
        #expect(rules.transitionCount == 2)
        // 1 July 2026 and 1 January 1990 are outside [2020, 2021): EDT and EST.
        #expect(rules.offset(at: try ISO.seconds("2026-07-01T00:00:00Z")) == -4 * 3600)
        #expect(rules.offset(at: try ISO.seconds("1990-01-01T00:00:00Z")) == -5 * 3600)
    }

    @Test func sharedRulesAreBuiltOncePerZone() throws {
        let a = ZoneRules.shared(for: try zone("Europe/Berlin"))
        let b = ZoneRules.shared(for: try zone("Europe/Berlin"))
        #expect(a === b)
        #expect(a.identifier == "Europe/Berlin")
        #expect(ZoneRules.shared(for: try zone("Asia/Taipei")) !== a)
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
        #expect(ZoneName.fromTZ("CET-1CEST,M3.5.0,M10.5.0/3") == nil)
    }
}

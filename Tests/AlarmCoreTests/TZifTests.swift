// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import AlarmCore

/// The TZif reader and the POSIX rules in file footers, on the system's real
/// files and on damaged copies of them.
@Suite struct TZifTests {
    static func file(_ name: String) throws -> [UInt8] {
        try #require(ZoneDatabase.readFile(ZoneDatabase.directory + "/" + name), "no zoneinfo file \(name)")
    }

    /// A version 2 file as zic writes one: an empty 32-bit block, then the
    /// 64-bit block and the footer. `transitions` are (instant, type index).
    static func synthetic(transitions: [(Int64, UInt8)], types: [Int32], footer: String) -> [UInt8] {
        func be(_ value: Int64, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func header(transitions: Int, types: Int) -> [UInt8] {
            Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
                + [0, 0, 0, transitions, types, 1].flatMap { be(Int64($0), 4) }
        }
        var bytes = header(transitions: 0, types: 1) + be(0, 4) + [0, 0] + [0]
        bytes += header(transitions: transitions.count, types: types.count)
        bytes += transitions.flatMap { be($0.0, 8) } + transitions.map(\.1)
        bytes += types.flatMap { be(Int64($0), 4) + [0, 0] } + [0]
        return bytes + Array("\n\(footer)\n".utf8)
    }

    @Test func readsASyntheticFile() throws {
        let tzif = try TZif(Self.synthetic(transitions: [(-100, 1), (100, 0)], types: [3600, -1800], footer: "<+01>-1"))
        #expect(tzif == TZif(transitions: [-100, 100], offsets: [-1800, 3600], initialOffset: 3600, footer: PosixZoneRule("<+01>-1")))
        let rules = ZoneRules(identifier: "Test/Synthetic", tzif: tzif)
        #expect([-101, -100, 99, 100, 1 << 40].map { rules.offset(at: $0) } == [3600, -1800, -1800, 3600, 3600])
    }

    @Test func readsARealFileWithItsFooter() throws {
        let tzif = try TZif(try Self.file("Europe/Berlin"))
        #expect(tzif.footer == PosixZoneRule("CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(tzif.transitions.count == tzif.offsets.count)
        #expect(zip(tzif.transitions, tzif.transitions.dropFirst()).allSatisfy { $0 < $1 })
        // 1 July 2026 is CEST, whichever of table and footer covers it.
        let rules = ZoneRules(identifier: "Europe/Berlin", tzif: tzif)
        #expect(rules.offset(at: try ISO.seconds("2026-07-01T00:00:00Z")) == 7200)
    }

    /// Every truncation of a real file is refused with a reason, never trapped
    /// on or read as a shorter zone.
    @Test func everyTruncationIsRefused() throws {
        let bytes = try Self.file("America/New_York")
        for length in stride(from: 0, to: bytes.count - 1, by: 7) {
            #expect(throws: TZif.FormatError.self, "\(length) bytes") { try TZif(Array(bytes[..<length])) }
        }
    }

    @Test(arguments: [
        ("not TZif", "no TZif header"),
        ("right/Europe/Berlin", "it counts leap seconds"),
        ("bad footer", "footer \"CET-1CEST,M3.5.9\" is not a POSIX TZ rule"),
        ("bad type index", "a transition to time type"),
    ])
    func damagedFilesNameTheProblem(damage: String, reason: String) throws {
        var bytes = try Self.file("Europe/Berlin")
        switch damage {
        case "not TZif": bytes[0] = UInt8(ascii: "X")
        case "right/Europe/Berlin": bytes = try Self.file("right/Europe/Berlin")
        case "bad footer":
            let footer = Array("\nCET-1CEST,M3.5.0,M10.5.0/3\n".utf8)
            #expect(bytes.suffix(footer.count).elementsEqual(footer))
            bytes = bytes.dropLast(footer.count) + Array("\nCET-1CEST,M3.5.9\n".utf8)
        default:
            bytes = Self.synthetic(transitions: [(0, 5)], types: [0, 3600], footer: "")
        }
        let error = try #require(throws: TZif.FormatError.self) { try TZif(bytes) }
        #expect(error.reason.hasPrefix(reason), "\(error.reason)")
    }

    @Test(arguments: [
        // text, standard offset, daylight offset (nil: none)
        ("EST5", -5 * 3600, nil),
        ("<+0530>-5:30", 5 * 3600 + 1800, nil),
        ("<-00>0", 0, nil),
        ("CET-1CEST,M3.5.0,M10.5.0/3", 3600, 7200),
        ("IST-1GMT0,M10.5.0,M3.5.0/1", 3600, 0),                 // Dublin: "daylight" time is winter
        ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 37800, 39600),   // Lord Howe: half an hour
        ("EET-2EEST,M3.4.4/50,M10.4.4/50", 7200, 10800),          // RFC 8536: hours past 24
        ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", -7200, -3600),        // negative transition time
        ("EST5EDT,0/0,J365/25", -5 * 3600, -4 * 3600),            // daylight time all year
    ] as [(String, Int, Int?)])
    func parsesFooters(text: String, standard: Int, daylight: Int?) throws {
        let rule = try #require(PosixZoneRule(text))
        #expect(Int(rule.standardOffset) == standard)
        #expect(rule.daylight.map { Int($0.offset) } == daylight)
    }

    @Test(arguments: ["", "EST", "ES5", "<+05-5", "EST5EDT", "EST5EDT,M3.2.0", "EST5EDT,M13.2.0,M11.1.0",
                      "EST5EDT,M3.6.0,M11.1.0", "EST5EDT,M3.2.7,M11.1.0", "EST5EDT,J0,J365", "EST5EDT,366,1",
                      "EST25", "EST5EDT,M3.2.0/168,M11.1.0", "EST5EDT,M3.2.0,M11.1.0 "])
    func refusesWhatIsNotARule(text: String) {
        #expect(PosixZoneRule(text) == nil, "\(text)")
    }

    /// The rules' dates for 2026, against the same transitions in the tz files.
    @Test(arguments: [
        ("EST5EDT,M3.2.0,M11.1.0", "2026-03-08T07:00:00Z", "2026-11-01T06:00:00Z"),
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2026-10-03T16:00:00Z", "2026-04-04T16:00:00Z"),
        ("<-04>4<-03>,M9.1.6/24,M4.1.6/24", "2026-09-06T04:00:00Z", "2026-04-05T03:00:00Z"),
        ("EET-2EEST,M3.4.4/50,M10.4.4/50", "2026-03-28T00:00:00Z", "2026-10-23T23:00:00Z"),   // Gaza, as zoneinfo has it
        // J60 is 1 March in every year; 59 counts from 0, so it is 1 March in 2026 too.
        ("XST0XDT,J60/0,59/0", "2026-03-01T00:00:00Z", "2026-02-28T23:00:00Z"),
    ])
    func yearlyDates(text: String, daylightStarts: String, daylightEnds: String) throws {
        let rule = try #require(PosixZoneRule(text))
        let changes = rule.transitions(year: 2026)
        let daylight = try #require(rule.daylight)
        #expect(changes.count == 2)
        #expect(changes.contains { $0.instant == (try? ISO.seconds(daylightStarts)) && $0.offset == daylight.offset })
        #expect(changes.contains { $0.instant == (try? ISO.seconds(daylightEnds)) && $0.offset == rule.standardOffset })
        #expect(changes[0].instant < changes[1].instant)
    }

    /// Any instant has an offset: the rule repeats every 400 years, as the
    /// calendar does. (`Int64.min` once overflowed; the tzif fuzz target found it.)
    @Test func everyInstantHasAnOffset() throws {
        let rule = try #require(PosixZoneRule("EST5EDT,M3.2.0,M11.1.0"))
        let cycle: Int64 = 146_097 * 86_400
        #expect(rule.offset(at: .min) == -5 * 3600)   // 292 billion years BC, in January
        #expect(rule.offset(at: .max) == -5 * 3600)   // ... AD, in December
        let july2026 = try ISO.seconds("2026-07-01T00:00:00Z")
        for k: Int64 in [-3, -1, 1, 1000] {
            #expect(rule.offset(at: july2026 + k * cycle) == -4 * 3600, "\(k) cycles away")
        }
    }

    /// Daylight time all year never lets standard time back in.
    @Test func daylightAllYearStaysDaylight() throws {
        let rule = try #require(PosixZoneRule("EST5EDT,0/0,J365/25"))
        for year in 2030...2033 {
            for month in 1...12 {
                let instant = CivilTime.dayNumber(year: year, month: month, day: 1) * 86_400
                #expect(rule.offset(at: instant) == -4 * 3600, "\(year)-\(month)")
            }
        }
    }
}

/// Names are looked up as files below the zoneinfo directory: only tz names get there.
@Suite struct ZoneFileNameTests {
    @Test(arguments: ["Europe/../../etc/passwd", "../etc/passwd", "Europe/./Berlin", "/etc/passwd", "Europe/",
                      "Europe//Berlin", "posix/Europe/Berlin", "right/Europe/Berlin", "Europe/Berlin\n", "Europe/Ber lin",
                      "America/Argentina/Buenos_Aires/x", "localtime", "posixrules", "Factory", "zone.tab"])
    func refused(name: String) {
        #expect(Zone(identifier: name) == nil, "\(name)")
    }

    @Test func utcNeedsNoFile() {
        #expect(Zone.utc.identifier == "UTC")
        #expect(Zone.utc.rules.offset(at: 0) == 0)
        #expect(Zone.utc.rules.offset(at: 9_000_000_000) == 0)
    }
}

/// The local zone as glibc finds it, on a private directory standing in for /etc.
@Suite struct SystemZoneLookupTests {
    @Test func tzThenLocaltimeThenTimezoneThenUTC() throws {
        let etc = NSTemporaryDirectory() + "alarmd-etc-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: etc, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: etc) }
        #expect(ZoneDatabase.systemZone(environmentTZ: nil, etcDirectory: etc) == Zone.utc)
        try "Asia/Taipei\n".write(toFile: etc + "/timezone", atomically: true, encoding: .utf8)
        #expect(ZoneDatabase.systemZone(environmentTZ: nil, etcDirectory: etc).identifier == "Asia/Taipei")
        try FileManager.default.createSymbolicLink(atPath: etc + "/localtime", withDestinationPath: "../usr/share/zoneinfo/Europe/Berlin")
        #expect(ZoneDatabase.systemZone(environmentTZ: nil, etcDirectory: etc).identifier == "Europe/Berlin")
        #expect(ZoneDatabase.systemZone(environmentTZ: ":America/Santiago", etcDirectory: etc).identifier == "America/Santiago")
        // A TZ that names no zone is passed over (glibc would read it as UTC).
        #expect(ZoneDatabase.systemZone(environmentTZ: "Mars/Olympus", etcDirectory: etc).identifier == "Europe/Berlin")
    }
}

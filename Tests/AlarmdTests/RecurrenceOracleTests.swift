// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// ``RecurrenceRule`` against an independent implementation, python-dateutil's
/// `rrule` (`Tests/AlarmdTests/python/rrule_oracle.py`): thousands of random
/// rules of every kind the subset has, from start days across three
/// centuries, each asked for its next days after several points; any
/// disagreement fails with the rule and both answers. Then the same with
/// times of day in zones of unusual daylight-saving time, against zoneinfo.
@Suite struct RecurrenceOracleTests {
    static let cases = 3000
    static let instantCases = 3000

    static func day(_ number: Int64) -> String { RecurrenceRule.dateText(number) }

    /// A random rule starting in one of the `years` years from 1900.
    static func randomRule(_ random: inout SplitMix64, years: Int = 300) -> RecurrenceRule {
        let frequency = RecurrenceRule.Frequency.allCases[random.below(4)]
        let start = CivilTime.dayNumber(year: 1900 + random.below(years), month: 1 + random.below(12), day: 1 + random.below(28)) + Int64(random.below(4))
        var rule = RecurrenceRule(frequency, interval: [1, 1, 1, 2, 3, 4, 7, 12][random.below(8)], start: start)
        let weekdays = Weekday.allCases.shuffled(using: &random).prefix(1 + random.below(3))
        switch frequency {
        case .daily:
            if random.below(3) == 0 { rule.byDay = weekdays.map { .init($0) } }
            if random.below(4) == 0 { rule.byMonthDay = [[1, 15, 29, 30, 31, -1, -2][random.below(7)]] }
            if random.below(4) == 0 { rule.byMonth = [1 + random.below(12), 1 + random.below(12)] }
        case .weekly:
            if random.below(4) != 0 { rule.byDay = weekdays.map { .init($0) } }
            if random.below(5) == 0 { rule.byMonth = [1 + random.below(12)] }
        case .monthly, .yearly:
            switch random.below(4) {
            case 0: rule.byMonthDay = [[1, 15, 28, 29, 30, 31, -1, -2, -31][random.below(9)]]
            case 1: rule.byDay = weekdays.prefix(1).map { .init($0, ordinal: [1, 2, 3, 4, 5, -1, -2][random.below(7)]) }
            case 2: rule.byDay = weekdays.map { .init($0) }
            default: break
            }
            if random.below(6) == 0 { rule.byMonthDay = [13]; rule.byDay = [.init(.friday)] }
            if frequency == .yearly, !(rule.byDay.isEmpty && rule.byMonthDay.isEmpty) || random.below(3) == 0 {
                rule.byMonth = Array(Set((0...random.below(2)).map { _ in 1 + random.below(12) }))
            } else if random.below(5) == 0 {
                rule.byMonth = [1 + random.below(12)]
            }
        }
        switch random.below(4) {
        case 0: rule.end = .until(start + Int64(random.below(4000)))
        case 1: rule.end = .count(1 + random.below(40))
        default: break
        }
        if random.below(3) == 0, let first = rule.nextDay(after: start - 1) {
            rule.exceptions = [first]
            if let second = rule.nextDay(after: first + 40) { rule.exceptions.insert(second) }
        }
        return rule
    }

    /// Runs `rrule_oracle.py` once over every case (one JSON line each) and
    /// returns its answer lines.
    static func askOracle(_ python: String, _ input: String) throws -> [Substring] {
        let script = PythonClientTests.packageRoot + "/Tests/AlarmdTests/python/rrule_oracle.py"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script]
        let stdin = Pipe(), stdout = PipeCollector()
        process.standardInput = stdin
        process.standardOutput = stdout.pipe
        process.standardError = stdout.pipe
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "the oracle failed: \(stdout.text.suffix(2000))")
        return stdout.text.split(separator: "\n")
    }

    static func json(_ rule: RecurrenceRule) -> [String: Any] {
        var object: [String: Any] = [
            "frequency": rule.frequency.rawValue, "interval": rule.interval, "start": day(rule.start),
            "byDay": rule.byDay.map { entry -> [String: Any] in
                var day: [String: Any] = ["weekday": entry.weekday.code]
                if let ordinal = entry.ordinal { day["ordinal"] = ordinal }
                return day
            },
            "byMonthDay": rule.byMonthDay, "byMonth": rule.byMonth, "exceptions": rule.exceptions.sorted().map(day),
        ]
        switch rule.end {
        case .until(let until)?: object["until"] = day(until)
        case .count(let count)?: object["count"] = count
        case nil: break
        }
        return object
    }

    @Test func agreesWithPythonDateutil() throws {
        let (found, tried) = PythonClientTests.interpreter(importing: "dateutil")
        let python = try #require(found, "no Python with dateutil (make test-deps installs it into .build/pyvenv); tried: \(tried.joined(separator: "; "))")
        var random = SplitMix64(seed: 0x5EED_CA1E)
        var rules: [(rule: RecurrenceRule, afters: [Int64])] = []
        var input = ""
        let probes = 4, count = 6
        for _ in 0..<Self.cases {
            let rule = Self.randomRule(&random)
            try rule.validate()
            let afters = (0..<probes).map { _ in rule.start - 40 + Int64(random.below(3_000)) }
            rules.append((rule, afters))
            let line = try JSONSerialization.data(withJSONObject: ["rule": Self.json(rule), "after": afters.map(Self.day), "n": count])
            input += String(decoding: line, as: UTF8.self) + "\n"
        }
        let answers = try Self.askOracle(python, input)
        try #require(answers.count == Self.cases, "\(answers.count) answers for \(Self.cases) cases: \(answers.suffix(3))")
        var disagreements = 0
        for (index, (rule, afters)) in rules.enumerated() {
            let expected = try JSONSerialization.jsonObject(with: Data(answers[index].utf8)) as? [[String]] ?? []
            for (probe, after) in afters.enumerated() {
                var mine: [String] = []
                var current = after
                while mine.count < count, let next = rule.nextDay(after: current) {
                    mine.append(Self.day(next))
                    current = next
                }
                if mine != expected[probe] {
                    disagreements += 1
                    if disagreements <= 10 {
                        Issue.record("rule \(Self.json(rule)) after \(Self.day(after)): alarmd \(mine), dateutil \(expected[probe])")
                    }
                }
            }
        }
        #expect(disagreements == 0, "\(disagreements) of \(Self.cases * probes) disagree")
    }

    /// Zones whose daylight-saving time is unusual: half-hour DST (Lord Howe),
    /// a +12:45 offset with changes at 02:45 (Chatham), negative DST (Dublin:
    /// IST is the standard time and winter GMT the daylight one), DST
    /// suspended for Ramadan, listed year by year up to 2087 (Casablanca),
    /// changes at midnight (Santiago, whose autumn repeats 23:00–24:00),
    /// two-hour DST (Troll); and New York.
    static let zones = ["Australia/Lord_Howe", "Pacific/Chatham", "Europe/Dublin", "Africa/Casablanca",
                        "America/Santiago", "Antarctica/Troll", "America/New_York"]

    /// Local times that fall in those zones' gaps or repeated hours, or next
    /// to them: 00:00, 00:30, 00:59:59, 01:00, 01:30, 01:45, 02:00, 02:15,
    /// 02:30, 02:45, 03:00, 03:15, 03:45, 23:00, 23:30, 23:59.
    static let awkwardTimes: [Int32] = [0, 1800, 3599, 3600, 5400, 6300, 7200, 8100, 9000, 9900, 10800, 11700, 13500,
                                        82800, 84600, 86340]

    /// The first offset change after `instant`, within about `days` days
    /// (only to put probes and times next to changes; the answers never come
    /// from it). It looks a week at a time: a change and its undoing within
    /// one week would go unseen, which only makes for a case less aimed.
    static func nextTransition(after instant: Int64, rules: ZoneRules, within days: Int) -> Int64? {
        let offset = rules.offset(at: instant), step = 7 * CivilTime.secondsPerDay
        var low = instant
        for _ in 0...(days / 7) {
            var high = low + step
            if rules.offset(at: high) != offset {
                while high - low > 1 {
                    let middle = low + (high - low) / 2
                    if rules.offset(at: middle) == offset { low = middle } else { high = middle }
                }
                return high
            }
            low = high
        }
        return nil
    }

    enum Reading { case plain, inGap, repeated }

    /// Whether a firing instant for `seconds` into the local day fell in a
    /// gap (the clock then read another time), or at a time the clock shows
    /// twice (the offset drops within a day and the same reading comes again).
    static func reading(of fire: Int64, seconds: Int32, rules: ZoneRules) -> Reading {
        let offset = rules.offset(at: fire)
        if CivilTime.floorMod(fire + Int64(offset), CivilTime.secondsPerDay) != Int64(seconds) { return .inGap }
        let later = rules.offset(at: fire + CivilTime.secondsPerDay)
        return later < offset && rules.offset(at: fire + Int64(offset - later)) == later ? .repeated : .plain
    }

    /// The local readings (seconds since the epoch, as on the wall) that the
    /// offset change at `change` skips or shows twice.
    static func readings(at change: Int64, _ rules: ZoneRules) -> Range<Int64> {
        let before = Int64(rules.offset(at: change - 1)), after = Int64(rules.offset(at: change))
        return (change + min(before, after))..<(change + max(before, after))
    }

    /// A time of day in the readings of an offset change on a day of the rule.
    struct Aim { var seconds: Int32; var change: Int64; var readings: Range<Int64>; var day: Int64 }

    /// The first of the next `changes` offset changes after `instant` whose
    /// skipped or repeated readings fall on a day of `rule`, with a time of day
    /// among them: their first or second, their last, the one after them,
    /// or one at random.
    static func aim(_ rule: RecurrenceRule, _ rules: ZoneRules, from instant: Int64, changes: Int, _ random: inout SplitMix64) -> Aim? {
        let day = CivilTime.secondsPerDay
        var from = instant
        for _ in 0..<changes {
            guard let change = nextTransition(after: from, rules: rules, within: 800) else { return nil }
            let readings = readings(at: change, rules)
            let days = Set([readings.lowerBound, readings.upperBound - 1].map { CivilTime.floorDiv($0, day) })
            for local in days.sorted() where rule.occurs(on: local) {
                let onDay = max(readings.lowerBound, local * day)..<min(readings.upperBound, (local + 1) * day)
                let choices = [onDay.lowerBound, onDay.lowerBound + 1, onDay.upperBound - 1, onDay.upperBound,
                               onDay.lowerBound + Int64(random.below(onDay.count))]
                let seconds = Int32(CivilTime.floorMod(choices[random.below(choices.count)], day))
                return Aim(seconds: seconds, change: change, readings: readings, day: local)
            }
            from = change
        }
        return nil
    }

    /// A rule of a random kind that gives `target`: every day or every week
    /// from before it, or its weekday's place in its month (first…, or last…)
    /// every month or every year in that month, or its date every year.
    static func rule(giving target: Int64, _ random: inout SplitMix64) -> RecurrenceRule {
        let (year, month, date) = CivilTime.date(dayNumber: target)
        let weekday = CivilTime.weekday(dayNumber: target)
        let length = CivilTime.daysInMonth(year: year, month: month)
        let ordinal = random.below(2) == 0 ? (date - 1) / 7 + 1 : -((length - date) / 7 + 1)
        let place = RecurrenceRule.DayOfWeek(weekday, ordinal: ordinal)
        let start = target - Int64(random.below(1_500))
        var rule: RecurrenceRule
        switch random.below(5) {
        case 0: rule = RecurrenceRule(.daily, start: start)
        case 1: rule = RecurrenceRule(.weekly, byDay: [.init(weekday)], start: target - 7 * Int64(random.below(200)))
        case 2: rule = RecurrenceRule(.monthly, byDay: [place], start: start)
        case 3: rule = RecurrenceRule(.yearly, byDay: [place], byMonth: [month], start: start)
        default: rule = RecurrenceRule(.yearly, byMonthDay: [date], byMonth: [month], start: start)
        }
        if random.below(3) == 0 { rule.end = .until(target + Int64(random.below(2_000))) }
        return rule
    }

    static func utc(_ instant: Int64) -> String {
        LocalDateTime(localSeconds: instant, utcOffset: 0).description
    }

    /// ``RecurrenceRule/nextFire(after:secondsIntoDay:rules:)`` against
    /// dateutil for the days and zoneinfo for the time rules
    /// (`rrule_oracle.py`), in the zones above, from start days across
    /// 1900–2300: the tz database's listed transitions (LMT and wartime
    /// included), the POSIX footer after them (from 2037, or 2087 for
    /// Casablanca), and alarmd's switch from its written-out table to the
    /// footer itself at 2200. Each case asks for the next six firings after
    /// a random instant near its start and either (half the cases) a time
    /// that an offset change on one of the rule's days skips or repeats, with
    /// probes days before it, at the firing, a second before it, and as far
    /// after it as the change moves the clock (the repeated reading's second
    /// occurrence), or else a random or awkward time with more random probes,
    /// probes days before an offset change, and a firing instant and the
    /// second before it; and, when the rule ends or for one case in forty,
    /// after an instant up to 2300. The time rules are pinned by hand on real
    /// gaps and overlaps first, so that the oracle is seen to apply them too.
    @Test func agreesWithDateutilAndZoneinfoOverFourCenturies() throws {
        let (found, tried) = PythonClientTests.interpreter(importing: "dateutil")
        let python = try #require(found, "no Python with dateutil (make test-deps installs it into .build/pyvenv); tried: \(tried.joined(separator: "; "))")
        let zones = try Self.zones.map { name in try #require(Zone(identifier: name), "no zone file for \(name) in \(ZoneDatabase.directory)") }
        let count = 6, day = CivilTime.secondsPerDay
        let end = CivilTime.dayNumber(year: 2300, month: 1, day: 1) * day
        struct Case { var rule: RecurrenceRule; var zone: Zone; var seconds: Int32; var afters: [Int64] }

        // Worked out by hand (and with glibc's `date`): the gap and overlap
        // rules on real transitions, which the oracle must agree with too.
        func daily(_ year: Int, _ month: Int, _ day: Int) -> RecurrenceRule { RecurrenceRule(.daily, start: CivilTime.dayNumber(year: year, month: month, day: day)) }
        let pinned: [(Case, first: Int64, what: String)] = [
            (Case(rule: daily(2024, 10, 1), zone: zones[0], seconds: 8100, afters: [1_728_086_400]), 1_728_143_100,
             "Lord Howe 02:15 in the 02:00→02:30 gap of 2024-10-06 fires at 02:45 +11, 2024-10-05T15:45Z"),
            (Case(rule: daily(2024, 4, 1), zone: zones[0], seconds: 6300, afters: [1_712_361_600]), 1_712_414_700,
             "Lord Howe 01:45, repeated on 2024-04-07, fires first at +11, 2024-04-06T14:45Z"),
            (Case(rule: daily(2024, 9, 1), zone: zones[4], seconds: 1800, afters: [1_725_753_600]), 1_725_769_800,
             "Santiago 00:30 in the 00:00→01:00 gap of 2024-09-08 fires at 01:30 -03, 04:30Z"),
            (Case(rule: daily(2024, 4, 1), zone: zones[4], seconds: 84600, afters: [1_712_448_000]), 1_712_457_000,
             "Santiago 23:30, repeated on 2024-04-06, fires first at -03, 2024-04-07T02:30Z"),
            (Case(rule: daily(2024, 3, 1), zone: zones[2], seconds: 5400, afters: [1_711_800_000]), 1_711_848_600,
             "Dublin 01:30 in the 01:00→02:00 gap of 2024-03-31 fires at 02:30 IST, 01:30Z"),
            (Case(rule: daily(2024, 10, 1), zone: zones[2], seconds: 5400, afters: [1_729_940_000]), 1_729_989_000,
             "Dublin 01:30, repeated on 2024-10-27, fires first in IST, 00:30Z"),
            (Case(rule: daily(2024, 3, 1), zone: zones[5], seconds: 9000, afters: [1_711_800_000]), 1_711_852_200,
             "Troll 02:30 in the 01:00→03:00 gap of 2024-03-31 fires at 04:30 +02, 02:30Z"),
        ]
        for (pin, first, what) in pinned {
            #expect(pin.rule.nextFire(after: pin.afters[0], secondsIntoDay: pin.seconds, rules: pin.zone.rules) == first, "\(what)")
        }

        var random = SplitMix64(seed: 0x400_7EA2_5EED)
        var cases = pinned.map(\.0), passedOver = 0
        while cases.count < pinned.count + Self.instantCases {
            var rule = Self.randomRule(&random, years: 400)
            let zone = zones[random.below(zones.count)], rules = zone.rules
            var seconds = random.below(2) == 0 ? Self.awkwardTimes[random.below(Self.awkwardTimes.count)] : Int32(random.below(86_400))
            // Half the cases aim at a day of the rule on which the offset
            // changes: the time goes into the readings the change skips or
            // repeats, or onto their edges, and probes around that firing. A
            // random rule seldom has such a day among a zone's next eight
            // changes; when it has none, a rule that gives one takes its place.
            var aimed: Aim?
            if random.below(2) == 0 {
                aimed = Self.aim(rule, rules, from: (rule.start - 40) * day, changes: 8, &random)
                if aimed == nil, let change = Self.nextTransition(after: (rule.start + Int64(random.below(1_500))) * day, rules: rules, within: 800) {
                    rule = Self.rule(giving: CivilTime.floorDiv(Self.readings(at: change, rules).lowerBound, day), &random)
                    aimed = Self.aim(rule, rules, from: change - 1, changes: 1, &random)
                    #expect(aimed != nil, "\(Self.json(rule)) should give the day of the change at \(Self.utc(change)) in \(zone)")
                }
            }
            try rule.validate()
            let start = rule.start * day
            func near() -> Int64 { start - 40 * day + Int64(random.below(Int(1_500 * day))) }
            var afters = [near()]
            if let aimed {
                // The firing, the second before it, and as far after it as
                // the change moves the clock (a repeated reading's second
                // occurrence) and the second before that.
                seconds = aimed.seconds
                let fire = rules.instant(forWall: aimed.day * day + Int64(seconds)), length = Int64(aimed.readings.count)
                afters += [aimed.change - Int64(random.below(Int(6 * day))), fire - 1, fire, fire + length - 1, fire + length]
            } else {
                afters.append(near())
                for _ in 0..<2 {
                    let from = near()
                    let transition = Self.nextTransition(after: from, rules: rules, within: 800)
                    afters.append(transition.map { $0 - Int64(random.below(Int(8 * day))) } ?? from)
                }
                if let fire = rule.nextFire(after: afters[0], secondsIntoDay: seconds, rules: rules) { afters += [fire, fire - 1] }
            }
            if rule.end != nil || random.below(40) == 0, end > start { afters.append(start + Int64(random.below(Int(end - start)))) }
            // A rule whose days run out (never ending of itself: Tuesdays of a
            // daily rule every 7 days from a Monday, a 31st in April...) makes
            // dateutil walk every period up to year 9999 in search of the next
            // day: seconds a rule, most of the oracle's time. The first test
            // covers running out; here a rule is passed over unless, without
            // its end, it has the days the oracle looks for after the probes.
            var unending = rule
            unending.end = nil
            var last: Int64? = CivilTime.floorDiv(afters.max()!, day) + 2
            for _ in 0..<count { last = last.flatMap(unending.nextDay(after:)) }
            guard last != nil else {
                passedOver += 1
                continue
            }
            cases.append(Case(rule: rule, zone: zone, seconds: seconds, afters: afters))
        }
        var input = ""
        for item in cases {
            let line = try JSONSerialization.data(withJSONObject: [
                "rule": Self.json(item.rule), "zoneFile": ZoneDatabase.directory + "/" + item.zone.identifier,
                "seconds": Int(item.seconds), "after": item.afters.map { Int($0) }, "n": count,
            ] as [String: Any])
            input += String(decoding: line, as: UTF8.self) + "\n"
        }
        let clock = ContinuousClock(), started = clock.now
        let answers = try Self.askOracle(python, input)
        let oracleTime = clock.now - started
        try #require(answers.count == cases.count, "\(answers.count) answers for \(cases.count) cases: \(answers.suffix(3))")
        var disagreements = 0, probes = 0, firings = 0, inGaps = 0, repeated = 0
        for (index, item) in cases.enumerated() {
            let expected = try JSONSerialization.jsonObject(with: Data(answers[index].utf8)) as? [[Int]] ?? []
            try #require(expected.count == item.afters.count, "answer \(index): \(answers[index])")
            var seen: Set<Int64> = []
            for (probe, after) in item.afters.enumerated() {
                probes += 1
                var mine: [Int64] = []
                var current = after
                while mine.count < count, let next = item.rule.nextFire(after: current, secondsIntoDay: item.seconds, rules: item.zone.rules) {
                    mine.append(next)
                    current = next
                }
                firings += mine.count
                for fire in mine where seen.insert(fire).inserted {
                    switch Self.reading(of: fire, seconds: item.seconds, rules: item.zone.rules) {
                    case .inGap: inGaps += 1
                    case .repeated: repeated += 1
                    case .plain: break
                    }
                }
                if mine != expected[probe].map(Int64.init) {
                    disagreements += 1
                    if disagreements <= 10 {
                        Issue.record("""
                            rule \(Self.json(item.rule)) at \(item.seconds) s in \(item.zone) after \(after) (\(Self.utc(after))): \
                            alarmd \(mine.map(Self.utc)), zoneinfo \(expected[probe].map { Self.utc(Int64($0)) })
                            """)
                    }
                }
            }
        }
        print("""
            RecurrenceOracleTests: \(cases.count) rules in zones (\(passedOver) passed over), \(probes) probes, \
            \(firings) firings (of them, distinct: \(inGaps) in gaps, \(repeated) at repeated times); the oracle took \(oracleTime)
            """)
        #expect(disagreements == 0, "\(disagreements) of \(probes) probes disagree")
        // The point of the test: enough firings on the awkward side of a transition.
        #expect(inGaps >= 100 && repeated >= 100, "only \(inGaps) firings in gaps and \(repeated) at repeated times")
    }
}

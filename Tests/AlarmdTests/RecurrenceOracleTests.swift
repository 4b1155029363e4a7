import AlarmCore
import Foundation
import Testing

/// ``RecurrenceRule`` against an independent implementation, python-dateutil's
/// `rrule` (`Tests/AlarmdTests/python/rrule_oracle.py`): thousands of random
/// rules of every kind the subset has, from start days across three
/// centuries, each asked for its next days after several points; any
/// disagreement fails with the rule and both answers.
@Suite struct RecurrenceOracleTests {
    static let cases = 3000

    static func day(_ number: Int64) -> String { RecurrenceRule.dateText(number) }

    static func randomRule(_ random: inout SplitMix64) -> RecurrenceRule {
        let frequency = RecurrenceRule.Frequency.allCases[random.below(4)]
        let start = CivilTime.dayNumber(year: 1900 + random.below(300), month: 1 + random.below(12), day: 1 + random.below(28)) + Int64(random.below(4))
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
        let answers = stdout.text.split(separator: "\n")
        try #require(answers.count == Self.cases, "\(answers.count) answers for \(Self.cases) cases: \(stdout.text.suffix(500))")
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
}

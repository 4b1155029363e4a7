// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import SeededRandom

/// Next-fire computations with AlarmCore, on the calling thread only (the
/// harness pins the process to one CPU with taskset).
enum CoreBench {
    static let zones = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe"]
    /// 2026-01-01T00:00:00Z: the walk covers both DST transitions of 2026 and 2027.
    static let base: Int64 = 1_767_225_600
    static let span: Int64 = 2 * 365 * 86_400

    struct Case {
        let rule: DailyRule
        let rules: ZoneRules
        let alarm: Alarm
    }

    /// A working set of alarms: one-shot, weekdays, every day, weekends, odd
    /// day sets; times all over the day, including ones inside DST gaps and
    /// overlaps; each pinned to one of the DST zones.
    static func cases(_ count: Int) -> [Case] {
        var random = SplitMix64(seed: 3)
        let now = Date(timeIntervalSince1970: TimeInterval(base))
        return (0..<count).map { index in
            let zone = Zone(identifier: zones[index % zones.count])!
            let days = AlarmMix.days(index, random: &random)
            // Every 16th alarm sits in the small hours, where the transitions are.
            let minute = index % 16 == 0 ? 60 + random.below(120) : random.below(1440)
            let time = try! TimeOfDay(hour: minute / 60, minute: minute % 60)
            let alarm = Alarm(time: time, days: days, label: "Core \(index)", sound: .none, timeZone: zone, created: now)
            return Case(rule: DailyRule(time: time, days: days), rules: zone.rules, alarm: alarm)
        }
    }

    /// `core`: computations per second through two entry points:
    /// - `rule`: `DailyRule.nextFire(after:rules:)` on epoch seconds with the
    ///   zone's table in hand (the core's own hot path);
    /// - `alarm`: `Alarm.nextFire(after:in:)` on `Date`s, which looks the zone's
    ///   table up on every call — what the scheduler calls for each item.
    static func run(_ options: Options) throws {
        let iterations = max(1, try options.int("iterations", default: 10_000_000))
        let repeats = max(1, try options.int("repeat", default: 5))
        let working = cases(1024)
        let mask = working.count - 1
        let system = Zone.utc
        var checksum: Int64 = 0

        // Warm up the tables and caches.
        for entry in working { checksum &+= entry.rule.nextFire(after: base, rules: entry.rules) }

        var ruleRates: [Double] = []
        var alarmRates: [Double] = []
        for _ in 0..<repeats {
            var instant = base
            var start = Clocks.monotonicNanoseconds()
            for index in 0..<iterations {
                let entry = working[index & mask]
                checksum &+= entry.rule.nextFire(after: instant, rules: entry.rules)
                instant = base + (instant - base + 86_413) % span
            }
            ruleRates.append(Double(iterations) / (Double(Clocks.monotonicNanoseconds() - start) / 1e9))

            instant = base
            start = Clocks.monotonicNanoseconds()
            for index in 0..<iterations {
                let entry = working[index & mask]
                if let next = entry.alarm.nextFire(after: Date(timeIntervalSince1970: TimeInterval(instant)), in: system) {
                    checksum &+= Int64(next.timeIntervalSince1970)
                }
                instant = base + (instant - base + 86_413) % span
            }
            alarmRates.append(Double(iterations) / (Double(Clocks.monotonicNanoseconds() - start) / 1e9))
        }
        // Recurrence rules, each kind on its own working set: the next day
        // after a day that walks two years.
        var recurrence: [String: Any] = [:]
        for (kind, rules) in recurrenceCases(working.count) {
            var rates: [Double] = []
            for _ in 0..<repeats {
                var day: Int64 = 20_454  // 2026-01-01
                let start = Clocks.monotonicNanoseconds()
                for index in 0..<iterations {
                    checksum &+= rules[index & mask].nextDay(after: day) ?? 0
                    day = 20_454 + (day - 20_454 + 13) % 730
                }
                rates.append(Double(iterations) / (Double(Clocks.monotonicNanoseconds() - start) / 1e9))
            }
            recurrence[kind] = Summary(rates).json(unit: "1/s")
        }
        try emit([
            "iterations": iterations, "repeat": repeats, "working_set": working.count, "zones": zones,
            "rule_per_second": Summary(ruleRates).json(unit: "1/s"),
            "alarm_per_second": Summary(alarmRates).json(unit: "1/s"),
            "recurrence_per_second": recurrence,
            "checksum": String(checksum),
        ])
    }

    /// Working sets of ``RecurrenceRule``s, one per kind a person sets: every
    /// N days, every N weeks on some days, monthly on a day, on the nth or
    /// last weekday, yearly on a date; starts spread over the years before
    /// 2026, some with an end and exceptions.
    static func recurrenceCases(_ count: Int) -> [(String, [RecurrenceRule])] {
        var random = SplitMix64(seed: 16)
        func start() -> Int64 { 20_454 - Int64(random.below(3 * 365)) }
        func days() -> [RecurrenceRule.DayOfWeek] {
            Array(Weekday.allCases.shuffled(using: &random).prefix(1 + random.below(3))).map { .init($0) }
        }
        func finish(_ rule: RecurrenceRule) -> RecurrenceRule {
            var rule = rule
            if random.below(4) == 0 { rule.end = .until(20_454 + 365 + Int64(random.below(365))) }
            if random.below(4) == 0 { rule.exceptions = [20_454 + Int64(random.below(400)), 20_454 + Int64(random.below(400))] }
            return rule
        }
        let kinds: [(String, () -> RecurrenceRule)] = [
            ("daily", { RecurrenceRule(.daily, interval: 1 + random.below(5), start: start()) }),
            ("weekly", { RecurrenceRule(.weekly, interval: 1 + random.below(3), byDay: days(), start: start()) }),
            ("monthly-day", { RecurrenceRule(.monthly, byMonthDay: [[1, 15, 31, -1][random.below(4)]], start: start()) }),
            ("monthly-weekday", { RecurrenceRule(.monthly, byDay: [.init(Weekday.allCases[random.below(7)], ordinal: [1, 2, 3, 4, -1][random.below(5)])], start: start()) }),
            ("yearly", { RecurrenceRule(.yearly, start: start()) }),
        ]
        return kinds.map { kind, make in (kind, (0..<count).map { _ in finish(make()) }) }
    }

    /// `core-chain`: what `systemd-analyze calendar --iterations=N
    /// 'Mon..Fri *-*-* 07:30:00'` computes — N successive weekday 07:30 firings
    /// in one zone — as a whole process; prints the last one so the harness can
    /// check both programs agree.
    static func chain(_ options: Options) throws {
        let name = try options.required("zone")
        guard let zone = Zone(identifier: name) else { throw BenchError("unknown zone \(name)") }
        let iterations = max(1, try options.int("iterations", default: 40_000))
        let rules = zone.rules
        let rule = DailyRule(time: try TimeOfDay(hour: 7, minute: 30), days: .weekdays)
        var cursor = Int64(Date().timeIntervalSince1970)
        for _ in 0..<iterations { cursor = rule.nextFire(after: cursor, rules: rules) }
        let local = rules.localDateTime(at: cursor)
        try emit(["zone": name, "iterations": iterations, "last": local.description, "last_weekday": local.weekday.shortName])
    }
}

/// `layout`: the in-memory size of what the scheduler keeps per item, for
/// explaining resident memory (strides in bytes, from `MemoryLayout`).
enum LayoutReport {
    static func run() throws {
        try emit([
            "Alarm": MemoryLayout<Alarm>.stride,
            "Reminder": MemoryLayout<Reminder>.stride,
            "Item": MemoryLayout<Item>.stride,
            "RingState": MemoryLayout<RingState>.stride,
            "UUID": MemoryLayout<UUID>.stride,
            "DeadlineQueue.Entry": MemoryLayout<DeadlineQueue.Entry>.stride,
            "Zone?": MemoryLayout<Zone?>.stride,
            "Sound": MemoryLayout<Sound>.stride,
            "String": MemoryLayout<String>.stride,
        ])
    }
}

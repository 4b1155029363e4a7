import AlarmCore
import Foundation

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
        try emit([
            "iterations": iterations, "repeat": repeats, "working_set": working.count, "zones": zones,
            "rule_per_second": Summary(ruleRates).json(unit: "1/s"),
            "alarm_per_second": Summary(alarmRates).json(unit: "1/s"),
            "checksum": String(checksum),
        ])
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

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore
import Foundation
import SeededRandom

/// The alarms of a benchmark store: a mix of one-shot and repeating alarms,
/// most floating in the system zone, some pinned to DST zones.
enum AlarmMix {
    static let pinnedZones = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe"]

    static func days(_ index: Int, random: inout SplitMix64) -> RepeatDays {
        switch index % 8 {
        case 0, 1: return .never
        case 2, 3: return .weekdays
        case 4: return .everyDay
        case 5: return .weekends
        case 6: return RepeatDays(rawValue: UInt8(1 + random.below(127)))
        default: return RepeatDays([.monday, .wednesday, .friday])
        }
    }

    static func zone(_ index: Int) -> Zone? {
        switch index % 10 {
        case 0, 1, 2: return Zone(identifier: pinnedZones[index % 10])!
        default: return nil
        }
    }

    /// Alarm number `index`, whose next firing after `avoid.lowerBound` is not
    /// before `avoid.upperBound` (epoch seconds) when `avoid` is given.
    static func alarm(_ index: Int, random: inout SplitMix64, systemZone: Zone, avoid: Range<Int64>?, created: Date) -> Alarm {
        let days = days(index, random: &random)
        let zone = zone(index)
        let rules = (zone ?? systemZone).rules
        var minute = random.below(1440)
        if let avoid {
            for _ in 0..<1440 {
                let rule = DailyRule(time: try! TimeOfDay(hour: minute / 60, minute: minute % 60), days: days)
                if rule.nextFire(after: avoid.lowerBound - 1, rules: rules) >= avoid.upperBound { break }
                minute = (minute + 1 + random.below(60)) % 1440
            }
        }
        return Alarm(
            id: UUID(), time: try! TimeOfDay(hour: minute / 60, minute: minute % 60), days: days,
            label: "Bench \(index)", sound: .none, snooze: .default, ringSeconds: 60,
            enabled: true, skipNext: false, timeZone: zone, command: [], created: created)
    }
}

/// `make-store`: writes a database directly through `AlarmStore`, in large
/// transactions, as the daemon would find it after many `AddAlarm` calls.
enum MakeStore {
    static func run(_ options: Options) throws {
        let path = try options.required("path")
        let alarmCount = try options.int("alarms", default: 0)
        let reminderCount = try options.int("reminders", default: 0)
        let batch = max(1, try options.int("batch", default: 50_000))
        var random = SplitMix64(seed: UInt64(try options.int("seed", default: 7)))
        let systemZone = try options.string("zone").map { name in
            guard let zone = Zone(identifier: name) else { throw BenchError("unknown zone \(name)") }
            return zone
        } ?? ZoneDatabase.systemZone(environmentTZ: ProcessInfo.processInfo.environment["TZ"])
        var avoid: Range<Int64>?
        if let start = try options.int64("avoid-start"), let end = try options.int64("avoid-end") { avoid = start..<end }
        let dueStart = try options.int64("due-start") ?? 0
        let dueEnd = try options.int64("due-end") ?? dueStart

        let began = Clocks.monotonicNanoseconds()
        let now = Date()
        let store = try Store(path: path)
        var written = 0
        while written < alarmCount {
            let upper = min(alarmCount, written + batch)
            let alarms = (written..<upper).map { AlarmMix.alarm($0, random: &random, systemZone: systemZone, avoid: avoid, created: now) }
            try store.transaction { () throws(StoreError) in
                for alarm in alarms { try store.insert(alarm) }
            }
            written = upper
        }
        // Reminders due at evenly spaced, distinct microseconds in [dueStart, dueEnd).
        var reminderWritten = 0
        while reminderWritten < reminderCount {
            let upper = min(reminderCount, reminderWritten + batch)
            let reminders = (reminderWritten..<upper).map { index -> Reminder in
                let due = dueStart + (dueEnd - dueStart) * Int64(index) / Int64(reminderCount)
                return Reminder(title: "Bench reminder \(index)", due: Date(timeIntervalSince1970: Double(due) / 1_000_000), created: now)
            }
            try store.transaction { () throws(StoreError) in
                for reminder in reminders { try store.insert(reminder) }
            }
            reminderWritten = upper
        }
        store.close()
        let seconds = Double(Clocks.monotonicNanoseconds() - began) / 1e9
        var size: Int64 = 0
        for suffix in ["", "-wal", "-shm"] {
            if let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix), let bytes = attributes[.size] as? NSNumber {
                size += bytes.int64Value
            }
        }
        try emit(["alarms": alarmCount, "reminders": reminderCount, "seconds": seconds, "bytes": size, "path": path])
    }
}

import Foundation
import Synchronization

/// A time zone's UTC offsets as a sorted table of transitions, so that converting
/// between instants and wall-clock times is a binary search plus arithmetic.
///
/// `Calendar.nextDate(after:matching:…)` costs tens of microseconds a call, which
/// is seconds for a million alarms at start-up; a lookup here costs tens of
/// nanoseconds. Instants outside the table's range fall back to `TimeZone`.
/// Instants are whole seconds since the Unix epoch (`Int64`).
public final class ZoneRules: Sendable {
    /// 1900-01-01T00:00:00Z
    public static let defaultStart: Int64 = -2_208_988_800
    /// 2200-01-01T00:00:00Z
    public static let defaultEnd: Int64 = 7_258_118_400

    public let timeZone: TimeZone
    /// Instants at which the offset changes, ascending.
    private let transitions: [Int64]
    /// `offsets[i]` holds from `transitions[i - 1]` (inclusive) to `transitions[i]`;
    /// one more entry than `transitions`.
    private let offsets: [Int32]
    private let tableStart: Int64
    private let tableEnd: Int64

    public var identifier: String { timeZone.identifier }

    /// Builds the table for `[start, end)` by walking the zone's transitions.
    public init(_ timeZone: TimeZone, start: Int64 = ZoneRules.defaultStart, end: Int64 = ZoneRules.defaultEnd) {
        self.timeZone = timeZone
        tableStart = start
        tableEnd = end
        var transitions: [Int64] = []
        var offsets: [Int32] = [Int32(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(start))))]
        var cursor = Date(timeIntervalSince1970: Double(start))
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < Double(end) {
            let offset = Int32(timeZone.secondsFromGMT(for: next))
            // The walk also reports changes of abbreviation only; keep real offset changes.
            if offset != offsets[offsets.count - 1] {
                transitions.append(Int64(next.timeIntervalSince1970.rounded(.down)))
                offsets.append(offset)
            }
            cursor = next
        }
        self.transitions = transitions
        self.offsets = offsets
    }

    private static let cache = Mutex<[TimeZone: ZoneRules]>([:])

    /// Shared rules for `timeZone`, built once per zone and process.
    public static func shared(for timeZone: TimeZone) -> ZoneRules {
        if let rules = cache.withLock({ $0[timeZone] }) { return rules }
        // Build outside the lock: a zone takes milliseconds and others may be waiting.
        let rules = ZoneRules(timeZone)
        return cache.withLock { cache in
            if let existing = cache[timeZone] { return existing }
            cache[timeZone] = rules
            return rules
        }
    }

    /// Number of offset changes in the table (for tests and diagnostics).
    public var transitionCount: Int { transitions.count }

    /// UTC offset in seconds (east positive) in force at `instant`.
    @inline(__always)
    public func offset(at instant: Int64) -> Int {
        guard instant >= tableStart, instant < tableEnd else {
            return timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
        }
        return transitions.withUnsafeBufferPointer { table in
            var low = 0
            var high = table.count
            while low < high {
                let mid = (low + high) >> 1
                if table[mid] <= instant { low = mid + 1 } else { high = mid }
            }
            return Int(offsets[low])
        }
    }

    /// The wall-clock reading at `instant`.
    public func localDateTime(at instant: Int64) -> LocalDateTime {
        let offset = offset(at: instant)
        return LocalDateTime(localSeconds: instant + Int64(offset), utcOffset: offset)
    }

    /// The instant at which a clock in this zone shows `wall` (local seconds since
    /// the epoch, i.e. UTC seconds plus offset), following alarmd's time rules:
    ///
    /// - a wall time that happens twice (fall-back overlap) resolves to its first
    ///   occurrence;
    /// - a wall time that never happens (spring-forward gap) resolves to the instant
    ///   that lies as far after the transition as the wall time lay after the
    ///   clock reading at the transition: 02:30 in a 02:00→03:00 gap is 03:30.
    ///
    /// Assumes at most one offset change within a day either side of `wall`, which
    /// holds for every zone in the tz database since 1900.
    public func instant(forWall wall: Int64) -> Int64 {
        // Every valid answer lies within [wall - 14 h, wall + 12 h]; a day either side
        // brackets it with the offsets before and after any transition nearby.
        let before = offset(at: wall - CivilTime.secondsPerDay)
        let after = offset(at: wall + CivilTime.secondsPerDay)
        let early = wall - Int64(before)
        if before == after { return early }
        let late = wall - Int64(after)
        let earlyValid = offset(at: early) == before
        let lateValid = offset(at: late) == after
        switch (earlyValid, lateValid) {
        case (true, true): return min(early, late)
        case (true, false): return early
        case (false, true): return late
        // Gap: reading the wall time with the old offset lands exactly as far after
        // the transition as the wall time is after the old clock's reading there.
        case (false, false): return early
        }
    }
}

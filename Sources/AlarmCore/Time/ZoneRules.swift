// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A time zone's UTC offsets as a sorted table of transitions, so that converting
/// between instants and wall-clock times is a binary search plus arithmetic.
///
/// The table comes from the zone's TZif file: its listed transitions, then the
/// footer's yearly rule written out up to `defaultEnd`. A lookup costs tens of
/// nanoseconds, which is what lets a million alarms be planned at start-up.
/// Instants are whole seconds since the Unix epoch (`Int64`).
public final class ZoneRules: Sendable {
    /// 1900-01-01T00:00:00Z, where written-out footer rules start when a file
    /// lists no transition at all.
    public static let defaultStart: Int64 = -2_208_988_800
    /// 2200-01-01T00:00:00Z; later instants are read from the footer rule directly.
    public static let defaultEnd: Int64 = 7_258_118_400

    /// The tz database name, such as `Europe/Berlin`.
    public let identifier: String
    /// Instants at which the offset changes, ascending.
    private let transitions: [Int64]
    /// `offsets[i]` holds from `transitions[i - 1]` (inclusive) to `transitions[i]`;
    /// one more entry than `transitions`.
    private let offsets: [Int32]
    private let tableEnd: Int64
    private let footer: PosixZoneRule?

    /// Builds the table up to `end` from a zone's TZif data.
    public init(identifier: String, tzif: TZif, end: Int64 = ZoneRules.defaultEnd) {
        self.identifier = identifier
        tableEnd = end
        footer = tzif.footer
        var transitions: [Int64] = []
        var offsets: [Int32] = [tzif.initialOffset]
        func add(_ instant: Int64, _ offset: Int32) {
            // Files also list changes of abbreviation or of the DST flag alone; keep real offset changes.
            if offset != offsets[offsets.count - 1] {
                transitions.append(instant)
                offsets.append(offset)
            }
        }
        for (instant, offset) in zip(tzif.transitions, tzif.offsets) where instant < end { add(instant, offset) }
        if let footer = tzif.footer {
            let last = tzif.transitions.last ?? ZoneRules.defaultStart
            let firstYear = Self.year(of: min(max(last, ZoneRules.defaultStart), end))
            for year in firstYear...Self.year(of: end) {
                for change in footer.transitions(year: year) where change.instant > last && change.instant < end {
                    add(change.instant, change.offset)
                }
            }
            // A footer without daylight time may still differ from the last listed type.
            if footer.daylight == nil, last < end { add(max(last, ZoneRules.defaultStart), footer.standardOffset) }
        }
        self.transitions = transitions
        self.offsets = offsets
    }

    /// The zone's current yearly rule (the TZif footer), `nil` for a zone
    /// built without one: what an iCalendar `VTIMEZONE` says of it.
    public var yearlyRule: PosixZoneRule? { footer }

    /// A zone whose offset never changes.
    public convenience init(identifier: String, fixedOffset: Int32) {
        self.init(identifier: identifier, tzif: TZif(transitions: [], offsets: [], initialOffset: fixedOffset, footer: nil))
    }

    private static func year(of instant: Int64) -> Int {
        CivilTime.date(dayNumber: CivilTime.floorDiv(instant, CivilTime.secondsPerDay)).year
    }

    /// Number of offset changes the table lists in `range` (for tests and diagnostics).
    public func transitionCount(in range: Range<Int64>) -> Int {
        transitions.reduce(0) { $0 + (range.contains($1) ? 1 : 0) }
    }

    /// UTC offset in seconds (east positive) in force at `instant`.
    @inline(__always)
    public func offset(at instant: Int64) -> Int {
        if instant >= tableEnd, let footer { return Int(footer.offset(at: instant)) }
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

    /// The local date (a day number) at `instant`: what "today" is there.
    public func localDay(at instant: Int64) -> Int64 {
        CivilTime.floorDiv(instant + Int64(offset(at: instant)), CivilTime.secondsPerDay)
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

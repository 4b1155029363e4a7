// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// When an alarm rings next, as its row says it: `in 8 h 5 min`, `in less
/// than a minute`, `tomorrow`, `on Fri`, `on Dec 24`; or why not as usual:
/// `switched off`, `ringing`, `snoozed until 07:39`, `paused until Dec 14`,
/// `skipping Fri`, `will not ring again`. Pure: the instant comes from the
/// item, `now` and the zone from the caller.
///
/// Within a day the span is given (real elapsed time, so a change to or
/// from daylight saving time in between counts); beyond, the day.
public enum NextRingPhrase {
    public static func text(for item: AlarmItem, now: Date, zone: Zone, in l: some Localization) -> String {
        let days = DayText(now: now, zone: zone)
        switch item.phase {
        case .ringing:
            return l.L("ringing")
        case .snoozed:
            guard let until = item.next else { return l.L("snoozed") }
            return l.Lf("snoozed until %s", days.clock(until, in: l))
        case .waiting:
            break
        }
        guard item.enabled else { return l.L("switched off") }
        if let pausedUntil = item.pausedUntil, pausedUntil > days.today {
            return l.Lf("paused until %s", days.date(pausedUntil, in: l))
        }
        guard let next = item.next ?? (item.hasLiveState ? nil : item.estimatedNext(after: now, systemZone: zone)) else {
            return l.L("will not ring again")
        }
        if item.skipNext {
            // The daemon's `next` is already the ring after the skipped one;
            // the skipped one is the rule's next occurrence from now.
            let skipped = item.estimatedNext(after: now, systemZone: zone) ?? next
            return l.Lf("skipping %s", days.weekdayOrDate(days.day(of: skipped), in: l))
        }
        return phrase(until: next, now: now, zone: zone, in: l)
    }

    /// The phrase for a ring at `next`: the span within 24 hours, else the day.
    public static func phrase(until next: Date, now: Date, zone: Zone, in l: some Localization) -> String {
        let seconds = next.timeIntervalSince(now)
        if seconds < 86_400 { return l.Lf("in %s", DurationText.text(seconds, in: l)) }
        let days = DayText(now: now, zone: zone)
        let day = days.day(of: next)
        if day == days.today + 1 { return l.L("tomorrow") }
        return l.Lf("on %s", days.weekdayOrDate(day, in: l))
    }
}

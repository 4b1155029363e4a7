// SPDX-License-Identifier: Apache-2.0
/// `VTIMEZONE` components (RFC 5545 §3.6.5) for the zones pinned alarms name
/// in `TZID`: the zone's current yearly rule (its TZif footer) as a
/// `STANDARD` and a `DAYLIGHT` observance that recur yearly, which is what a
/// reader needs for an alarm's occurrences from now on. (Past rule changes
/// are left out: no alarm rings in the past.)
extension ICalendarItems {
    /// Writes `zone`'s `VTIMEZONE`; `false`, writing nothing, when its rule
    /// cannot be said as a yearly `RRULE` (a Julian-day rule, or a change at
    /// a time outside its day), and readers must go by the IANA name alone.
    @discardableResult
    static func writeTimeZone(_ zone: Zone, to writer: inout ICalendarWriter, now: Int64) -> Bool {
        guard let rule = zone.rules.yearlyRule else {
            // A zone without a footer keeps the offset it has now.
            let offset = Int32(zone.rules.offset(at: now))
            writer.begin("VTIMEZONE")
            writer.property("TZID", zone.identifier)
            observance("STANDARD", from: offset, to: offset, day: CivilTime.dayNumber(year: 1970, month: 1, day: 1), seconds: 0, rule: nil, to: &writer)
            writer.end("VTIMEZONE")
            return true
        }
        guard let daylight = rule.daylight else {
            writer.begin("VTIMEZONE")
            writer.property("TZID", zone.identifier)
            observance("STANDARD", from: rule.standardOffset, to: rule.standardOffset, day: CivilTime.dayNumber(year: 1970, month: 1, day: 1), seconds: 0,
                       rule: nil, to: &writer)
            writer.end("VTIMEZONE")
            return true
        }
        guard let onset = yearly(daylight.start), let end = yearly(daylight.end),
              (0..<86_400).contains(daylight.startTime), (0..<86_400).contains(daylight.endTime) else { return false }
        writer.begin("VTIMEZONE")
        writer.property("TZID", zone.identifier)
        // Each observance starts at its change in 1970, in the local time
        // before it (TZOFFSETFROM), as the POSIX rule gives it.
        observance("DAYLIGHT", from: rule.standardOffset, to: daylight.offset, day: daylight.start.dayNumber(year: 1970), seconds: Int(daylight.startTime),
                   rule: onset, to: &writer)
        observance("STANDARD", from: daylight.offset, to: rule.standardOffset, day: daylight.end.dayNumber(year: 1970), seconds: Int(daylight.endTime),
                   rule: end, to: &writer)
        writer.end("VTIMEZONE")
        return true
    }

    private static func observance(_ name: String, from: Int32, to: Int32, day: Int64, seconds: Int, rule: String?, to writer: inout ICalendarWriter) {
        writer.begin(name)
        writer.property("TZOFFSETFROM", offsetText(from))
        writer.property("TZOFFSETTO", offsetText(to))
        writer.property("DTSTART", localDateTimeText(day: day, seconds: seconds))
        if let rule { writer.property("RRULE", rule) }
        writer.end(name)
    }

    /// `Mm.w.d` as `FREQ=YEARLY;BYMONTH=m;BYDAY=wXX` (week 5 is the last, `-1`).
    private static func yearly(_ day: PosixZoneRule.YearDay) -> String? {
        guard case .monthWeekDay(let month, let week, let weekday) = day, (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else {
            return nil
        }
        return "FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(week == 5 ? "-1" : String(week))\(RecurrenceRule.icalendarWeekdays[weekday])"
    }

    /// `+0100`, `-0330`, `+053045` (seconds only when there are any).
    static func offsetText(_ offset: Int32) -> String {
        let value = abs(Int(offset))
        var text = (offset < 0 ? "-" : "+") + LocalDateTime.pad(value / 3600, 2) + LocalDateTime.pad(value / 60 % 60, 2)
        if value % 60 != 0 { text += LocalDateTime.pad(value % 60, 2) }
        return text
    }
}

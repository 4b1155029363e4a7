// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Alarms and reminders as iCalendar (RFC 5545), the form every calendar and
/// to-do program reads: what `alarmctl export --ical` writes and `import
/// --ical` reads, and what a CalDAV server keeps.
///
/// - A reminder is a `VTODO`: `UID` (its id), `SUMMARY`, `DESCRIPTION`,
///   `DUE` (a date for an all-day reminder, else a UTC date-time),
///   `STATUS`/`COMPLETED`, `RRULE`/`EXDATE`, `X-APPLE-SORT-ORDER` (its
///   place in the list), a `VALARM` (`ACTION:DISPLAY`, at the due time) for
///   the ring and one for each advance notice, its image as `ATTACH`.
/// - An alarm is a `VEVENT` that recurs: `DTSTART` a floating local time
///   for a floating alarm, with `TZID` for a pinned one (iCalendar has
///   exactly these two kinds; the zone's `VTIMEZONE` comes first), `RRULE`/`EXDATE`, a `VALARM` with
///   `ACTION:AUDIO` at the start, `SUMMARY` the label, and the fields only
///   alarmd has as `X-ALARMD-*` properties, so a round trip loses nothing
///   and other programs still see an event with an alarm.
///
/// Commands (`command`, `escalateCommand`) are never written or read: a
/// calendar is shared with other programs and devices, and a file or a
/// server must not be able to make this machine run a program. Timers are
/// not written either: a countdown belongs to the machine it runs on.
///
/// Pure: the caller gives the zone, the clock reading and the zone lookup.
public enum ICalendarItems {
    /// The largest file read: 10,000 items are a few megabytes.
    public static let maxBytes = 16 << 20
    public static let maxItems = 100_000
    public static let productID = "-//alarmd//alarmd \(AlarmdVersion.string)//EN"

    /// What reading and writing depend on besides the items.
    public struct Settings: Sendable {
        /// The system zone: floating times and all-day days are its.
        public var zone: Zone
        /// The time of day an all-day reminder is due (`[Reminders] AllDayAt=`).
        public var allDayAt: TimeOfDay
        /// Now, for `DTSTAMP`, new items' `CREATED` and a one-shot alarm's day.
        public var now: Date
        /// An IANA zone by name (`TZID`), `nil` when unknown.
        public var zoneNamed: @Sendable (String) -> Zone?

        public init(zone: Zone, allDayAt: TimeOfDay, now: Date, zoneNamed: @escaping @Sendable (String) -> Zone?) {
            self.zone = zone
            self.allDayAt = allDayAt
            self.now = now
            self.zoneNamed = zoneNamed
        }
    }

    // MARK: Writing

    /// One calendar holding every alarm and reminder (timers left out).
    public static func calendar(alarms: [Alarm], reminders: [Reminder], settings: Settings, uid: String? = nil) -> String {
        var writer = ICalendarWriter()
        writer.begin("VCALENDAR")
        writer.property("VERSION", "2.0")
        writer.property("PRODID", productID)
        writer.property("CALSCALE", "GREGORIAN")
        // Each zone a pinned alarm names in TZID, once (UTC needs none: it is written with Z).
        var zones: [String: Zone] = [:]
        for alarm in alarms { if let zone = alarm.timeZone, zone.identifier != Zone.utc.identifier { zones[zone.identifier] = zone } }
        for (_, zone) in zones.sorted(by: { $0.key < $1.key }) { writeTimeZone(zone, to: &writer, now: settings.now.epochSecondsFloor) }
        for alarm in alarms { write(alarm, to: &writer, settings: settings, uid: uid) }
        for reminder in reminders where !reminder.isTimer { write(reminder, to: &writer, settings: settings, uid: uid) }
        writer.end("VCALENDAR")
        return writer.text
    }

    /// A calendar of one item, as a CalDAV server keeps each; `uid` when the
    /// server knows it by another program's `UID` rather than its id.
    public static func calendar(for item: Item, uid: String? = nil, settings: Settings) -> String {
        switch item {
        case .alarm(let alarm): return calendar(alarms: [alarm], reminders: [], settings: settings, uid: uid)
        case .reminder(let reminder): return calendar(alarms: [], reminders: [reminder], settings: settings, uid: uid)
        }
    }

    /// An alarm's `VEVENT`.
    public static func write(_ alarm: Alarm, to writer: inout ICalendarWriter, settings: Settings, uid: String? = nil) {
        let zone = alarm.timeZone ?? settings.zone
        // UTC is written as UTC date-times (`Z`), which every reader knows;
        // another pinned zone by its IANA name.
        let utc = alarm.timeZone?.identifier == Zone.utc.identifier
        let zoneParameter: [(String, String)] = utc ? [] : alarm.timeZone.map { [("TZID", $0.identifier)] } ?? []
        let suffix = utc ? "Z" : ""
        writer.begin("VEVENT")
        common(uid: uid ?? alarm.id.lowercasedText, created: alarm.created, updated: alarm.updated, to: &writer, settings: settings)
        writer.text("SUMMARY", alarm.label)
        let first: Int64
        if let rule = alarm.recurrence {
            // RFC 5545 makes DTSTART the first instance whatever the rule
            // says; alarmd's rule starts at a day it may not give. The first
            // day it gives is written, so both read the same days.
            first = rule.nextDay(after: rule.start - 1) ?? rule.start
        } else if !alarm.days.isEmpty {
            // From today at the latest, so that no repeat day lies between
            // today and DTSTART: the event then says exactly what the days do.
            let anchor = min(zone.rules.localDay(at: alarm.created.epochSecondsFloor), zone.rules.localDay(at: settings.now.epochSecondsFloor))
            first = (0..<7).map { anchor + $0 }.first { alarm.days.contains(CivilTime.weekday(dayNumber: $0)) } ?? anchor
        } else {
            // A one-shot alarm rings at the next time its clock shows.
            let now = settings.now.epochSecondsFloor
            let today = zone.rules.localDay(at: now)
            let wall = today * CivilTime.secondsPerDay + Int64(alarm.time.secondsIntoDay)
            first = zone.rules.instant(forWall: wall) > now ? today : today + 1
        }
        writer.property("DTSTART", localDateTimeText(day: first, seconds: alarm.time.secondsIntoDay) + suffix, parameters: zoneParameter)
        if let rule = alarm.recurrence {
            // A dated alarm is an event on its day, with no rule.
            if rule != .once(on: rule.start) {
                writer.property("RRULE", ruleValue(rule, seconds: alarm.time.secondsIntoDay, zone: alarm.timeZone.map { _ in zone }))
            }
            if rule.start != first { writer.property("X-ALARMD-RULE-START", RecurrenceRule.icalendarDateText(rule.start), parameters: [("VALUE", "DATE")]) }
            for day in rule.exceptions.sorted() {
                writer.property("EXDATE", localDateTimeText(day: day, seconds: alarm.time.secondsIntoDay) + suffix, parameters: zoneParameter)
            }
        } else if alarm.days == .everyDay {
            writer.property("RRULE", "FREQ=DAILY")
        } else if !alarm.days.isEmpty {
            writer.property("RRULE", "FREQ=WEEKLY;BYDAY=" + alarm.days.days.map { RecurrenceRule.icalendarWeekdays[$0.rawValue] }.joined(separator: ","))
        } else {
            writer.property("X-ALARMD-ONE-SHOT", "TRUE")
        }
        writer.property("X-ALARMD-ENABLED", alarm.enabled ? "TRUE" : "FALSE")
        writer.text("X-ALARMD-SOUND", alarm.sound.description)
        if let volume = alarm.volume { writer.property("X-ALARMD-VOLUME", String(volume)) }
        if let fade = alarm.fadeSeconds { writer.property("X-ALARMD-FADE", String(fade)) }
        writer.property("X-ALARMD-SNOOZE", alarm.snooze.enabled ? "TRUE" : "FALSE")
        writer.property("X-ALARMD-SNOOZE-MINUTES", String(alarm.snooze.minutes))
        writer.property("X-ALARMD-SNOOZE-MAX", String(alarm.snooze.maxCount))
        writer.property("X-ALARMD-RING-SECONDS", String(alarm.ringSeconds))
        if alarm.skipNext { writer.property("X-ALARMD-SKIP-NEXT", "TRUE") }
        if alarm.skipHolidays { writer.property("X-ALARMD-SKIP-HOLIDAYS", "TRUE") }
        if let paused = alarm.pausedUntil { writer.property("X-ALARMD-PAUSED-UNTIL", RecurrenceRule.icalendarDateText(paused), parameters: [("VALUE", "DATE")]) }
        writer.begin("VALARM")
        writer.property("ACTION", "AUDIO")
        writer.property("TRIGGER", "PT0S")
        writer.end("VALARM")
        writer.end("VEVENT")
    }

    /// A reminder's `VTODO`.
    public static func write(_ reminder: Reminder, to writer: inout ICalendarWriter, settings: Settings, uid: String? = nil) {
        writer.begin("VTODO")
        common(uid: uid ?? reminder.id.lowercasedText, created: reminder.created, updated: reminder.updated, to: &writer, settings: settings)
        writer.text("SUMMARY", reminder.title)
        if !reminder.notes.isEmpty { writer.text("DESCRIPTION", reminder.notes) }
        if let due = reminder.due {
            let local = settings.zone.rules.localDateTime(at: due.epochSecondsFloor)
            let day = settings.zone.rules.localDay(at: due.epochSecondsFloor)
            let time = local.hour * 3600 + local.minute * 60 + local.second
            if reminder.allDay {
                let date = RecurrenceRule.icalendarDateText(day)
                // A recurring to-do's instances are counted from DTSTART, which
                // must have DUE's form (RFC 5545 §3.8.2.3).
                if reminder.recurrence != nil { writer.property("DTSTART", date, parameters: [("VALUE", "DATE")]) }
                writer.property("DUE", date, parameters: [("VALUE", "DATE")])
            } else if reminder.recurrence != nil {
                // The rule's days are local days at the due's local time:
                // floating, like an alarm's.
                writer.property("DTSTART", localDateTimeText(day: day, seconds: time))
                writer.property("DUE", localDateTimeText(day: day, seconds: time))
            } else {
                writer.property("DUE", utcText(due))
            }
            if let rule = reminder.recurrence {
                writer.property("RRULE", reminder.allDay ? rule.icalendarValue : ruleValue(rule, seconds: time, zone: nil))
                if rule.start != day { writer.property("X-ALARMD-RULE-START", RecurrenceRule.icalendarDateText(rule.start), parameters: [("VALUE", "DATE")]) }
                for exception in rule.exceptions.sorted() {
                    if reminder.allDay {
                        writer.property("EXDATE", RecurrenceRule.icalendarDateText(exception), parameters: [("VALUE", "DATE")])
                    } else {
                        writer.property("EXDATE", localDateTimeText(day: exception, seconds: time))
                    }
                }
            }
        }
        if reminder.done {
            writer.property("STATUS", "COMPLETED")
            writer.property("COMPLETED", utcText(reminder.updated))
            writer.property("PERCENT-COMPLETE", "100")
        } else {
            writer.property("STATUS", "NEEDS-ACTION")
        }
        writer.property("X-APPLE-SORT-ORDER", String(reminder.position))
        if let image = reminder.imagePath { writer.property("ATTACH", "file://" + percentEncodedPath(image)) }
        if let sound = reminder.sound { writer.text("X-ALARMD-SOUND", sound.description) }
        if reminder.due != nil {
            for lead in [0] + reminder.before {
                writer.begin("VALARM")
                writer.property("ACTION", "DISPLAY")
                writer.text("DESCRIPTION", reminder.title)
                writer.property("TRIGGER", durationText(-lead), parameters: [("RELATED", "END")])
                writer.end("VALARM")
            }
        }
        writer.end("VTODO")
    }

    private static func common(uid: String, created: Date, updated: Date, to writer: inout ICalendarWriter, settings: Settings) {
        writer.text("UID", uid)
        writer.property("DTSTAMP", utcText(settings.now))
        writer.property("CREATED", utcText(created))
        writer.property("LAST-MODIFIED", utcText(updated))
    }

    /// The `RRULE` value for an event whose `DTSTART` is a date-time: RFC
    /// 5545 §3.3.10 wants `UNTIL` a date-time then — floating for a floating
    /// `DTSTART`, UTC for one with a zone — at the occurrence's time on the
    /// last day.
    static func ruleValue(_ rule: RecurrenceRule, seconds: Int, zone: Zone?) -> String {
        let value = rule.icalendarValue
        guard case .until(let day)? = rule.end else { return value }
        let until: String
        if let zone {
            let instant = zone.rules.instant(forWall: day * CivilTime.secondsPerDay + Int64(seconds))
            until = utcText(Date(epochSeconds: instant))
        } else {
            until = localDateTimeText(day: day, seconds: seconds)
        }
        return value.split(separator: ";").map { $0.hasPrefix("UNTIL=") ? "UNTIL=" + until : String($0) }.joined(separator: ";")
    }

    /// `20261224T073000`: a floating local date-time, `seconds` into the day.
    static func localDateTimeText(day: Int64, seconds: Int) -> String {
        RecurrenceRule.icalendarDateText(day) + "T" + LocalDateTime.pad(seconds / 3600, 2) + LocalDateTime.pad(seconds / 60 % 60, 2) + LocalDateTime.pad(seconds % 60, 2)
    }

    /// `20261224T063000Z`.
    static func utcText(_ date: Date) -> String {
        let seconds = date.epochSecondsFloor
        let day = CivilTime.floorDiv(seconds, CivilTime.secondsPerDay)
        return localDateTimeText(day: day, seconds: Int(seconds - day * CivilTime.secondsPerDay)) + "Z"
    }

    /// `PT0S`, `-PT15M`, `-P1D`, `-PT90S`: the largest unit that divides it.
    static func durationText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : ""
        let value = abs(seconds)
        if value == 0 { return "PT0S" }
        if value % 86_400 == 0 { return sign + "P\(value / 86_400)D" }
        if value % 3_600 == 0 { return sign + "PT\(value / 3_600)H" }
        if value % 60 == 0 { return sign + "PT\(value / 60)M" }
        return sign + "PT\(value)S"
    }

    /// A path in a `file:` URI: bytes other than unreserved ones and `/` as `%XX`.
    static func percentEncodedPath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return out
    }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Reading: every `VEVENT` becomes an alarm and every `VTODO` a reminder, from
/// alarmd's own files and from other programs'. What alarmd cannot keep is
/// refused with the line and property named (a moved occurrence, an event
/// with no time of day, a rule outside the subset) rather than read as
/// something else; what only informs other programs (`VTIMEZONE`, an
/// absolute `VALARM` trigger, `PRIORITY`) is passed over.
extension ICalendarItems {
    /// The items in `text`, or the first problem. Ids: a `UID` that is a
    /// UUID is the item's id (alarmd's own files, and most programs'); any
    /// other is turned into one the same way every time (``id(forUID:)``),
    /// so importing the same file again updates rather than duplicates.
    public static func items(icalendar text: String, settings: Settings) throws(ICalendarError) -> (alarms: [Alarm], reminders: [Reminder]) {
        var alarms: [Alarm] = []
        var reminders: [Reminder] = []
        var seen: [UUID: Int] = [:]
        for calendar in try ICalendarComponent.parse(text, maxBytes: maxBytes) {
            for component in calendar.components where component.name == "VEVENT" || component.name == "VTODO" {
                guard alarms.count + reminders.count < maxItems else {
                    throw ICalendarError(line: component.line, property: "BEGIN", value: component.name, requirement: "must not make more than \(maxItems) items in a file")
                }
                let item = try self.item(component, settings: settings)
                if let earlier = seen.updateValue(component.line, forKey: item.id) {
                    throw ICalendarError(line: component.line, property: "UID", value: component["UID"]?.value,
                                         requirement: "must not repeat the UID of the \(component.name) at line \(earlier)")
                }
                switch item {
                case .alarm(let alarm): alarms.append(alarm)
                case .reminder(let reminder): reminders.append(reminder)
                }
            }
        }
        return (alarms, reminders)
    }

    /// One `VEVENT` or `VTODO` as an item.
    public static func item(_ component: ICalendarComponent, settings: Settings) throws(ICalendarError) -> Item {
        if component.properties.contains(where: { $0.name == "RECURRENCE-ID" }) {
            throw component.all("RECURRENCE-ID")[0].refused("cannot be kept: alarmd has no moved or changed single occurrences; change the whole \(component.name) instead")
        }
        guard let uid = try component.single("UID")?.text, !uid.isEmpty else {
            throw ICalendarError(line: component.line, property: "UID", value: nil, requirement: "must be given in the \(component.name) that begins on this line")
        }
        let id = UUID(canonical: uid.lowercased()) ?? id(forUID: uid)
        var created = settings.now
        if let property = try component.single("CREATED") { created = try instant(property, settings: settings) }
        var updated = created
        let stamp = try component.single("DTSTAMP")
        if let property = try component.single("LAST-MODIFIED") ?? stamp { updated = try instant(property, settings: settings) }
        func kept(_ validate: () throws(ValidationError) -> Void) throws(ICalendarError) {
            do { try validate() } catch {
                throw ICalendarError(line: component.line, property: component.name, value: nil, requirement: "cannot be kept: \(error)")
            }
        }
        if component.name == "VEVENT" {
            let alarm = try alarm(component, id: id, created: created, updated: updated, settings: settings)
            try kept { () throws(ValidationError) in try alarm.validate() }
            return .alarm(alarm)
        }
        let reminder = try reminder(component, id: id, created: created, updated: updated, settings: settings)
        try kept { () throws(ValidationError) in try reminder.validate() }
        return .reminder(reminder)
    }

    /// A UUID made from a `UID` that is not one (`1234@tasks.org`): two
    /// FNV-1a hashes of its bytes, marked as a version 8 (RFC 9562's
    /// vendor-specific) UUID. The same UID gives the same id on every device.
    public static func id(forUID uid: String) -> UUID {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in uid.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
            return hash
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        for (offset, value) in [fnv(0xcbf2_9ce4_8422_2325), fnv(0x8422_2325_cbf2_9ce4)].enumerated() {
            for index in 0..<8 { bytes[offset * 8 + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    // MARK: Alarms

    private static func alarm(_ event: ICalendarComponent, id: UUID, created: Date, updated: Date, settings: Settings) throws(ICalendarError) -> Alarm {
        guard let start = try event.single("DTSTART") else {
            throw ICalendarError(line: event.line, property: "DTSTART", value: nil, requirement: N_("must be given in the VEVENT that begins on this line"))
        }
        let date = try localDate(start)
        guard let seconds = date.seconds else {
            throw start.refused("must be a date-time like 20261224T073000: an alarm rings at a time of day, and this is a whole day")
        }
        var zone: Zone?
        if let name = start.parameters["TZID"] {
            guard let found = settings.zoneNamed(name) else { throw start.refused("has TZID \(ValidationError.quoted(name)), which is not an IANA time zone known here") }
            zone = found
        } else if start.value.hasSuffix("Z") {
            zone = .utc
        }
        let time = try timeOfDay(seconds, start)
        var alarm = Alarm(id: id, time: time, label: try event.single("SUMMARY")?.text ?? Alarm.defaultLabel, timeZone: zone, created: created, updated: updated)
        let rules = event.all("RRULE")
        if rules.count > 1 { throw rules[1].refused("must be given only once: alarmd keeps one rule per alarm") }
        let exceptions = try dayList(event.all("EXDATE"))
        if let property = rules.first {
            var rule: RecurrenceRule
            do {
                rule = try RecurrenceRule(icalendarValue: property.value, start: date.day)
            } catch {
                throw error.at(line: property.line)
            }
            rule.end = localUntil(property, rule.end, zone: zone ?? settings.zone)
            if let ruleStart = try event.single("X-ALARMD-RULE-START") { rule.start = try localDate(ruleStart).day }
            rule.exceptions = Set(exceptions)
            let today = (zone ?? settings.zone).rules.localDay(at: settings.now.epochSecondsFloor)
            if let days = plainDays(rule, today: today) { alarm.days = days } else { alarm.recurrence = rule }
        } else if try flag(event, "X-ALARMD-ONE-SHOT") != true {
            alarm.recurrence = .once(on: date.day)
        }
        if let enabled = try flag(event, "X-ALARMD-ENABLED") { alarm.enabled = enabled }
        if let sound = try event.single("X-ALARMD-SOUND") {
            do { alarm.sound = try Sound.parse(sound.text) } catch { throw sound.refused("\(error)") }
        }
        alarm.volume = try number(event, "X-ALARMD-VOLUME") ?? alarm.volume
        alarm.fadeSeconds = try number(event, "X-ALARMD-FADE") ?? alarm.fadeSeconds
        alarm.snooze.enabled = try flag(event, "X-ALARMD-SNOOZE") ?? alarm.snooze.enabled
        alarm.snooze.minutes = try number(event, "X-ALARMD-SNOOZE-MINUTES") ?? alarm.snooze.minutes
        alarm.snooze.maxCount = try number(event, "X-ALARMD-SNOOZE-MAX") ?? alarm.snooze.maxCount
        alarm.ringSeconds = try number(event, "X-ALARMD-RING-SECONDS") ?? alarm.ringSeconds
        alarm.skipNext = try flag(event, "X-ALARMD-SKIP-NEXT") ?? false
        alarm.skipHolidays = try flag(event, "X-ALARMD-SKIP-HOLIDAYS") ?? false
        if let paused = try event.single("X-ALARMD-PAUSED-UNTIL") { alarm.pausedUntil = try localDate(paused).day }
        return alarm
    }

    /// A rule that weekday repeats say as well (`FREQ=DAILY`, or weekly on
    /// some days, with nothing else), kept as those: the alarm then shows,
    /// edits and stores like one made with `--days`. Only when it starts by
    /// the next of its days after `today`: one that starts next March is a
    /// rule, not a repeat from today.
    private static func plainDays(_ rule: RecurrenceRule, today: Int64) -> RepeatDays? {
        guard rule.interval == 1, rule.end == nil, rule.exceptions.isEmpty, rule.byMonth.isEmpty, rule.byMonthDay.isEmpty,
              rule.byDay.allSatisfy({ $0.ordinal == nil }) else { return nil }
        let days: RepeatDays
        switch rule.frequency {
        case .daily where rule.byDay.isEmpty: days = .everyDay
        case .weekly where !rule.byDay.isEmpty: days = RepeatDays(rule.byDay.map(\.weekday))
        default: return nil
        }
        let skipped = rule.start <= today ? [] : Array(today..<min(rule.start, today + 8))
        guard rule.start <= today + 7, !skipped.contains(where: { days.contains(CivilTime.weekday(dayNumber: $0)) }) else { return nil }
        return days
    }

    /// A rule's `UNTIL` given as a UTC date-time (`…T070000Z`, what RFC 5545
    /// asks with a zoned `DTSTART`) is a local day in the event's zone; the
    /// rule reader took its UTC date.
    private static func localUntil(_ property: ICalendarProperty, _ end: RecurrenceRule.End?, zone: Zone) -> RecurrenceRule.End? {
        guard case .until? = end else { return end }
        for part in property.value.split(separator: ";") where part.uppercased().hasPrefix("UNTIL=") {
            let text = part.dropFirst("UNTIL=".count)
            guard text.hasSuffix("Z") || text.hasSuffix("z"), let date = RecurrenceRule.icalendarDate(text.uppercased()[...]), let seconds = date.seconds else { return end }
            return .until(zone.rules.localDay(at: date.day * CivilTime.secondsPerDay + seconds))
        }
        return end
    }

    // MARK: Reminders

    private static func reminder(_ todo: ICalendarComponent, id: UUID, created: Date, updated: Date, settings: Settings) throws(ICalendarError) -> Reminder {
        let title = try todo.single("SUMMARY")?.text ?? ""
        var reminder = Reminder(id: id, title: title.isEmpty ? "Untitled" : title, notes: try todo.single("DESCRIPTION")?.text ?? "",
                                created: created, updated: updated)
        if let due = try todo.single("DUE") {
            let date = try localDate(due)
            if date.seconds == nil {
                reminder.allDay = true
                let wall = date.day * CivilTime.secondsPerDay + Int64(settings.allDayAt.secondsIntoDay)
                reminder.due = Date(epochSeconds: settings.zone.rules.instant(forWall: wall))
            } else {
                reminder.due = try instant(due, settings: settings)
            }
            let rules = todo.all("RRULE")
            if rules.count > 1 { throw rules[1].refused("must be given only once: alarmd keeps one rule per reminder") }
            if let property = rules.first, let due = reminder.due {
                var start = settings.zone.rules.localDay(at: due.epochSecondsFloor)
                if let property = try todo.single("X-ALARMD-RULE-START") { start = try localDate(property).day }
                do {
                    reminder.recurrence = try RecurrenceRule(icalendarValue: property.value, start: start)
                } catch {
                    throw error.at(line: property.line)
                }
                reminder.recurrence?.exceptions = Set(try dayList(todo.all("EXDATE")))
            }
        } else if let rule = todo["RRULE"] {
            throw rule.refused("needs a DUE in the VTODO: alarmd's repeating reminders come back at a due time")
        }
        let status = try todo.single("STATUS")?.value.uppercased()
        reminder.done = status == "COMPLETED" || (status == nil && todo["COMPLETED"] != nil)
        if let order = try todo.single("X-APPLE-SORT-ORDER") {
            guard let position = Int(order.value) else { throw order.refused("must be a whole number") }
            reminder.position = max(0, position)
        }
        for attachment in todo.all("ATTACH") where attachment.value.hasPrefix("file://") {
            reminder.imagePath = String(attachment.value.dropFirst("file://".count)).percentDecoded()
        }
        if let sound = try todo.single("X-ALARMD-SOUND") {
            do { reminder.sound = try Sound.parse(sound.text) } catch { throw sound.refused("\(error)") }
        }
        // Advance notices: alarms before the due time. An alarm at the due
        // time is the ring itself; absolute or after-the-due ones, and more
        // than alarmd keeps, only inform other programs.
        var leads: Set<Int> = []
        // Only a reminder with a due time has anything to be ahead of.
        for valarm in todo.components where valarm.name == "VALARM" && reminder.due != nil {
            guard let trigger = valarm["TRIGGER"], trigger.parameters["VALUE"]?.uppercased() != "DATE-TIME",
                  let seconds = signedDuration(trigger.value), seconds < 0, Reminder.beforeRange.contains(-seconds) else { continue }
            leads.insert(-seconds)
        }
        reminder.before = Array(leads.sorted().prefix(Reminder.maxBefore))
        return reminder
    }

    // MARK: Values

    /// A `DATE` or `DATE-TIME` value's local day and seconds into it, as written.
    private static func localDate(_ property: ICalendarProperty) throws(ICalendarError) -> (day: Int64, seconds: Int64?) {
        guard let date = RecurrenceRule.icalendarDate(property.value[...]) else {
            throw property.refused("must be a date like 20261224 or a date-time like 20261224T073000")
        }
        return date
    }

    /// A `DATE-TIME` as an instant: `Z` is UTC, `TZID` that zone, floating the
    /// system zone; a `DATE` is its start in the system zone.
    private static func instant(_ property: ICalendarProperty, settings: Settings) throws(ICalendarError) -> Date {
        let date = try localDate(property)
        let wall = date.day * CivilTime.secondsPerDay + (date.seconds ?? 0)
        if property.value.hasSuffix("Z") { return Date(epochSeconds: wall) }
        var zone = settings.zone
        if let name = property.parameters["TZID"] {
            guard let found = settings.zoneNamed(name) else { throw property.refused("has TZID \(ValidationError.quoted(name)), which is not an IANA time zone known here") }
            zone = found
        }
        return Date(epochSeconds: zone.rules.instant(forWall: wall))
    }

    private static func timeOfDay(_ seconds: Int64, _ property: ICalendarProperty) throws(ICalendarError) -> TimeOfDay {
        do { return try TimeOfDay(hour: Int(seconds / 3600), minute: Int(seconds / 60 % 60)) } catch { throw property.refused("\(error)") }
    }

    private static func dayList(_ properties: [ICalendarProperty]) throws(ICalendarError) -> [Int64] {
        var days: [Int64] = []
        for property in properties {
            for item in property.value.split(separator: ",") {
                guard let date = RecurrenceRule.icalendarDate(item) else {
                    throw property.refused("must list dates like 20261225 or date-times like 20261225T073000, separated by commas")
                }
                days.append(date.day)
            }
        }
        return days
    }

    private static func flag(_ component: ICalendarComponent, _ name: String) throws(ICalendarError) -> Bool? {
        guard let property = try component.single(name) else { return nil }
        switch property.value.uppercased() {
        case "TRUE": return true
        case "FALSE": return false
        default: throw property.refused("must be TRUE or FALSE")
        }
    }

    private static func number(_ component: ICalendarComponent, _ name: String) throws(ICalendarError) -> Int? {
        guard let property = try component.single(name) else { return nil }
        guard let value = Int(property.value), (-1_000_000...1_000_000).contains(value) else { throw property.refused("must be a whole number") }
        return value
    }

    /// A `TRIGGER` duration (`-PT15M`, `PT0S`, `-P1D`) in seconds, signed.
    static func signedDuration(_ text: String) -> Int? {
        let negative = text.hasPrefix("-")
        let body = negative || text.hasPrefix("+") ? String(text.dropFirst()) : text
        guard let seconds = HolidayCalendar.durationSeconds(body), seconds <= Int64(Int32.max) else { return nil }
        return negative ? -Int(seconds) : Int(seconds)
    }
}

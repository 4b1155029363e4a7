// SPDX-License-Identifier: Apache-2.0
@testable import AlarmCore
import Foundation
import Testing

/// Alarms and reminders through iCalendar text and back: nothing alarmd keeps
/// is lost, the text is what RFC 5545 asks of writers, what other programs
/// write is read, and what cannot be kept is refused by line and property.
@Suite struct ICalendarItemsTests {
    static let now = Date(epochSeconds: 1_796_000_000)  // 2026-11-30

    static func settings(_ zoneName: String = "Europe/Berlin") throws -> ICalendarItems.Settings {
        ICalendarItems.Settings(zone: try zone(zoneName), allDayAt: try timeOfDay("08:30"), now: now, zoneNamed: { ZoneName.zone($0) })
    }

    static func day(_ text: String) -> Int64 { CivilTime.dayNumber(isoDate: text)! }

    static func alarms() throws -> [Alarm] {
        let created = Date(epochSeconds: 1_790_000_000), updated = Date(epochSeconds: 1_795_000_000)
        var monthly = RecurrenceRule(.monthly, interval: 2, byDay: [.init(.friday, ordinal: -1)], start: day("2026-12-01"), end: .until(day("2027-12-31")),
                                     exceptions: [day("2027-01-29")])
        monthly.exceptions.insert(day("2027-05-28"))
        return [
            Alarm(time: try timeOfDay("07:30"), days: .weekdays, label: "Work", created: created, updated: updated),
            Alarm(time: try timeOfDay("06:05"), days: .everyDay, label: "Run; then, coffee\\tea", sound: .themed("bell"),
                  snooze: SnoozeSettings(enabled: false, minutes: 5, maxCount: 3), ringSeconds: 90, volume: 40, fadeSeconds: 30, enabled: false,
                  skipNext: true, created: created),
            Alarm(time: try timeOfDay("23:59"), label: "One shot 鬧鐘", created: created),
            Alarm(time: try timeOfDay("09:00"), label: "Dated", recurrence: .once(on: day("2026-12-24")), created: created),
            Alarm(time: try timeOfDay("10:15"), label: "Pinned monthly", timeZone: try zone("America/New_York"), command: ["/bin/true"],
                  recurrence: monthly, pausedUntil: day("2027-02-01"), skipHolidays: true, created: created, updated: updated),
        ]
    }

    static func reminders() throws -> [Reminder] {
        let created = Date(epochSeconds: 1_790_000_000)
        let settings = try settings()
        let allDay = Date(epochSeconds: settings.zone.rules.instant(forWall: day("2026-12-05") * 86_400 + 8 * 3600 + 1800))
        return [
            Reminder(title: "Plain to-do", position: 0, created: created),
            Reminder(title: "Call the bank", notes: "Line one,\nline two; with \\ and 日本語 and an emoji 🦊 long enough to be folded more than once at seventy-five octets",
                     due: Date(epochSeconds: 1_796_100_000), position: 1, imagePath: "/home/me/Pictures/bank card.png", before: [900, 86_400],
                     sound: .themed("bell"), created: created),
            Reminder(title: "Rent", due: allDay, done: true, position: 2, allDay: true, created: created, updated: Date(epochSeconds: 1_795_500_000)),
            Reminder(title: "Water the plants", due: Date(epochSeconds: settings.zone.rules.instant(forWall: day("2026-12-02") * 86_400 + 18 * 3600)), position: 3,
                     recurrence: RecurrenceRule(.weekly, interval: 2, byDay: [.init(.wednesday)], start: day("2026-11-18"), end: .count(10),
                                                exceptions: [day("2026-12-16")]),
                     created: created),
        ]
    }

    @Test func aRoundTripKeepsEverythingButCommands() throws {
        let settings = try Self.settings()
        let alarms = try Self.alarms(), reminders = try Self.reminders()
        var timer = Reminder(title: "Tea", due: Self.now.addingTimeInterval(300), position: 4, created: Self.now)
        timer.isTimer = true
        let text = ICalendarItems.calendar(alarms: alarms, reminders: reminders + [timer], settings: settings)
        let read = try ICalendarItems.items(icalendar: text, settings: settings)
        var expected = alarms
        expected[4].command = []  // never carried: a calendar must not run programs
        #expect(read.alarms == expected)
        #expect(read.reminders == reminders, "the timer is left out")
        #expect(!text.contains("/bin/true"))
    }

    @Test func theTextIsWhatTheRFCAsksOfWriters() throws {
        let text = ICalendarItems.calendar(alarms: try Self.alarms(), reminders: try Self.reminders(), settings: try Self.settings())
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//alarmd//alarmd "))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(!lines.contains { $0.contains("\n") || $0.contains("\r") }, "CRLF only")
        #expect(lines.allSatisfy { $0.utf8.count <= 75 }, "folded at 75 octets")
        #expect(lines.contains { $0.hasPrefix(" ") }, "the long description is folded")
        #expect(text.contains("SUMMARY:Run\\; then\\, coffee\\\\tea\r\n"))
        #expect(text.contains("DTSTART:") && text.contains("RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\n"))
        #expect(text.contains("DTSTART;TZID=America/New_York:20261225T101500\r\n"), "the first day the rule gives: \(text)")
        #expect(text.contains("RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR;UNTIL=20271231T151500Z\r\n"))
        #expect(text.contains("EXDATE;TZID=America/New_York:20270129T101500\r\n"))
        #expect(text.contains("DUE;VALUE=DATE:20261205\r\n") && text.contains("STATUS:COMPLETED\r\n"))
        #expect(text.contains("TRIGGER;RELATED=END:-PT15M\r\n") && text.contains("TRIGGER;RELATED=END:-P1D\r\n") && text.contains("ACTION:AUDIO\r\n"))
        #expect(text.contains("ATTACH:file:///home/me/Pictures/bank%20card.png\r\n"))
        #expect(text.contains("X-APPLE-SORT-ORDER:3\r\n"))
        #expect(text.contains("""
            BEGIN:VTIMEZONE\r
            TZID:America/New_York\r
            BEGIN:DAYLIGHT\r
            TZOFFSETFROM:-0500\r
            TZOFFSETTO:-0400\r
            DTSTART:19700308T020000\r
            RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r
            END:DAYLIGHT\r
            BEGIN:STANDARD\r
            TZOFFSETFROM:-0400\r
            TZOFFSETTO:-0500\r
            DTSTART:19701101T020000\r
            RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r
            END:STANDARD\r
            END:VTIMEZONE\r

            """), "\(text)")
        #expect(text.components(separatedBy: "BEGIN:VTIMEZONE").count == 2, "once per zone")
    }

    @Test func foldedTextUnfoldsWhereverTheFoldFalls() throws {
        var writer = ICalendarWriter()
        let value = String(repeating: "鬧鐘🦊a,", count: 40)
        writer.text("DESCRIPTION", value)
        let physical = writer.text.components(separatedBy: "\r\n").dropLast()
        #expect(physical.count > 3 && physical.allSatisfy { $0.utf8.count <= 75 })
        let calendar = try ICalendarComponent.parse("BEGIN:VCALENDAR\r\n" + writer.text + "END:VCALENDAR\r\n", maxBytes: 1 << 20)
        #expect(calendar[0]["DESCRIPTION"]?.text == value)
    }

    /// A to-do as Tasks.org (through DAVx⁵) writes one: a UID that is not a
    /// UUID, a due time in a named zone, alarms before and at the due time,
    /// parameters with quoted values, lower-case names, LF line ends.
    @Test func anotherProgramsToDoIsRead() throws {
        let text = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:+//IDN tasks.org//android-130101//EN
            BEGIN:VTODO
            DTSTAMP:20261201T100000Z
            uid:4711815562354830347
            CREATED:20261130T090000Z
            LAST-MODIFIED:20261201T095959Z
            SUMMARY;LANGUAGE=en:Buy milk
            DESCRIPTION;ALTREP="cid:part1.0001@example.org":2 litres\\, semi-skimmed
            PRIORITY:9
            DUE;TZID=Europe/Berlin:20261203T170000
            X-APPLE-SORT-ORDER:-42
            BEGIN:VALARM
            TRIGGER;RELATED=END:PT0S
            ACTION:DISPLAY
            DESCRIPTION:Default Tasks.org description
            END:VALARM
            BEGIN:VALARM
            TRIGGER;RELATED=END:-PT30M
            ACTION:DISPLAY
            END:VALARM
            BEGIN:VALARM
            TRIGGER;VALUE=DATE-TIME:20261203T120000Z
            ACTION:DISPLAY
            END:VALARM
            END:VTODO
            END:VCALENDAR

            """
        let read = try ICalendarItems.items(icalendar: text, settings: try Self.settings("UTC"))
        let reminder = try #require(read.reminders.first)
        #expect(reminder.id == ICalendarItems.id(forUID: "4711815562354830347"))
        #expect(reminder.id == (try ICalendarItems.items(icalendar: text, settings: try Self.settings("UTC"))).reminders.first?.id, "the same every time")
        #expect(reminder.title == "Buy milk" && reminder.notes == "2 litres, semi-skimmed")
        #expect(reminder.due == Date(epochSeconds: 1_796_313_600), "17:00 in Berlin is 16:00 UTC")
        #expect(reminder.before == [1800] && !reminder.done && reminder.position == 0)
        #expect(reminder.updated == Date(epochSeconds: 1_796_119_199))
    }

    @Test(arguments: [
        ("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nEND:VCALENDAR\n", "line 4: END \"VCALENDAR\": must come after END:VTODO for the BEGIN:VTODO at line 2"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:20261224\nEND:VEVENT\nEND:VCALENDAR\n",
         "line 4: DTSTART \"20261224\": must be a date-time like 20261224T073000: an alarm rings at a time of day, and this is a whole day"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:20261224T070000\nRRULE:FREQ=HOURLY\nEND:VEVENT\nEND:VCALENDAR\n",
         "line 5: RRULE \"FREQ=HOURLY\": FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART;TZID=Mars/Olympus:20261224T070000\nEND:VEVENT\nEND:VCALENDAR\n",
         "line 4: DTSTART \"20261224T070000\": has TZID \"Mars/Olympus\", which is not an IANA time zone known here"),
        ("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nRECURRENCE-ID:20261224T070000\nEND:VTODO\nEND:VCALENDAR\n",
         "line 4: RECURRENCE-ID \"20261224T070000\": cannot be kept: alarmd has no moved or changed single occurrences; change the whole VTODO instead"),
        ("BEGIN:VCALENDAR\nBEGIN:VTODO\nSUMMARY:x\nEND:VTODO\nEND:VCALENDAR\n", "line 2: UID: must be given in the VTODO that begins on this line"),
        ("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nEND:VTODO\nBEGIN:VTODO\nUID:a\nEND:VTODO\nEND:VCALENDAR\n",
         "line 5: UID \"a\": must not repeat the UID of the VTODO at line 2"),
        ("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nX-APPLE-SORT-ORDER:first\nEND:VTODO\nEND:VCALENDAR\n", "line 4: X-APPLE-SORT-ORDER \"first\": must be a whole number"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:a\nDTSTART:20261224T070000\nX-ALARMD-VOLUME:400\nEND:VEVENT\nEND:VCALENDAR\n",
         "line 2: VEVENT: cannot be kept: volume must be 1–100 (percent), got 400"),
        ("BEGIN:VCALENDAR\nBEGIN:VTODO\nUID;a\nEND:VTODO\nEND:VCALENDAR\n", "line 3: \"UID;a\": must look like NAME:value or NAME;PARAMETER=x:value"),
    ])
    func whatCannotBeKeptIsRefusedByLineAndProperty(text: String, message: String) throws {
        let settings = try Self.settings()
        do throws(ICalendarError) {
            _ = try ICalendarItems.items(icalendar: text, settings: settings)
            Issue.record("read without complaint: \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func anEventWithoutARuleIsADatedAlarmAndAQuotedParameterMayHoldAColon() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:0f0e0d0c-0b0a-4908-8706-050403020100\r\nSUMMARY;X-NOTE=\"a:b;c\":Dentist\r\nDTSTART:20261224T073000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let alarm = try #require(try ICalendarItems.items(icalendar: text, settings: try Self.settings()).alarms.first)
        #expect(alarm.label == "Dentist" && alarm.timeZone == .utc && alarm.time.description == "07:30")
        #expect(alarm.recurrence == .once(on: Self.day("2026-12-24")))
        #expect(alarm.id.uuidString.lowercased() == "0f0e0d0c-0b0a-4908-8706-050403020100")
    }

    /// A weekly event that starts months from now is a rule from then, not
    /// weekday repeats from today; one that starts by its next day is the
    /// repeat days. A UTC `UNTIL` is a local day in the event's zone.
    @Test func aWeeklyEventKeepsItsStartAndItsLastDay() throws {
        func alarm(_ start: String, _ rule: String) throws -> Alarm {
            let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART;TZID=Asia/Tokyo:\(start)\r\nRRULE:\(rule)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            return try #require(try ICalendarItems.items(icalendar: text, settings: try Self.settings()).alarms.first)
        }
        let later = try alarm("20270301T063000", "FREQ=WEEKLY;BYDAY=MO")
        #expect(later.days.isEmpty && later.recurrence?.start == Self.day("2027-03-01"), "\(later.repeatText)")
        // Now is Mon 2026-11-30 in Tokyo: starting Tue on Tue and Wed is what those days say from today;
        // starting Wed on Mon and Wed is not (today, a Monday, would ring).
        #expect(try alarm("20261201T063000", "FREQ=WEEKLY;BYDAY=TU,WE").days == RepeatDays([.tuesday, .wednesday]))
        #expect(try alarm("20261202T063000", "FREQ=WEEKLY;BYDAY=MO,WE").days.isEmpty)
        // 06:30 in Tokyo on 2027-01-31 is 21:30 UTC the day before.
        let until = try alarm("20261202T063000", "FREQ=DAILY;UNTIL=20270130T213000Z")
        #expect(until.recurrence?.end == .until(Self.day("2027-01-31")))
    }

    @Test func idsMadeFromOtherUIDsAreVersion8UUIDs() {
        let id = ICalendarItems.id(forUID: "4711@tasks.org").uuidString.lowercased()
        #expect(Array(id)[14] == "8" && "89ab".contains(Array(id)[19]), "\(id)")
        #expect(ICalendarItems.id(forUID: "4711@tasks.org") != ICalendarItems.id(forUID: "4712@tasks.org"))
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import AlarmCore

// Display text as a phone's alarm screen shows it. Sets are built from raw bit masks
// (Sunday = bit 0, as RepeatDays documents) so the expectations do not go through
// the parser.

@Suite("Display text")
struct DisplayTests {
    static let displayCases: [([Weekday], String)] = [
        ([], "Never"),
        (Weekday.allCases, "Every day"),
        ([.monday, .tuesday, .wednesday, .thursday, .friday], "Weekdays"),
        ([.saturday, .sunday], "Weekends"),
        ([.monday, .wednesday, .friday], "Mon, Wed, Fri"),
        // Week order is Monday first and Sunday last, whatever the bit order.
        ([.sunday, .monday], "Mon, Sun"),
        ([.sunday], "Sun"),
        ([.saturday], "Sat"),
        // Only exactly Mon–Fri is "Weekdays", only exactly Sat+Sun is "Weekends".
        ([.monday, .tuesday, .wednesday, .thursday, .friday, .saturday], "Mon, Tue, Wed, Thu, Fri, Sat"),
        ([.tuesday, .wednesday, .thursday, .friday, .saturday, .sunday], "Tue, Wed, Thu, Fri, Sat, Sun"),
        ([.monday, .tuesday, .wednesday, .thursday], "Mon, Tue, Wed, Thu"),
        ([.friday, .saturday, .sunday], "Fri, Sat, Sun"),
        ([.saturday, .sunday, .monday], "Mon, Sat, Sun"),
        ([.sunday, .friday], "Fri, Sun"),
    ]

    @Test(arguments: displayCases)
    func repeatDaysText(days: [Weekday], expected: String) {
        #expect(RepeatDays(rawValue: mask(days)).displayText == expected)
    }

    @Test func bitsOutsideTheWeekAreIgnored() {
        // Bit 7 is not a day; a stored byte with it set must still read as Mon–Fri.
        #expect(RepeatDays(rawValue: 0x80 | mask([.monday, .tuesday, .wednesday, .thursday, .friday])).displayText == "Weekdays")
    }

    @Test(arguments: [
        (Weekday.sunday, 0, "Sun", "sun", "Sunday"), (.monday, 1, "Mon", "mon", "Monday"), (.tuesday, 2, "Tue", "tue", "Tuesday"),
        (.wednesday, 3, "Wed", "wed", "Wednesday"), (.thursday, 4, "Thu", "thu", "Thursday"), (.friday, 5, "Fri", "fri", "Friday"),
        (.saturday, 6, "Sat", "sat", "Saturday"),
    ])
    func weekdayNames(day: Weekday, posix: Int, short: String, code: String, full: String) {
        #expect(day.rawValue == posix)
        #expect(day.shortName == short)
        #expect(day.code == code)
        #expect(day.fullName == full)
        #expect(Weekday(name: full.uppercased()) == day)
        #expect(Weekday(name: short) == day)
    }

    static let created = Date(timeIntervalSince1970: 1_772_000_000)

    @Test(arguments: [
        ("Work", [Weekday.monday, .tuesday, .wednesday, .thursday, .friday], "Work, Weekdays"),
        ("Gym", [.monday, .wednesday, .friday], "Gym, Mon, Wed, Fri"),
        ("Lie-in", [.saturday, .sunday], "Lie-in, Weekends"),
        ("Pills", Weekday.allCases, "Pills, Every day"),
        ("Bins", [.sunday, .monday], "Bins, Mon, Sun"),
        // One-shot alarms show just the label.
        ("Dentist", [], "Dentist"),
        ("起床 ⏰", [], "起床 ⏰"),
    ])
    func alarmListLine(label: String, days: [Weekday], expected: String) throws {
        let alarm = Alarm(time: try timeOfDay("07:00"), days: RepeatDays(rawValue: mask(days)), label: label, created: Self.created)
        #expect(alarm.listLine == expected)
        #expect(alarm.isOneShot == days.isEmpty)
    }

    @Test func defaultLabelIsAlarm() throws {
        let alarm = Alarm(time: try timeOfDay("07:00"), created: Self.created)
        #expect(alarm.label == "Alarm")
        #expect(alarm.listLine == "Alarm")
        #expect(alarm.updated == alarm.created)
    }

    @Test(arguments: [
        (Sound.themed("alarm-clock-elapsed"), "alarm-clock-elapsed"),
        (.file("/usr/share/sounds/freedesktop/stereo/bell.oga"), "/usr/share/sounds/freedesktop/stereo/bell.oga"),
        (.none, "none"),
    ])
    func soundStoredForm(sound: Sound, text: String) throws {
        #expect(sound.description == text)
        #expect(try Sound.parse(text) == sound)
    }

    /// Wall-clock text of an instant; offsets were checked with Python's zoneinfo.
    @Test(arguments: [
        ("America/New_York", "2026-03-08T07:30:00Z", "2026-03-08T03:30:00-04:00"),
        ("America/New_York", "2026-01-15T12:00:00Z", "2026-01-15T07:00:00-05:00"),
        ("Australia/Lord_Howe", "2026-10-03T15:45:00Z", "2026-10-04T02:45:00+11:00"),
        ("Australia/Lord_Howe", "2026-06-01T00:00:00Z", "2026-06-01T10:30:00+10:30"),
        ("Asia/Kolkata", "2026-06-01T00:00:00Z", "2026-06-01T05:30:00+05:30"),
        ("UTC", "1969-12-31T23:59:59Z", "1969-12-31T23:59:59+00:00"),
        // Liberia kept an offset of -00:44:30 until 1972: seconds show in the offset.
        ("Africa/Monrovia", "1970-06-01T12:00:00Z", "1970-06-01T11:15:30-00:44:30"),
    ])
    func localDateTimeText(zoneID: String, instant: String, expected: String) throws {
        let local = try zone(zoneID).rules.localDateTime(at: try ISO.seconds(instant))
        #expect(local.description == expected)
    }

    @Test func localDateTimeFields() throws {
        let local = try zone("America/Santiago").rules.localDateTime(at: try ISO.seconds("2026-04-05T03:10:00Z"))
        // Second pass through 23:xx on Saturday 4 April (clocks went back at midnight).
        #expect(local.dateText == "2026-04-04")
        #expect(local.hourMinuteText == "23:10")
        #expect(local.timeText == "23:10:00")
        #expect(local.weekday == .saturday)
        #expect(local.utcOffset == -4 * 3600)
        #expect(local.offsetText == "-04:00")
    }

    @Test func wireNamesOfEvents() {
        #expect(EventKind.allCases.map(\.rawValue) == ["fired", "snoozed", "dismissed", "timed-out", "skipped", "missed", "completed", "changed", "escalated", "notice"])
        #expect(ItemKind.allCases.map(\.rawValue) == ["alarm", "reminder"])
    }
}

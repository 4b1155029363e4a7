// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import AlarmCore

// Next-fire instants around real 2026 transitions in six zones. Transition instants
// were looked up with Python's zoneinfo (tzdata 2025b):
//
//   America/New_York     2026-03-08T07:00Z  01:59:59 EST → 03:00 EDT (gap 02:00–03:00)
//                        2026-11-01T06:00Z  01:59:59 EDT → 01:00 EST (01:00–02:00 twice)
//   Europe/Berlin        2026-03-29T01:00Z  02:00 → 03:00;  2026-10-25T01:00Z  03:00 → 02:00
//   Australia/Sydney     2026-04-04T16:00Z  Sun 5 Apr 03:00 AEDT → 02:00 AEST (02:00–03:00 twice)
//                        2026-10-03T16:00Z  Sun 4 Oct 02:00 → 03:00
//   Asia/Taipei          no transitions (UTC+8 all year)
//   Australia/Lord_Howe  2026-04-04T15:00Z  Sun 5 Apr 02:00 +11 → 01:30 +10:30 (01:30–02:00 twice)
//                        2026-10-03T15:30Z  Sun 4 Oct 02:00 +10:30 → 02:30 +11 (30-minute gap)
//   America/Santiago     2026-04-05T03:00Z  Sun 00:00 -03 → Sat 4 Apr 23:00 -04 (Sat 23:00–24:00 twice)
//                        2026-09-06T04:00Z  Sun 6 Sep 00:00 -04 → 01:00 -03 (gap 00:00–01:00)
//
// Expected instants are hand-worked from those and cross-checked with zoneinfo using
// PEP 495 fold=0, which reads a gap time with the offset before the transition (the
// same "as far after the transition" rule) and an overlap time as its first occurrence.

struct FireCase: Sendable, CustomTestStringConvertible {
    let zone: String
    let time: String
    /// Spec for RepeatDays.parse; "" is a one-shot alarm.
    let days: String
    let after: String
    let expected: String
    let why: String

    init(_ zone: String, _ time: String, _ days: String, after: String, _ expected: String, _ why: String) {
        (self.zone, self.time, self.days, self.after, self.expected, self.why) = (zone, time, days, after, expected, why)
    }

    var testDescription: String { "\(zone) \(time) [\(days)] after \(after): \(why)" }

    func repeatDays() throws -> RepeatDays { days.isEmpty ? [] : try RepeatDays.parse(days) }
}

@Suite("Next fire")
struct NextFireTests {
    static let cases: [FireCase] = [
        // America/New_York
        FireCase("America/New_York", "07:30", "daily", after: "2026-03-07T05:00:00Z", "2026-03-07T12:30:00Z", "day before spring-forward, EST"),
        FireCase("America/New_York", "07:30", "daily", after: "2026-03-07T13:00:00Z", "2026-03-08T11:30:00Z", "spring-forward day, EDT"),
        FireCase("America/New_York", "02:30", "daily", after: "2026-03-07T12:00:00Z", "2026-03-08T07:30:00Z", "gap: 02:30 fires at 03:30 EDT"),
        FireCase("America/New_York", "02:30", "daily", after: "2026-03-08T07:30:00Z", "2026-03-09T06:30:00Z", "after the gap-shifted one: next day 02:30 EDT"),
        FireCase("America/New_York", "07:30", "daily", after: "2026-10-31T12:00:00Z", "2026-11-01T12:30:00Z", "fall-back day, EST"),
        FireCase("America/New_York", "01:30", "daily", after: "2026-10-31T12:00:00Z", "2026-11-01T05:30:00Z", "overlap: first 01:30 (EDT)"),
        FireCase("America/New_York", "01:30", "daily", after: "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z", "not the second 01:30 (06:30Z)"),
        FireCase("America/New_York", "01:30", "daily", after: "2026-11-01T06:10:00Z", "2026-11-02T06:30:00Z", "from inside the second pass: still not 06:30Z"),
        FireCase("America/New_York", "07:30", "daily", after: "2026-12-31T13:00:00Z", "2027-01-01T12:30:00Z", "year boundary"),
        FireCase("America/New_York", "07:30", "thu", after: "2024-02-23T00:00:00Z", "2024-02-29T12:30:00Z", "Thursday 29 February 2024"),
        FireCase("America/New_York", "07:30", "thu", after: "2024-02-29T12:30:00Z", "2024-03-07T12:30:00Z", "a week after the leap day"),
        FireCase("America/New_York", "07:30", "daily", after: "2028-02-28T13:00:00Z", "2028-02-29T12:30:00Z", "leap day 2028"),
        FireCase("America/New_York", "07:30", "mon,wed,fri", after: "2026-03-06T13:00:00Z", "2026-03-09T11:30:00Z", "Fri → Mon across spring-forward"),
        // Europe/Berlin
        FireCase("Europe/Berlin", "07:30", "daily", after: "2026-03-28T07:00:00Z", "2026-03-29T05:30:00Z", "spring-forward day, CEST"),
        FireCase("Europe/Berlin", "02:30", "daily", after: "2026-03-28T12:00:00Z", "2026-03-29T01:30:00Z", "gap: 03:30 CEST"),
        FireCase("Europe/Berlin", "02:30", "daily", after: "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z", "next day 02:30 CEST"),
        FireCase("Europe/Berlin", "07:30", "daily", after: "2026-10-24T07:00:00Z", "2026-10-25T06:30:00Z", "fall-back day, CET"),
        FireCase("Europe/Berlin", "02:30", "daily", after: "2026-10-24T12:00:00Z", "2026-10-25T00:30:00Z", "overlap: first 02:30 (CEST)"),
        FireCase("Europe/Berlin", "02:30", "daily", after: "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z", "not the second 02:30 (01:30Z)"),
        FireCase("Europe/Berlin", "07:30", "daily", after: "2026-12-31T07:00:00Z", "2027-01-01T06:30:00Z", "year boundary"),
        FireCase("Europe/Berlin", "07:30", "daily", after: "2028-02-28T07:00:00Z", "2028-02-29T06:30:00Z", "leap day 2028"),
        // Australia/Sydney (southern hemisphere: summer time spans the new year)
        FireCase("Australia/Sydney", "07:30", "daily", after: "2026-04-04T00:00:00Z", "2026-04-04T21:30:00Z", "fall-back day, AEST"),
        FireCase("Australia/Sydney", "02:30", "daily", after: "2026-04-04T00:00:00Z", "2026-04-04T15:30:00Z", "overlap: first 02:30 (AEDT)"),
        FireCase("Australia/Sydney", "02:30", "daily", after: "2026-04-04T15:30:00Z", "2026-04-05T16:30:00Z", "not the second 02:30 (16:30Z)"),
        FireCase("Australia/Sydney", "07:30", "daily", after: "2026-10-03T00:00:00Z", "2026-10-03T20:30:00Z", "spring-forward day, AEDT"),
        FireCase("Australia/Sydney", "02:30", "daily", after: "2026-10-03T00:00:00Z", "2026-10-03T16:30:00Z", "gap: 03:30 AEDT"),
        FireCase("Australia/Sydney", "02:30", "daily", after: "2026-10-03T16:30:00Z", "2026-10-04T15:30:00Z", "next day 02:30 AEDT"),
        FireCase("Australia/Sydney", "07:30", "daily", after: "2026-12-31T00:00:00Z", "2026-12-31T20:30:00Z", "year boundary (1 Jan 07:30 AEDT)"),
        FireCase("Australia/Sydney", "07:30", "daily", after: "2028-02-28T00:00:00Z", "2028-02-28T20:30:00Z", "leap day 2028 (29 Feb AEDT)"),
        FireCase("Australia/Sydney", "07:30", "thu", after: "2024-02-23T00:00:00Z", "2024-02-28T20:30:00Z", "Thursday 29 February 2024"),
        // Asia/Taipei: no DST, so the "transition" dates of other zones are ordinary days.
        FireCase("Asia/Taipei", "07:30", "daily", after: "2026-03-07T00:00:00Z", "2026-03-07T23:30:00Z", "plain UTC+8"),
        FireCase("Asia/Taipei", "02:30", "daily", after: "2026-03-07T12:00:00Z", "2026-03-07T18:30:00Z", "02:30 exists"),
        FireCase("Asia/Taipei", "01:30", "daily", after: "2026-10-31T12:00:00Z", "2026-10-31T17:30:00Z", "01:30 happens once"),
        FireCase("Asia/Taipei", "07:30", "daily", after: "2026-12-31T00:00:00Z", "2026-12-31T23:30:00Z", "year boundary"),
        FireCase("Asia/Taipei", "07:30", "fri", after: "2026-12-28T00:00:00Z", "2026-12-31T23:30:00Z", "Friday 1 January 2027"),
        FireCase("Asia/Taipei", "07:30", "daily", after: "2028-02-28T00:00:00Z", "2028-02-28T23:30:00Z", "leap day 2028"),
        // Australia/Lord_Howe: 30-minute DST.
        FireCase("Australia/Lord_Howe", "07:30", "daily", after: "2026-04-04T00:00:00Z", "2026-04-04T21:00:00Z", "fall-back day, +10:30"),
        FireCase("Australia/Lord_Howe", "01:45", "daily", after: "2026-04-04T00:00:00Z", "2026-04-04T14:45:00Z", "overlap: first 01:45 (+11)"),
        FireCase("Australia/Lord_Howe", "01:45", "daily", after: "2026-04-04T14:45:00Z", "2026-04-05T15:15:00Z", "not the second 01:45 (15:15Z)"),
        FireCase("Australia/Lord_Howe", "07:30", "daily", after: "2026-10-03T00:00:00Z", "2026-10-03T20:30:00Z", "spring-forward day, +11"),
        FireCase("Australia/Lord_Howe", "02:15", "daily", after: "2026-10-03T00:00:00Z", "2026-10-03T15:45:00Z", "30-minute gap: 02:15 fires at 02:45"),
        FireCase("Australia/Lord_Howe", "02:15", "daily", after: "2026-10-03T15:45:00Z", "2026-10-04T15:15:00Z", "next day 02:15 +11"),
        FireCase("Australia/Lord_Howe", "07:30", "daily", after: "2026-12-31T00:00:00Z", "2026-12-31T20:30:00Z", "year boundary"),
        FireCase("Australia/Lord_Howe", "07:30", "daily", after: "2028-02-28T00:00:00Z", "2028-02-28T20:30:00Z", "leap day 2028"),
        // America/Santiago: transitions at local midnight.
        FireCase("America/Santiago", "07:30", "daily", after: "2026-04-04T12:00:00Z", "2026-04-05T11:30:00Z", "fall-back day, -04"),
        FireCase("America/Santiago", "23:30", "daily", after: "2026-04-04T12:00:00Z", "2026-04-05T02:30:00Z", "overlap on Saturday night: first 23:30 (-03)"),
        FireCase("America/Santiago", "23:30", "daily", after: "2026-04-05T02:30:00Z", "2026-04-06T03:30:00Z", "not the second 23:30 (03:30Z)"),
        FireCase("America/Santiago", "23:05", "daily", after: "2026-04-05T02:50:00Z", "2026-04-06T03:05:00Z", "first 23:05 passed; second (03:05Z) skipped"),
        FireCase("America/Santiago", "23:30", "sat", after: "2026-04-04T12:00:00Z", "2026-04-05T02:30:00Z", "Saturday-only alarm on the overlap night"),
        FireCase("America/Santiago", "07:30", "daily", after: "2026-09-05T12:00:00Z", "2026-09-06T10:30:00Z", "spring-forward day, -03"),
        FireCase("America/Santiago", "00:30", "daily", after: "2026-09-05T12:00:00Z", "2026-09-06T04:30:00Z", "midnight gap: 00:30 fires at 01:30 -03"),
        FireCase("America/Santiago", "00:30", "daily", after: "2026-09-06T04:30:00Z", "2026-09-07T03:30:00Z", "next day 00:30 -03"),
        FireCase("America/Santiago", "07:30", "daily", after: "2026-12-31T12:00:00Z", "2027-01-01T10:30:00Z", "year boundary"),
        FireCase("America/Santiago", "07:30", "daily", after: "2028-02-28T12:00:00Z", "2028-02-29T10:30:00Z", "leap day 2028"),
        // One-shot alarms take the next occurrence of their time on any day.
        FireCase("America/New_York", "07:30", "", after: "2026-06-03T11:00:00Z", "2026-06-03T11:30:00Z", "one-shot later today"),
        FireCase("America/New_York", "07:30", "", after: "2026-06-03T12:00:00Z", "2026-06-04T11:30:00Z", "one-shot tomorrow"),
        FireCase("America/New_York", "02:30", "", after: "2026-03-08T05:00:00Z", "2026-03-08T07:30:00Z", "one-shot in the gap"),
        // Strictly after: an alarm due exactly now goes to its next occurrence.
        FireCase("America/New_York", "07:30", "daily", after: "2026-06-01T11:30:00Z", "2026-06-02T11:30:00Z", "exactly now → tomorrow"),
        FireCase("America/New_York", "07:30", "daily", after: "2026-06-01T11:29:59Z", "2026-06-01T11:30:00Z", "one second before"),
        FireCase("America/New_York", "07:30", "mon,wed,fri", after: "2026-06-05T11:30:00Z", "2026-06-08T11:30:00Z", "exactly now on a Friday → Monday"),
        FireCase("America/New_York", "07:30", "sun", after: "2026-06-01T00:00:00Z", "2026-06-07T11:30:00Z", "Sunday-only from a Monday"),
        FireCase("America/New_York", "00:00", "daily", after: "2026-06-01T04:00:00Z", "2026-06-02T04:00:00Z", "midnight, exactly now"),
        FireCase("America/New_York", "23:59", "daily", after: "2026-06-01T03:59:00Z", "2026-06-02T03:59:00Z", "23:59, exactly now"),
    ]

    @Test(arguments: cases)
    func dailyRule(_ c: FireCase) throws {
        let rule = DailyRule(time: try timeOfDay(c.time), days: try c.repeatDays())
        let rules = try zone(c.zone).rules
        let next = rule.nextFire(after: try ISO.seconds(c.after), rules: rules)
        #expect(ISO.string(seconds: next) == c.expected)
    }

    /// The same table through the public `Schedulable` API, both floating (zone passed
    /// in) and pinned (own zone; the system zone passed in must not matter).
    @Test(arguments: cases)
    func alarm(_ c: FireCase) throws {
        let created = try ISO.date("2020-01-01T00:00:00Z")
        let floating = Alarm(time: try timeOfDay(c.time), days: try c.repeatDays(), created: created)
        let after = try ISO.date(c.after)
        #expect(floating.nextFire(after: after, in: try zone(c.zone)).map(ISO.string) == c.expected)
        var pinned = floating
        pinned.timeZone = try zone(c.zone)
        for system in ["UTC", "Asia/Kolkata", "Pacific/Chatham", "America/St_Johns"] {
            #expect(pinned.nextFire(after: after, in: try zone(system)).map(ISO.string) == c.expected, "system zone \(system)")
        }
    }

    @Test(arguments: [
        ("America/New_York", "2026-06-01T11:30:00Z"),
        ("Europe/Berlin", "2026-06-01T05:30:00Z"),
        ("Asia/Taipei", "2026-06-01T23:30:00Z"),   // 07:30 had passed in Taipei at 00:00Z
        ("Australia/Lord_Howe", "2026-06-01T21:00:00Z"),
    ])
    func floatingAlarmFollowsTheSystemZone(system: String, expected: String) throws {
        let alarm = Alarm(time: try timeOfDay("07:30"), days: .everyDay, created: try ISO.date("2020-01-01T00:00:00Z"))
        let systemZone = try zone(system)
        #expect(alarm.effectiveZone(system: systemZone) == systemZone)
        #expect(alarm.nextFire(after: try ISO.date("2026-06-01T00:00:00Z"), in: systemZone).map(ISO.string) == expected)
    }

    @Test(arguments: ["America/New_York", "Europe/Berlin", "Asia/Taipei", "Australia/Lord_Howe", "UTC"])
    func pinnedAlarmIgnoresTheSystemZone(system: String) throws {
        var alarm = Alarm(time: try timeOfDay("07:30"), days: .everyDay, created: try ISO.date("2020-01-01T00:00:00Z"))
        alarm.timeZone = try zone("Europe/Berlin")
        #expect(alarm.effectiveZone(system: try zone(system)) == (try zone("Europe/Berlin")))
        #expect(alarm.nextFire(after: try ISO.date("2026-06-01T00:00:00Z"), in: try zone(system)).map(ISO.string) == "2026-06-01T05:30:00Z")
    }

    @Test func fractionalNowIsStillStrictlyBefore() throws {
        let alarm = Alarm(time: try timeOfDay("07:30"), days: .everyDay, created: try ISO.date("2020-01-01T00:00:00Z"))
        let ny = try zone("America/New_York")
        // Half a second before 11:30:00Z: the occurrence is still ahead.
        #expect(alarm.nextFire(after: try ISO.date("2026-06-01T11:29:59.500Z"), in: ny).map(ISO.string) == "2026-06-01T11:30:00Z")
        // Half a second after: it has passed.
        #expect(alarm.nextFire(after: try ISO.date("2026-06-01T11:30:00.500Z"), in: ny).map(ISO.string) == "2026-06-02T11:30:00Z")
    }

    @Test func enabledAndSkipNextAreTheSchedulersBusiness() throws {
        var alarm = Alarm(time: try timeOfDay("07:30"), days: .everyDay, created: try ISO.date("2020-01-01T00:00:00Z"))
        alarm.enabled = false
        alarm.skipNext = true
        #expect(alarm.nextFire(after: try ISO.date("2026-06-01T00:00:00Z"), in: try zone("UTC")).map(ISO.string) == "2026-06-01T07:30:00Z")
    }

    // Reminders are absolute: they fire at `due` while it is ahead and not done.
    static let reminderCases: [(String?, Bool, String, String?)] = [
        ("2026-06-01T12:00:00Z", false, "2026-06-01T11:00:00Z", "2026-06-01T12:00:00Z"),
        ("2026-06-01T12:00:00Z", false, "2026-06-01T11:59:59Z", "2026-06-01T12:00:00Z"),
        ("2026-06-01T12:00:00Z", false, "2026-06-01T12:00:00Z", nil),   // strictly after
        ("2026-06-01T12:00:00Z", false, "2026-06-01T13:00:00Z", nil),
        ("2026-06-01T12:00:00Z", true, "2026-06-01T11:00:00Z", nil),    // done
        (nil, false, "2026-06-01T11:00:00Z", nil),                      // no due date
    ]

    @Test(arguments: reminderCases)
    func reminder(due: String?, done: Bool, after: String, expected: String?) throws {
        let reminder = Reminder(title: "Call", due: try due.map(ISO.date), done: done, created: try ISO.date("2020-01-01T00:00:00Z"))
        for system in ["UTC", "America/New_York", "Australia/Lord_Howe"] {
            #expect(reminder.nextFire(after: try ISO.date(after), in: try zone(system)).map(ISO.string) == expected)
        }
    }

    /// Every local day of 2026 in each zone, daily alarm at a time that hits a gap or
    /// an overlap there: each firing is on the next local day, at the alarm's wall time
    /// except on the gap day, where it is the gap-shifted time. Foundation's Calendar
    /// (not ZoneRules) reads the wall clock.
    @Test(arguments: [
        ("America/New_York", "02:30", "2026-03-08", "03:30"),
        ("America/New_York", "01:30", "", ""),
        ("Europe/Berlin", "02:30", "2026-03-29", "03:30"),
        ("Australia/Sydney", "02:30", "2026-10-04", "03:30"),
        ("Australia/Lord_Howe", "02:15", "2026-10-04", "02:45"),
        ("Australia/Lord_Howe", "01:45", "", ""),
        ("America/Santiago", "00:30", "2026-09-06", "01:30"),
        ("America/Santiago", "23:30", "", ""),
        ("Asia/Taipei", "02:30", "", ""),
    ])
    func dailyAlarmThroughAYear(zoneID: String, time: String, gapDate: String, shifted: String) throws {
        let tz = try zone(zoneID)
        let rule = DailyRule(time: try timeOfDay(time), days: .everyDay)
        let rules = tz.rules
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try reference(tz)
        // Start at local midnight on 1 January 2026.
        var day = try #require(calendar.date(from: DateComponents(year: 2026, month: 1, day: 1)))
        var cursor = Int64(day.timeIntervalSince1970) - 1
        for _ in 0..<365 {
            let fire = rule.nextFire(after: cursor, rules: rules)
            let wall = Wall(Date(epochSeconds: fire), in: tz)
            let expectedDay = Wall(day.addingTimeInterval(12 * 3600), in: tz)
            let dateText = String(format: "%04d-%02d-%02d", expectedDay.year, expectedDay.month, expectedDay.day)
            let expectedTime = dateText == gapDate ? shifted : time
            #expect(wall.dateKey == expectedDay.dateKey && String(format: "%02d:%02d", wall.hour, wall.minute) == expectedTime,
                    "\(zoneID) \(time): fired at \(wall) for \(dateText)")
            cursor = fire
            day = try #require(calendar.date(byAdding: .day, value: 1, to: day))
        }
    }
}

@Suite("Preview")
struct PreviewTests {
    static let zones = ["America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Taipei", "Australia/Lord_Howe", "America/Santiago"]

    @Test(arguments: zones, ["00:30", "01:30", "01:45", "02:15", "02:30", "23:30"])
    func strictlyIncreasingOverAYear(zoneID: String, time: String) throws {
        let tz = try zone(zoneID)
        let alarm = Alarm(time: try timeOfDay(time), days: try RepeatDays.parse("mon,wed,fri,sat,sun"), created: try ISO.date("2020-01-01T00:00:00Z"))
        let start = try ISO.date("2026-01-01T00:00:00Z")
        let preview = alarm.preview(count: 300, after: start, in: tz)
        #expect(preview.count == 300)
        #expect(preview.first.map { $0 > start } == true)
        #expect(zip(preview, preview.dropFirst()).allSatisfy { $0 < $1 })
        // At most one firing per local day, never two for an overlap day.
        let days = preview.map { Wall($0, in: tz).dateKey }
        #expect(Set(days).count == days.count)

        let rulePreview = alarm.rule.preview(count: 300, after: Int64(start.timeIntervalSince1970), rules: tz.rules)
        #expect(rulePreview.map { Date(epochSeconds: $0) } == preview)
    }

    @Test func knownValuesAcrossFallBack() throws {
        // Daily 01:30 in New York around 1 November 2026 (zoneinfo fold=0).
        let alarm = Alarm(time: try timeOfDay("01:30"), days: .everyDay, created: try ISO.date("2020-01-01T00:00:00Z"))
        let preview = alarm.preview(count: 3, after: try ISO.date("2026-10-31T00:00:00Z"), in: try zone("America/New_York"))
        #expect(preview.map(ISO.string) == ["2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"])
    }

    @Test(arguments: [0, 1, 7, 50])
    func countIsHonoured(count: Int) throws {
        let alarm = Alarm(time: try timeOfDay("07:30"), days: .weekdays, created: try ISO.date("2020-01-01T00:00:00Z"))
        #expect(alarm.preview(count: count, after: try ISO.date("2026-06-01T00:00:00Z"), in: try zone("Europe/Berlin")).count == count)
        #expect(alarm.rule.preview(count: count, after: 0, rules: try zone("Europe/Berlin").rules).count == count)
    }

    @Test func negativeCountIsEmpty() throws {
        let alarm = Alarm(time: try timeOfDay("07:30"), days: .weekdays, created: try ISO.date("2020-01-01T00:00:00Z"))
        #expect(alarm.preview(count: -3, after: try ISO.date("2026-06-01T00:00:00Z"), in: try zone("UTC")).isEmpty)
        #expect(alarm.rule.preview(count: -3, after: 0, rules: try zone("UTC").rules).isEmpty)
    }

    @Test func weekdayPreviewSkipsWeekends() throws {
        let alarm = Alarm(time: try timeOfDay("07:30"), days: .weekdays, created: try ISO.date("2020-01-01T00:00:00Z"))
        // Friday 5 June 2026 08:00 UTC → Mon 8, Tue 9 June.
        let preview = alarm.preview(count: 2, after: try ISO.date("2026-06-05T08:00:00Z"), in: try zone("UTC"))
        #expect(preview.map(ISO.string) == ["2026-06-08T07:30:00Z", "2026-06-09T07:30:00Z"])
    }

    @Test(arguments: [(false, 1), (true, 0)])
    func reminderYieldsAtMostOne(done: Bool, expected: Int) throws {
        let due = try ISO.date("2026-06-01T12:00:00Z")
        let reminder = Reminder(title: "Call", due: due, done: done, created: try ISO.date("2020-01-01T00:00:00Z"))
        let preview = reminder.preview(count: 5, after: try ISO.date("2026-06-01T00:00:00Z"), in: try zone("UTC"))
        #expect(preview.count == expected)
        if expected == 1 { #expect(preview == [due]) }
        #expect(reminder.preview(count: 5, after: due, in: try zone("UTC")).isEmpty)
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

@Suite("Journal and status text")
struct EventTextTests {
    static let created = Date(timeIntervalSince1970: 1_800_000_000)
    static let work = Item.alarm(Alarm(time: try! TimeOfDay(hour: 7, minute: 30), days: .weekdays, label: "Work", created: created))
    static let nap = Item.alarm(Alarm(time: try! TimeOfDay(hour: 14, minute: 5), label: "Nap", created: created))
    static let milk = Item.reminder(Reminder(title: "Buy \"milk\"", created: created))

    @Test(arguments: [
        (EventKind.fired, 0.003, "", "Alarm \"Work\" (07:30, Weekdays) fired 3 ms late"),
        (.fired, 0.0001, "", "Alarm \"Work\" (07:30, Weekdays) fired on time"),
        (.fired, 125.0, "", "Alarm \"Work\" (07:30, Weekdays) fired 2 min late"),
        (.snoozed, nil, "snooze 1 of 3, rings again at 2026-03-09T07:39:00Z", "Alarm \"Work\" (07:30, Weekdays) snoozed (snooze 1 of 3, rings again at 2026-03-09T07:39:00Z)"),
        (.missed, 7200.0, "", "Alarm \"Work\" (07:30, Weekdays) was missed: due 2 h ago"),
        (.timedOut, nil, "dismissed", "Alarm \"Work\" (07:30, Weekdays) stopped ringing on its own (timed out) (dismissed)"),
    ] as [(EventKind, Double?, String, String)])
    func sentences(kind: EventKind, lateness: Double?, detail: String, expected: String) {
        #expect(EventText.sentence(kind, item: Self.work, lateness: lateness, detail: detail) == expected)
    }

    @Test func subjectsOfOneShotAlarmsAndReminders() {
        #expect(EventText.subject(Self.nap) == "Alarm \"Nap\" (14:05, once)")
        #expect(EventText.subject(Self.milk) == "Reminder \"Buy \\\"milk\\\"\"")
    }

    @Test func statusLine() {
        let zone = Zone(identifier: "Europe/Berlin")!
        // 2026-03-10T06:30:00Z is Tuesday 07:30 in Berlin (CET, +01:00).
        let next = Date(timeIntervalSince1970: 1_773_124_200)
        #expect(EventText.status(alarms: 4, reminders: 2, next: (next, Self.work), zone: zone) == "4 alarms, 2 reminders; next: Tue 07:30 Work")
        #expect(EventText.status(alarms: 1, reminders: 0, next: nil, zone: zone) == "1 alarm, 0 reminders; next: none")
    }
}

// SPDX-License-Identifier: Apache-2.0
/// Replies as alarmd sends them, with fixed ids and times far in the future so
/// output is the same on every run (NEXT shows a date beyond the coming week).
enum Fixtures {
    static func alarm(
        id: String, time: String, days: [String], repeatText: String, label: String,
        enabled: Bool = true, skipNext: Bool = false, timeZone: String? = nil, phase: String = "waiting",
        next: String?, skipping: String? = nil, snoozeCount: Int = 0, snooze: String = #"{"enabled":true,"minutes":9,"maxCount":0}"#, volume: Int? = nil
    ) -> String {
        let dayList = days.map { "\"\($0)\"" }.joined(separator: ",")
        let skippingMember = skipping.map { #""skipping":"\#($0)","# } ?? ""
        return #"{"id":"\#(id)","time":"\#(time)","days":[\#(dayList)],"repeat":"\#(repeatText)","label":"\#(label)","sound":"alarm-clock-elapsed","snooze":\#(snooze),"ringSeconds":300,"volume":\#(volume.map(String.init) ?? "null"),"fadeSeconds":null,"enabled":\#(enabled),"skipNext":\#(skipNext),"timeZone":\#(quoted(timeZone)),"phase":"\#(phase)","next":\#(quoted(next)),\#(skippingMember)"snoozeCount":\#(snoozeCount),"created":"2026-03-01T10:00:00+00:00","updated":"2026-03-02T11:30:15+00:00"}"#
    }

    static func reminder(
        id: String, title: String, notes: String = "", due: String?, done: Bool = false, position: Int,
        imagePath: String? = nil, phase: String = "waiting", next: String? = nil
    ) -> String {
        #"{"id":"\#(id)","title":"\#(title)","notes":"\#(notes)","due":\#(quoted(due)),"done":\#(done),"position":\#(position),"imagePath":\#(quoted(imagePath)),"phase":"\#(phase)","next":\#(quoted(next)),"snoozeCount":0,"created":"2026-03-01T10:00:00+00:00","updated":"2026-03-01T10:00:00+00:00"}"#
    }

    private static func quoted(_ text: String?) -> String { text.map { "\"\($0)\"" } ?? "null" }

    static let work = alarm(id: "1a2b3c4d-0000-4000-8000-000000000001", time: "07:30", days: ["mon", "tue", "wed", "thu", "fri"],
                            repeatText: "Weekdays", label: "Work", next: "2030-01-07T07:30:00+00:00")
    static let dentist = alarm(id: "9f8e7d6c-0000-4000-8000-000000000002", time: "08:15", days: [], repeatText: "Never", label: "Dentist",
                               enabled: false, timeZone: "Europe/Berlin", next: nil, snooze: #"{"enabled":false,"minutes":9,"maxCount":0}"#)
    static let run = alarm(id: "5555aaaa-0000-4000-8000-000000000003", time: "09:00", days: ["sat", "sun"], repeatText: "Weekends", label: "Run",
                           skipNext: true, phase: "ringing", next: "2030-01-05T09:05:00+00:00", snoozeCount: 2,
                           snooze: #"{"enabled":true,"minutes":5,"maxCount":3}"#, volume: 60)

    static let milk = reminder(id: "abcd0001-0000-4000-8000-000000000011", title: "Buy milk", due: "2030-01-07T14:00:00+00:00", position: 0)
    static let tax = reminder(id: "abcd0002-0000-4000-8000-000000000012", title: "File taxes", notes: "forms in the\\nblue folder", due: nil, done: true,
                              position: 1, imagePath: "/home/me/taxes.png")
    static let tea = reminder(id: "beef0003-0000-4000-8000-000000000013", title: "Tea", due: "2030-01-06T16:00:00+00:00", position: 2,
                              phase: "snoozed", next: "2030-01-06T16:09:00+00:00")
}

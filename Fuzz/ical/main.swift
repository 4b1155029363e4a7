// SPDX-License-Identifier: Apache-2.0
// libFuzzer target: an iCalendar file as `alarmctl import --ical` and the
// `ImportCalendar` method read it (`ICalendarItems.items`), in two zones.
//
// The same text is read as a holiday calendar (`[Alarms] Holidays=`) and
// asked about days from 1900 to 2400.
//
// None may trap; a refused file says where (a line within the file, or the
// whole file) and what; what is accepted must survive alarmd's own form:
//   - every item read validates;
//   - written back (`ICalendarItems.calendar`) and read again, the items are
//     equal (the writer's folding, escaping and mapping lose nothing);
//   - the text written is CRLF lines of at most 75 octets.
import AlarmCore
import Foundation

/// The zones a TZID may name, loaded once.
let named: [String: Zone] = Dictionary(uniqueKeysWithValues: ["UTC", "Europe/Berlin", "Asia/Tokyo"].map { ($0, Zone(identifier: $0)!) })
let settingsList: [ICalendarItems.Settings] = ["UTC", "America/New_York"].map { name in
    ICalendarItems.Settings(zone: Zone(identifier: name)!, allDayAt: .nineAM, now: Date(epochSeconds: 1_796_000_000), zoneNamed: { named[$0] })
}

/// Days a holiday calendar is asked about: around leap days and year ends.
let holidayDays: [Int64] = [1900, 1999, 2000, 2024, 2026, 2100, 2400].flatMap { year in
    [(1, 1), (2, 28), (3, 1), (12, 31)].map { CivilTime.dayNumber(year: year, month: $0.0, day: $0.1) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let physicalLines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
    for settings in settingsList {
        let items: (alarms: [Alarm], reminders: [Reminder])
        do throws(ICalendarError) { items = try ICalendarItems.items(icalendar: text, settings: settings) } catch {
            check(!error.requirement.isEmpty, "a refusal without a reason: \(error)")
            if let line = error.line { check(line >= 1 && line <= physicalLines, "refusal at line \(line) of \(physicalLines): \(error)") }
            continue
        }
        for alarm in items.alarms { check((try? alarm.validate()) != nil, "an alarm read does not validate: \(alarm)") }
        for reminder in items.reminders { check((try? reminder.validate()) != nil, "a reminder read does not validate: \(reminder)") }
        let written = ICalendarItems.calendar(alarms: items.alarms, reminders: items.reminders, settings: settings)
        for line in written.components(separatedBy: "\r\n").dropLast() {
            check(line.utf8.count <= 75 && !line.contains("\n") && !line.contains("\r"), "a written line is not folded or has a bare line end: \(line)")
        }
        do throws(ICalendarError) {
            let again = try ICalendarItems.items(icalendar: written, settings: settings)
            check(again.alarms == items.alarms, "alarms change through alarmd's own calendar:\n\(items.alarms)\n\(again.alarms)")
            check(again.reminders == items.reminders, "reminders change through alarmd's own calendar:\n\(items.reminders)\n\(again.reminders)")
        } catch {
            check(false, "alarmd's own calendar is refused: \(error)\n\(written)")
        }
    }
    do throws(ICalendarError) {
        let calendar = try HolidayCalendar(icalendar: text)
        for day in holidayDays { _ = calendar.contains(day) }
    } catch {
        check(!error.requirement.isEmpty, "a holiday calendar refused without a reason: \(error)")
        if let line = error.line { check(line >= 1 && line <= physicalLines, "holiday refusal at line \(line) of \(physicalLines): \(error)") }
    }
    return 0
}

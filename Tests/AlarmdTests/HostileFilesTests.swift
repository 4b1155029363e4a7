// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// Files from outside, at their worst, against a real alarmd: an iCalendar
/// file nested 100,000 deep through `alarmctl import --ical`, and a holiday
/// calendar of nearly 10,000 yearly events a year long. alarmd keeps its
/// pid, answers, rings a reminder due meanwhile on time, and stays small.
@Suite(.serialized) struct HostileFilesTests {
    static func nested(depth: Int) -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//alarmd tests//hostile//EN\r\nBEGIN:VTODO\r\nUID:nested\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:deep\r\n"
        text.reserveCapacity(depth * 24)
        for level in 1...depth { text += "BEGIN:X\(level)\r\n" }
        for level in stride(from: depth, through: 1, by: -1) { text += "END:X\(level)\r\n" }
        return text + "END:VTODO\r\nEND:VCALENDAR\r\n"
    }

    /// A reminder due `seconds` from now, and a check that it rang within a
    /// second of that.
    static func dueSoon(_ daemon: DaemonProcess, in seconds: TimeInterval) throws -> () throws -> TimeInterval? {
        let due = Date().addingTimeInterval(seconds)
        let added = try Alarmctl.json(["remind", "add", "Due meanwhile", "--at", ISO8601DateFormatter().string(from: due)], daemon)
        let id = ((added["reminder"] as? [String: Any])?["id"] as? String) ?? ""
        return {
            _ = waitUntil(timeout: due.timeIntervalSinceNow + 10) {
                ((try? Alarmctl.json(["history", "--kind", "fired"], daemon))?["events"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == id }
            }
            let events = try Alarmctl.json(["history", "--kind", "fired"], daemon)["events"] as? [[String: Any]] ?? []
            guard let actual = (events.first { $0["id"] as? String == id }?["actual"] as? String).flatMap(Self.instant) else { return nil }
            return actual.timeIntervalSince(due)
        }
    }

    static func instant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }

    @Test func aCalendarNested100000DeepIsRefusedByLineAndAlarmdRingsOn() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        let pid = daemon.process.processIdentifier
        let file = daemon.directory.path + "/nested.ics"
        try Self.nested(depth: 100_000).write(toFile: file, atomically: true, encoding: .utf8)
        let rang = try Self.dueSoon(daemon, in: 3)
        let imported = try Alarmctl.run(["import", "--ical", file], daemon)
        #expect(imported.status != 0, "the nested file was accepted: \(imported.standardOutput)")
        #expect(imported.standardError.contains("line"), "the refusal names no line: \(imported.standardError)")
        #expect(daemon.process.isRunning && daemon.process.processIdentifier == pid, "alarmd did not survive: \(daemon.standardError)")
        #expect(residentBytes(of: pid).map { $0 < 100 << 20 } == true)
        let lateness = try rang()
        #expect(lateness.map { $0 < 1 } == true, "the reminder due meanwhile rang \(lateness.map { "\($0) s late" } ?? "never")")
    }

    @Test func aHolidayCalendarOfTenThousandYearLongEventsCostsLookUpsLittle() throws {
        let directory = TemporaryDirectory()
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//alarmd tests//holidays//EN\r\n"
        for index in 0..<9_990 {
            text += "BEGIN:VEVENT\r\nUID:h\(index)\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:2001\(String(format: "%02d", index % 12 + 1))01\r\nDURATION:P366D\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:Holiday \(index)\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let file = directory.path + "/holidays.ics"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let daemon = DaemonProcess(directory: directory, config: "[Alarms]\nHolidays=\(file)\n")
        try daemon.startAndWaitReady(timeout: 60)
        defer { daemon.stop() }
        let pid = daemon.process.processIdentifier
        let rang = try Self.dueSoon(daemon, in: 4)
        _ = try Alarmctl.ok(["add", "7:00", "--days", "weekdays", "--label", "Not on holidays", "--skip-holidays"], daemon)
        _ = try Alarmctl.ok(["add", "8:00", "--label", "Another", "--skip-holidays"], daemon)
        _ = try Alarmctl.ok(["status"], daemon)
        // A reload reads the calendar again, off the owner.
        kill(pid, SIGHUP)
        _ = try Alarmctl.ok(["status"], daemon)
        let lateness = try rang()
        #expect(lateness.map { $0 < 1 } == true, "the reminder due meanwhile rang \(lateness.map { "\($0) s late" } ?? "never")")
        #expect(daemon.process.isRunning && daemon.process.processIdentifier == pid)
        #expect(residentBytes(of: pid).map { $0 < 100 << 20 } == true)
        // Every day is a holiday: the alarms that skip holidays never ring.
        let list = try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]] ?? []
        #expect(list.count == 2 && list.allSatisfy { $0["next"] is NSNull || $0["next"] == nil }, "\(list)")
    }
}

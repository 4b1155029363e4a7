// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `alarmctl export --ical` and `import --ical` against the real daemon, with
/// the Python `icalendar` and `recurring-ical-events` libraries as the other
/// program: what they expand from the exported calendar is what `alarmctl
/// preview` says for every alarm.
@Suite(.serialized) struct ICalendarTests {
    /// A zone with DST, so floating and pinned times differ from UTC and
    /// from each other across the year.
    static let zone = "Europe/Berlin"

    static func startDaemon() throws -> DaemonProcess {
        let daemon = DaemonProcess(environment: ["TZ": zone])
        try daemon.startAndWaitReady()
        return daemon
    }

    @discardableResult
    static func ok(_ arguments: [String], _ daemon: DaemonProcess) throws -> String {
        let result = try Alarmctl.run(arguments, daemon, environment: ["TZ": zone])
        guard result.status == 0 else { throw HarnessError(description: "alarmctl \(arguments) exited \(result.status): \(result.standardError)") }
        return result.standardOutput
    }

    /// Each alarm as `add` and `preview` both take it (after the time, the
    /// calendar options): weekdays, every day, a rule of each kind with an
    /// end and exceptions, a pinned alarm, a dated one and a one-shot.
    static let specs: [[String]] = [
        ["7:30", "--days", "weekdays"],
        ["6:05", "--days", "daily"],
        ["6:45", "--every", "2w", "--days", "mon,thu"],
        ["21:00", "--every", "3d", "--times", "12"],
        ["8:00", "--monthly", "last-fri", "--except", "2027-01-29,2027-05-28"],
        ["9:15", "--monthly", "31"],
        ["12:00", "--monthly", "2nd-tue", "--until", "2028-06-30"],
        ["9:00", "--yearly", "02-29"],
        ["10:00", "--date", "2027-03-28"],
        ["23:50"],
        ["7:00", "--days", "sat,sun", "--tz", "America/New_York"],
        ["6:30", "--monthly", "-1", "--tz", "Asia/Tokyo"],
    ]

    @Test func theExportedCalendarExpandsToPreviewsOccurrences() throws {
        let (found, tried) = PythonClientTests.interpreter(importing: "recurring_ical_events")
        let python = try #require(found, "no Python with icalendar and recurring-ical-events (make test-deps installs them into .build/pyvenv); tried: \(tried.joined(separator: "; "))")
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        var ids: [String: [String]] = [:]
        for (index, spec) in Self.specs.enumerated() {
            let reply = try Alarmctl.run(["add"] + spec + ["--label", "Spec \(index)", "--json"], daemon, environment: ["TZ": Self.zone])
            let id = try #require(EverydayUseTests.item(try reply.json(), "alarm")["id"] as? String, "\(spec): \(reply.standardError)")
            ids[id] = spec
        }
        let path = daemon.directory.path + "/alarms.ics"
        try Self.ok(["export", "--ical", path], daemon)
        let from = Date().addingTimeInterval(60)
        let fromText = ISO8601DateFormatter().string(from: from)
        let count = 40
        let oracle = Tool.run(python, [Self.packageRoot + "/Tests/AlarmdTests/python/ical_oracle.py", path, Self.zone, fromText, String(count)], timeout: 60)
        #expect(oracle.status == 0, "\(oracle.standardError)")
        let expanded = try #require(try JSONSerialization.jsonObject(with: Data(oracle.standardOutput.utf8)) as? [String: [String]], "\(oracle.standardOutput)")
        #expect(Set(expanded.keys) == Set(ids.keys))
        for (id, spec) in ids {
            var arguments = ["preview"] + spec + ["--count", String(count), "--json", "--from", fromText]
            // add starts a rule today; preview on the --from day, unless told.
            if spec.contains(where: { ["--every", "--monthly", "--yearly"].contains($0) }) { arguments += ["--starting", Self.today()] }
            let previewed = try JSONSerialization.jsonObject(with: Data(try Self.ok(arguments, daemon).utf8)) as? [[String: Any]] ?? []
            let instants = previewed.filter { $0["skipped"] == nil }.compactMap { $0["utc"] as? String }
            #expect(instants == expanded[id], "\(spec): preview \(instants.prefix(5))…, icalendar \(expanded[id]?.prefix(5) ?? [])…")
            #expect(!instants.isEmpty)
        }
    }

    /// A round trip through the file: an edit made since the export is put
    /// back, an item added since stays, commands (which a calendar never
    /// carries) stay; a broken file changes nothing and exits 65.
    @Test func importMergesByUIDAndABrokenFileChangesNothing() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        try Self.ok(["add", "7:30", "--days", "weekdays", "--label", "Work", "--command", "/bin/true work"], daemon)
        try Self.ok(["remind", "add", "Call the bank", "--in", "2h", "--notes", "Line one,\nline two; 鬧鐘"], daemon)
        let path = daemon.directory.path + "/backup.ics"
        try Self.ok(["export", "--ical", path], daemon)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n") && text.contains("DESCRIPTION:Line one\\,\\nline two\\; 鬧鐘\r\n"), "\(text)")
        #expect(!text.contains("/bin/true"), "commands are never exported")

        let alarm = try #require(EverydayUseTests.ids(daemon).first)
        try Self.ok(["edit", alarm, "--label", "Work (late)"], daemon)
        try Self.ok(["add", "9:00", "--label", "Added since"], daemon)
        let dry = try Self.ok(["import", "--ical", "--dry-run", path], daemon)
        #expect(dry.contains("Would update alarm \"Work\"") && dry.hasSuffix("Nothing changed (dry run): 0 added, 1 updated, 0 removed (1 unchanged)\n"), "\(dry)")
        let merged = try Self.ok(["import", "--ical", path], daemon)
        #expect(merged.hasSuffix("Imported: 0 added, 1 updated, 0 removed (1 unchanged)\n"), "\(merged)")
        let alarms = try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]] ?? []
        #expect(Set(alarms.map { $0["label"] as? String ?? "" }) == ["Work", "Added since"])
        let work = EverydayUseTests.item(try Alarmctl.json(["show", alarm], daemon), "alarm")
        #expect(work["command"] as? [String] == ["/bin/true", "work"], "the command stays: \(work)")
        let reminders = try Alarmctl.json(["remind", "list"], daemon)["reminders"] as? [[String: Any]] ?? []
        #expect(reminders.first?["notes"] as? String == "Line one,\nline two; 鬧鐘")

        // From standard input, as another program's file would come.
        let foreign = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nBEGIN:VTODO\r\nUID:42@phone.example\r\nDTSTAMP:20261201T100000Z\r\nSUMMARY:From the phone\r\nDUE;VALUE=DATE:20301224\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        let piped = try Alarmctl.run(["import", "--ical", "-"], daemon, input: Data(foreign.utf8))
        #expect(piped.status == 0 && piped.standardOutput.contains("Added reminder \"From the phone\""), "\(piped.standardOutput)\(piped.standardError)")
        let again = try Alarmctl.run(["import", "--ical", "-"], daemon, input: Data(foreign.utf8))
        #expect(again.standardOutput.hasSuffix("0 added, 0 updated, 0 removed (1 unchanged)\n"), "the same file again changes nothing: \(again.standardOutput)")

        let broken = daemon.directory.path + "/broken.ics"
        try text.replacingOccurrences(of: "RRULE:FREQ=WEEKLY", with: "RRULE:FREQ=HOURLY").write(toFile: broken, atomically: true, encoding: .utf8)
        let before = try Self.ok(["export", "--json"], daemon)
        let refused = try Alarmctl.run(["import", "--ical", broken], daemon)
        #expect(refused.status == 65, "\(refused.standardError)")
        #expect(refused.standardError.contains("broken.ics") && refused.standardError.contains(": RRULE \"FREQ=HOURLY;BYDAY=MO,TU,WE,TH,FR\": FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY"),
                "\(refused.standardError)")
        #expect(refused.standardError.range(of: #"line \d+: RRULE"#, options: .regularExpression) != nil, "\(refused.standardError)")
        #expect(try Self.ok(["export", "--json"], daemon) == before, "nothing changed")
        let replace = try Alarmctl.run(["import", "--ical", "--replace", path], daemon)
        #expect(replace.status == 64 && replace.standardError.contains("--ical merges by UID"), "\(replace.standardError)")
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    static func today() -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Dates already over, refused by the daemon (only it knows its clock) with
/// an error naming the option and the date, which alarmctl shows: an alarm
/// that would be on and never ring, and a pause that would end one still
/// running.
@Suite struct PastDatesTests {
    static func alarms(_ daemon: DaemonProcess) throws -> [[String: Any]] {
        try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]] ?? []
    }

    @Test func anAlarmWhoseDaysAreAllPastIsRefused() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        let dated = try Alarmctl.run(["add", "9:00", "--date", "2020-01-01"], daemon)
        #expect(dated.status == 1 && dated.standardError == "alarmctl: --date is in the past, got 2020-01-01\n", "\(dated.standardError)")
        let ended = try Alarmctl.run(["add", "9:00", "--days", "mon", "--starting", "2020-01-01", "--until", "2021-01-01"], daemon)
        #expect(ended.status == 1 && ended.standardError == "alarmctl: --until is in the past, got 2021-01-01\n", "\(ended.standardError)")
        let counted = try Alarmctl.run(["add", "9:00", "--every", "2d", "--starting", "2020-01-01", "--times", "3"], daemon)
        #expect(counted.status == 1 && counted.standardError == "alarmctl: --times leaves no occurrence ahead, got 3\n", "\(counted.standardError)")
        #expect(try Self.alarms(daemon).isEmpty)
        // Switched off, it may be kept for later; a rule still running is fine.
        try Alarmctl.ok(["add", "9:00", "--date", "2020-01-01", "--disabled"], daemon)
        try Alarmctl.ok(["add", "9:00", "--starting", "2020-01-01", "--until", "2099-01-01", "--days", "mon"], daemon)
        #expect(try Self.alarms(daemon).count == 2)
        // An edit into the past is refused and changes nothing.
        let id = try #require(EverydayUseTests.item(try Alarmctl.json(["add", "9:00", "--date", "2099-01-01"], daemon), "alarm")["id"] as? String)
        let edited = try Alarmctl.run(["edit", id, "--date", "2020-01-01"], daemon)
        #expect(edited.status == 1 && edited.standardError == "alarmctl: --date is in the past, got 2020-01-01\n", "\(edited.standardError)")
        let rule = (EverydayUseTests.item(try Alarmctl.json(["show", id], daemon), "alarm")["rule"] as? [String: Any])?["starting"] as? String
        #expect(rule == "2099-01-01")
    }

    /// A one-off kept after its day rings next at its time once switched
    /// back on, as a phone's alarm does; a past day given with the switch is
    /// still refused.
    @Test func aOneOffSwitchedOnAfterItsDayRingsAtItsNextTime() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        let id = try #require(EverydayUseTests.item(try Alarmctl.json(["add", "9:00", "--date", "2020-01-01", "--disabled"], daemon), "alarm")["id"] as? String)
        let enabled = try Alarmctl.run(["enable", id], daemon)
        #expect(enabled.status == 0 && enabled.standardError == "", "\(enabled.standardOutput)\(enabled.standardError)")
        let alarm = EverydayUseTests.item(try Alarmctl.json(["show", id], daemon), "alarm")
        #expect(alarm["enabled"] as? Bool == true && (alarm["rule"] as? [String: Any]) == nil, "\(alarm)")
        let next = try #require(alarm["next"] as? String, "\(alarm)")
        #expect(next > ISO8601DateFormatter().string(from: Date()), "\(alarm)")
        // A day still ahead stays.
        let later = try #require(EverydayUseTests.item(try Alarmctl.json(["add", "9:00", "--date", "2099-01-01", "--disabled"], daemon), "alarm")["id"] as? String)
        try Alarmctl.ok(["enable", later], daemon)
        let kept = (EverydayUseTests.item(try Alarmctl.json(["show", later], daemon), "alarm")["rule"] as? [String: Any])?["starting"] as? String
        #expect(kept == "2099-01-01")
        try Alarmctl.ok(["disable", id], daemon)
        let again = try Alarmctl.run(["edit", id, "--date", "2020-01-01", "--enabled"], daemon)
        #expect(again.status == 1 && again.standardError == "alarmctl: --date is in the past, got 2020-01-01\n", "\(again.standardError)")
    }

    @Test func aPauseEndingInThePastIsRefusedAndTheRunningPauseStays() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        let id = try #require(EverydayUseTests.item(try Alarmctl.json(["add", "7:30", "--days", "weekdays"], daemon), "alarm")["id"] as? String)
        try Alarmctl.ok(["pause", id, "--until", "2099-01-05"], daemon)
        let past = try Alarmctl.run(["pause", id, "--until", "2020-01-01"], daemon)
        #expect(past.status == 1, "\(past.standardOutput)")
        #expect(!past.standardOutput.contains("Paused"), "\(past.standardOutput)")
        #expect(past.standardError.contains("--until is in the past, got 2020-01-01"), "\(past.standardError)")
        let alarm = EverydayUseTests.item(try Alarmctl.json(["show", id], daemon), "alarm")
        #expect(alarm["pausedUntil"] as? String == "2099-01-05", "\(alarm)")
        // Today is no pause at all, but not in the past either.
        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        try Alarmctl.ok(["pause", id, "--until", today], daemon)
    }
}

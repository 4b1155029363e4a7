// SPDX-License-Identifier: Apache-2.0
@testable import AlarmDaemon
import Foundation
import Glibc
import Testing

/// alarmd against a stand-in logind: python-dbusmock's `logind` template on a
/// private system bus, whose `ListInhibitors` lists the inhibitors whose file
/// descriptors are still open, and whose `PrepareForSleep` the test emits.
@Suite(.serialized) struct LogindTests {
    /// The stand-in logind and what the tests ask of it.
    final class MockLogind {
        let mock: DBusMock
        var environment: [String: String] { mock.environment }

        init(directory: TemporaryDirectory) throws {
            mock = try DBusMock(directory: directory, template: "logind", on: .system, script: "logind_mock_ctl.py", ready: ["inhibitors"])
        }

        func run(_ arguments: [String]) throws -> String { try mock.run(arguments) }

        /// Live inhibitors as (what, who, why, mode).
        func inhibitors() throws -> [[String: String]] { try mock.objects(["inhibitors"]).map { $0.compactMapValues { $0 as? String } } }

        func prepareForSleep(_ sleeping: Bool) throws { _ = try run(["sleep", sleeping ? "true" : "false"]) }
    }

    /// A stand-in logind, and a daemon started against it.
    static func startWithLogind() throws -> (MockLogind, DaemonProcess) {
        let logind = try MockLogind(directory: TemporaryDirectory())
        let daemon = DaemonProcess(environment: logind.environment)
        try daemon.startAndWaitReady()
        return (logind, daemon)
    }

    static let delay = ["what": "sleep", "who": "alarmd", "why": "Setting the wake-up for the next alarm", "mode": "delay"]

    @Test func theDelayLockIsHeldReleasedForASuspendAndTakenBackAfter() throws {
        let (logind, daemon) = try Self.startWithLogind()
        defer { daemon.stop() }
        #expect(waitUntil(timeout: 5) { (try? logind.inhibitors()) == [Self.delay] }, "\(String(describing: try? logind.inhibitors()))")

        try Alarmctl.ok(["add", WakeTests.hhmm(Date().addingTimeInterval(3 * 3600)), "--label", "Morning"], daemon)
        try logind.prepareForSleep(true)
        // Released within a second, once the wake-up is set.
        #expect(waitUntil(timeout: 1) { (try? logind.inhibitors())?.isEmpty == true }, "\(String(describing: try? logind.inhibitors()))")
        if getuid() == 0 {
            #expect(WakeTests.wakeTimer(daemon.process.processIdentifier) != nil, "no wake-up set before the suspend")
        }
        try logind.prepareForSleep(false)
        #expect(waitUntil(timeout: 5) { (try? logind.inhibitors()) == [Self.delay] }, "\(String(describing: try? logind.inhibitors()))")
        if JournalFixture.isAvailable {
            #expect(waitUntil(timeout: 5) { JournalFixture.query(["MESSAGE_ID=\(MessageID.suspending)"], of: daemon).count == 1 })
            let resumed = JournalFixture.query(["MESSAGE_ID=\(MessageID.resumed)"], of: daemon)
            #expect(resumed.count == 1 && resumed.first?["ALARMD_WOKEN_BY_ALARMD"] == "0", "\(resumed)")
        }
    }

    @Test func aRingingItemBlocksIdleSleepUntilItIsDismissed() throws {
        let (logind, daemon) = try Self.startWithLogind()
        defer { daemon.stop() }
        let id = try DesktopDaemon.remind("Take the cake out", in: 1, daemon)
        let blocking = ["what": "sleep:idle", "who": "alarmd", "why": "Alarm ringing: Take the cake out", "mode": "block"]
        #expect(waitUntil(timeout: 5) { (try? logind.inhibitors())?.contains(blocking) == true }, "\(String(describing: try? logind.inhibitors()))")
        try Alarmctl.ok(["dismiss", id], daemon)
        #expect(waitUntil(timeout: 2) { (try? logind.inhibitors()) == [Self.delay] }, "\(String(describing: try? logind.inhibitors()))")
    }

    /// Lead 0 and a reminder due in 3 s: the wake-up is the due instant;
    /// the stand-in "suspends" before it and "resumes" just after it, so the
    /// resume is alarmd's doing. The reminder then rings out after 2 s.
    func wokenThenRungOut(dismiss: Bool) throws -> [String] {
        let directory = TemporaryDirectory()
        let logind = try MockLogind(directory: directory)
        let daemon = DaemonProcess(config: "[Alarms]\nRingDuration=2s\n[Wake]\nLead=0\nReminders=yes\nSuspendAgain=yes\n", environment: logind.environment)
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        #expect(waitUntil(timeout: 5) { (try? logind.inhibitors()) == [Self.delay] })
        let id = try DesktopDaemon.remind("Wake up", in: 3, daemon)
        usleep(300_000)
        try logind.prepareForSleep(true)
        #expect(waitUntil(timeout: 1) { (try? logind.inhibitors())?.isEmpty == true })
        #expect(try DesktopDaemon.waitRinging(id, daemon))
        try logind.prepareForSleep(false)
        if dismiss { try Alarmctl.ok(["dismiss", id], daemon) }
        // Rings out 2 s after its instant; give the daemon time to act on it.
        usleep(3_500_000)
        return try logind.mock.objects(["calls"]).compactMap { $0["method"] as? String }
    }

    @Test(.enabled(if: getuid() == 0, "alarmd's own wake-up timer needs CAP_WAKE_ALARM"))
    func suspendAgainAfterAWakeWhoseAlarmRangOutUntouched() throws {
        let calls = try wokenThenRungOut(dismiss: false)
        #expect(calls.contains("CanSuspend") && calls.last == "Suspend", "\(calls)")
    }

    @Test(.enabled(if: getuid() == 0, "alarmd's own wake-up timer needs CAP_WAKE_ALARM"))
    func noSuspendAgainWhenSomeoneDismissedIt() throws {
        let calls = try wokenThenRungOut(dismiss: true)
        #expect(!calls.contains("Suspend"), "\(calls)")
    }

    @Test func lingerComesFromTheUsersLogindObject() throws {
        let directory = TemporaryDirectory()
        let logind = try MockLogind(directory: directory)
        _ = try logind.run(["adduser", String(getuid()), "alarmd-test"])
        let daemon = DaemonProcess(environment: logind.environment)
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        #expect(waitUntil(timeout: 5) { (try? Alarmctl.json(["status"], daemon)["linger"] as? Bool) == false })
        #expect(try Alarmctl.ok(["status"], daemon).contains("linger:     no — alarms stop when you log out; run loginctl enable-linger"))
        _ = try logind.run(["linger", String(getuid()), "true"])
        // Read again after each Status: the change shows from the next call on.
        #expect(waitUntil(timeout: 5) { (try? Alarmctl.json(["status"], daemon)["linger"] as? Bool) == true })
        #expect(try Alarmctl.ok(["status"], daemon).contains("linger:     yes"))
    }

    @Test func withoutASystemBusItSaysSoOnceAndCarriesOn() throws {
        let daemon = DaemonProcess(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket"])
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        #expect(try Alarmctl.json(["status"], daemon)["linger"] is NSNull, "unknown without logind")
        #expect(try !Alarmctl.ok(["status"], daemon).contains("linger:"))
        let id = try DesktopDaemon.remind("Still rings", in: 1, daemon)
        #expect(try DesktopDaemon.waitRinging(id, daemon))
        try Alarmctl.ok(["dismiss", id], daemon)
        if JournalFixture.isAvailable {
            let warnings = JournalFixture.query([], of: daemon).filter { ($0["MESSAGE"] ?? "").hasPrefix("No logind inhibitors") }
            #expect(warnings.count == 1, "\(warnings.map { $0["MESSAGE"] ?? "" })")
        }
    }
}

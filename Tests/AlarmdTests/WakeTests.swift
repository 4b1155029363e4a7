// SPDX-License-Identifier: Apache-2.0
import AlarmCore
@testable import AlarmDaemon
import Foundation
import Glibc
import Testing

/// Waking a suspended machine (issue 14), with the real binary: as root its
/// own `CLOCK_REALTIME_ALARM` timerfd, read back from `/proc/PID/fdinfo` the
/// way the kernel reports it; without `CAP_WAKE_ALARM` (dropped with
/// `setpriv`), `Status` and the journal say why there is no wake-up.
@Suite(.serialized) struct WakeTests {
    /// The armed value of the daemon's `CLOCK_REALTIME_ALARM` timerfd, as the
    /// instant it expires; `.some(nil)` for one not armed, `nil` for none
    /// (alarmd closes it when nothing is due: see `WakeTimer`).
    static func wakeTimer(_ pid: pid_t) -> Date?? {
        let directory = "/proc/\(pid)/fdinfo"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        for entry in entries {
            guard let text = try? String(contentsOfFile: "\(directory)/\(entry)", encoding: .utf8), text.contains("clockid: 8\n") else { continue }
            let read = Date()
            // it_value: (seconds, nanoseconds) still to go.
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("it_value:") }) else { continue }
            let numbers = line.split(whereSeparator: { !"0123456789".contains($0) }).compactMap { Double($0) }
            guard numbers.count == 2 else { continue }
            if numbers == [0, 0] { return .some(nil) }
            return .some(read.addingTimeInterval(numbers[0] + numbers[1] / 1e9))
        }
        return nil
    }

    /// The next occurrence of `hh:mm` UTC after now.
    static func nextOccurrence(_ text: String) -> Date {
        let parts = text.split(separator: ":").map { Int($0)! }
        let now = Date()
        let day = floor(now.timeIntervalSince1970 / 86_400) * 86_400
        var instant = Date(timeIntervalSince1970: day + Double(parts[0] * 3600 + parts[1] * 60))
        if instant <= now { instant.addTimeInterval(86_400) }
        return instant
    }

    static func hhmm(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970) % 86_400
        return String(format: "%02d:%02d", seconds / 3600, (seconds / 60) % 60)
    }

    static func near(_ a: Date??, _ b: Date, within: TimeInterval = 1) -> Bool {
        guard case .some(.some(let a)) = a else { return false }
        return abs(a.timeIntervalSince(b)) <= within
    }

    @Test(.enabled(if: getuid() == 0, "CLOCK_REALTIME_ALARM needs CAP_WAKE_ALARM; CI runs as root"))
    func asRootItsOwnAlarmTimerIsArmedLeadBeforeTheNextAlarmAndFollowsEdits() throws {
        let daemon = DaemonProcess(config: "[Wake]\nLead=90s\n")
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let pid = daemon.process.processIdentifier
        // No wake-up timer while nothing is due.
        #expect(Self.wakeTimer(pid) == nil, "fdinfo: \(String(describing: Self.wakeTimer(pid)))")

        let first = Self.hhmm(Date().addingTimeInterval(3 * 3600))
        let added = try Alarmctl.json(["add", first, "--label", "Wake me"], daemon)
        let id = try #require((added["alarm"] as? [String: Any])?["id"] as? String)
        let expected = Self.nextOccurrence(first).addingTimeInterval(-90)
        #expect(waitUntil(timeout: 2) { Self.near(Self.wakeTimer(pid), expected) }, "\(String(describing: Self.wakeTimer(pid))) for \(expected)")

        let status = try Alarmctl.json(["status"], daemon)
        let wake = status["wake"] as? [String: Any]
        #expect(wake?["method"] as? String == "timerfd")
        #expect((wake?["next"] as? String).map { !$0.isEmpty } == true, "\(status)")
        #expect(try Alarmctl.ok(["status"], daemon).contains("via alarmd's own timer"))

        // An edit moves it; a reminder does not wake unless asked to.
        let second = Self.hhmm(Date().addingTimeInterval(5 * 3600))
        try Alarmctl.ok(["edit", id, "--time", second], daemon)
        let moved = Self.nextOccurrence(second).addingTimeInterval(-90)
        #expect(waitUntil(timeout: 2) { Self.near(Self.wakeTimer(pid), moved) }, "\(String(describing: Self.wakeTimer(pid))) for \(moved)")
        try Alarmctl.ok(["remind", "add", "Earlier", "--in", "1h"], daemon)
        usleep(300_000)
        #expect(Self.near(Self.wakeTimer(pid), moved), "a reminder moved the wake-up: \(String(describing: Self.wakeTimer(pid)))")

        // Switched off: nothing left to wake for.
        try Alarmctl.ok(["disable", id], daemon)
        #expect(waitUntil(timeout: 2) { Self.wakeTimer(pid) == nil }, "\(String(describing: Self.wakeTimer(pid)))")
        let after = try Alarmctl.json(["status"], daemon)["wake"] as? [String: Any]
        #expect(after?["next"] is NSNull || after?["next"] == nil, "\(String(describing: after))")
    }

    /// `Status.wake` of `daemon` once `condition` holds of it (within 5 s),
    /// else as last read; the expectation names what was seen.
    static func wake(of daemon: DaemonProcess, once condition: ([String: Any]?) -> Bool,
                     sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any]? {
        var wake: [String: Any]?
        #expect(waitUntil(timeout: 5) {
            wake = try? Alarmctl.json(["status"], daemon)["wake"] as? [String: Any]
            return condition(wake)
        }, "\(String(describing: wake))", sourceLocation: sourceLocation)
        return wake
    }

    /// `daemon`, to be run under setpriv without `CAP_WAKE_ALARM`.
    static func withoutCapWakeAlarm(_ daemon: DaemonProcess) -> DaemonProcess {
        let alarmd = daemon.process.executableURL!.path
        daemon.process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        daemon.process.arguments = ["--bounding-set", "-wake_alarm", "--inh-caps", "-wake_alarm", "--", alarmd] + (daemon.process.arguments ?? [])
        return daemon
    }

    /// python-dbusmock's `systemd` template on a private session bus: the
    /// user manager alarmd asks for a wake-up timer when it has no
    /// `CAP_WAKE_ALARM` of its own.
    final class MockUserManager {
        let mock: DBusMock
        var bus: PrivateBus { mock.bus }

        init(directory: TemporaryDirectory) throws {
            mock = try DBusMock(directory: directory, template: "systemd", on: .session, script: "systemd_mock_ctl.py", ready: ["calls"])
            // Units that StartTransientUnit makes exist and are active, as on systemd 254.
            _ = try mock.run(["track", "active"])
        }

        func run(_ arguments: [String]) throws -> String { try mock.run(arguments) }

        /// The calls the manager received: method and arguments.
        func calls() throws -> [(method: String, args: [Any])] {
            try mock.objects(["calls"]).compactMap { object in
                (object["method"] as? String).map { ($0, object["args"] as? [Any] ?? []) }
            }
        }

        /// The `OnCalendar=` and `WakeSystem=` of every `StartTransientUnit` of alarmd-wake.timer.
        func wakeTimers() throws -> [(calendar: String, wakeSystem: Bool)] {
            try calls().filter { $0.method == "StartTransientUnit" && $0.args.first as? String == "alarmd-wake.timer" }.map { call in
                let properties = call.args.count > 2 ? call.args[2] as? [[Any]] ?? [] : []
                func value(_ name: String) -> Any? { properties.first { $0.first as? String == name }?.last }
                let calendar = ((value("TimersCalendar") as? [[Any]])?.first?.last as? String) ?? ""
                return (calendar, value("WakeSystem") as? Bool ?? false)
            }
        }
    }

    /// `OnCalendar=` as alarmd writes it for `date`.
    static func calendar(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.up))
        let day = seconds / 86_400
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: Date(timeIntervalSince1970: Double(day * 86_400)))
            + String(format: " %02d:%02d:%02d UTC", (seconds % 86_400) / 3600, (seconds % 3600) / 60, seconds % 60)
    }

    @Test(.enabled(if: getuid() == 0, "dropping the capability with setpriv needs root's bounding set"))
    func withoutCapWakeAlarmTheUserManagerGetsATransientWakeTimer() throws {
        let directory = TemporaryDirectory()
        let manager = try MockUserManager(directory: directory)
        let daemon = Self.withoutCapWakeAlarm(DaemonProcess(config: "[Wake]\nLead=90s\n", environment: ["DBUS_SESSION_BUS_ADDRESS": manager.bus.address]))
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let first = Self.hhmm(Date().addingTimeInterval(3 * 3600))
        let added = try Alarmctl.json(["add", first, "--label", "Wake me"], daemon)
        let id = try #require((added["alarm"] as? [String: Any])?["id"] as? String)
        let expected = Self.calendar(Self.nextOccurrence(first).addingTimeInterval(-90))
        #expect(waitUntil(timeout: 5) { (try? manager.wakeTimers())?.last.map { $0.calendar == expected && $0.wakeSystem } == true },
                "\(String(describing: try? manager.wakeTimers())) for \(expected)")
        _ = Self.wake(of: daemon) { $0?["method"] as? String == "user-timer" }
        #expect(try Alarmctl.ok(["status"], daemon).contains("via the user manager"))

        // An edit replaces it (the old one stopped first); disabling stops it.
        let second = Self.hhmm(Date().addingTimeInterval(5 * 3600))
        try Alarmctl.ok(["edit", id, "--time", second], daemon)
        let moved = Self.calendar(Self.nextOccurrence(second).addingTimeInterval(-90))
        #expect(waitUntil(timeout: 5) { (try? manager.wakeTimers())?.last?.calendar == moved }, "\(String(describing: try? manager.wakeTimers()))")
        let stopsBefore = try manager.calls().filter { $0.method == "StopUnit" }.count
        #expect(stopsBefore >= 1, "the first timer was not stopped before its replacement")
        try Alarmctl.ok(["disable", id], daemon)
        #expect(waitUntil(timeout: 5) { (try? manager.calls())?.filter { $0.method == "StopUnit" }.count == stopsBefore + 1 })
        #expect(try manager.wakeTimers().count == 2)
    }

    /// A daemon without `CAP_WAKE_ALARM` against a stand-in user manager set
    /// up by `setup`, once an alarm is due; its `Status.wake` once the reason
    /// says `reason`.
    static func wakeWhenTheUserManager(_ setup: [String], says reason: String) throws -> [String: Any]? {
        let manager = try MockUserManager(directory: TemporaryDirectory())
        _ = try manager.run(setup)
        let daemon = Self.withoutCapWakeAlarm(DaemonProcess(environment: ["DBUS_SESSION_BUS_ADDRESS": manager.bus.address]))
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        try Alarmctl.ok(["add", Self.hhmm(Date().addingTimeInterval(3600)), "--label", "Not woken"], daemon)
        return Self.wake(of: daemon) { ($0?["reason"] as? String)?.contains(reason) == true }
    }

    /// systemd 252 takes the transient timer and then fails it ("Failed to
    /// enter waiting state: Operation not permitted"): not a wake-up.
    @Test(.enabled(if: getuid() == 0, "dropping the capability with setpriv needs root's bounding set"))
    func aTimerTheUserManagerFailsIsNoWakeUp() throws {
        let wake = try Self.wakeWhenTheUserManager(["track", "failed"], says: "alarmd-wake.timer did not start (it is failed")
        #expect(wake?["method"] as? String == "none")
        #expect(wake?["next"] is NSNull || wake?["next"] == nil)
    }

    @Test(.enabled(if: getuid() == 0, "dropping the capability with setpriv needs root's bounding set"))
    func aUserManagerThatRefusesLeavesNoWakeUpAndSaysWhy() throws {
        let wake = try Self.wakeWhenTheUserManager(["refuse"], says: "WakeSystem= needs CAP_WAKE_ALARM")
        #expect(wake?["method"] as? String == "none")
    }

    @Test(.enabled(if: getuid() == 0, "dropping the capability with setpriv needs root's bounding set"))
    func withoutCapWakeAlarmOrAUserManagerStatusAndTheJournalSayWhy() throws {
        let daemon = Self.withoutCapWakeAlarm(DaemonProcess())
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        try Alarmctl.ok(["add", Self.hhmm(Date().addingTimeInterval(3600)), "--label", "Unwakeable"], daemon)
        // No user manager here either: once it was asked, the reason is final.
        let wake = Self.wake(of: daemon) { ($0?["reason"] as? String)?.contains("user manager") == true }
        #expect(wake?["method"] as? String == "none")
        #expect((wake?["reason"] as? String)?.contains("CAP_WAKE_ALARM") == true, "\(String(describing: wake))")
        let text = try Alarmctl.ok(["status"], daemon)
        #expect(text.contains("wake:       none — alarmd lacks CAP_WAKE_ALARM, the user manager refused"), "\(text)")
        #expect(text.contains("the alarmd-wake helper is not installed or not running"), "\(text)")
        #expect(Self.wakeTimer(daemon.process.processIdentifier) == nil, "no CLOCK_REALTIME_ALARM timer without the capability")
        if JournalFixture.isAvailable {
            let entries = JournalFixture.query(["MESSAGE_ID=\(MessageID.wakeUnavailable)"], of: daemon)
            #expect(entries.count == 1, "logged once: \(entries.map { $0["MESSAGE"] ?? "" })")
        }
    }
}

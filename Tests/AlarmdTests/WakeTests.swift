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

    @Test(.enabled(if: getuid() == 0, "dropping the capability with setpriv needs root's bounding set"))
    func withoutCapWakeAlarmStatusAndTheJournalSayWhy() throws {
        let daemon = DaemonProcess()
        let alarmd = daemon.process.executableURL!.path
        daemon.process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        daemon.process.arguments = ["--bounding-set", "-wake_alarm", "--inh-caps", "-wake_alarm", "--", alarmd] + (daemon.process.arguments ?? [])
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        try Alarmctl.ok(["add", Self.hhmm(Date().addingTimeInterval(3600)), "--label", "Unwakeable"], daemon)
        let wake = try Alarmctl.json(["status"], daemon)["wake"] as? [String: Any]
        #expect(wake?["method"] as? String == "none")
        #expect((wake?["reason"] as? String)?.contains("CAP_WAKE_ALARM") == true, "\(String(describing: wake))")
        let text = try Alarmctl.ok(["status"], daemon)
        #expect(text.contains("wake:       none — alarmd lacks CAP_WAKE_ALARM"), "\(text)")
        #expect(Self.wakeTimer(daemon.process.processIdentifier) == nil, "no CLOCK_REALTIME_ALARM timer without the capability")
        if JournalFixture.isAvailable {
            let entries = JournalFixture.query(["MESSAGE_ID=\(MessageID.wakeUnavailable)", "_PID=\(daemon.process.processIdentifier)"])
            #expect(entries.count == 1, "logged once: \(entries.map { $0["MESSAGE"] ?? "" })")
        }
    }
}

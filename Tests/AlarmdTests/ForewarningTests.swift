// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// What alarmd says before an alarm rings, on a real desktop (dunst on a
/// private session bus under Xvfb): the upcoming notice and its Dismiss now,
/// and the ten-minute audibility check's notification.
@Suite(.serialized) struct ForewarningTests {
    static func start(_ soon: MinuteAhead, alarms: String = "") throws -> (DesktopSession, DaemonProcess) {
        let desktop = try DesktopSession()
        let directory = TemporaryDirectory()
        let player = DesktopDaemon.writeRecordingPlayer(in: directory.path)
        let daemon = try DesktopDaemon.start(config: "[Sound]\nPlayer=\(player.script)\n[Alarms]\n\(alarms)", desktop: desktop, directory: directory,
                                             environment: ["TZ": soon.tz])
        return (desktop, daemon)
    }

    /// `UpcomingNotice=1m`: a quiet notice a minute ahead; Dismiss now skips
    /// that occurrence and says so.
    @Test func theUpcomingNoticeComesOnTimeAndDismissNowSkips() throws {
        let soon = MinuteAhead(75)
        let (desktop, daemon) = try Self.start(soon, alarms: "UpcomingNotice=1m\n")
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        let added = try Alarmctl.json(["add", soon.time, "--label", "Work", "--days", "daily"], daemon)
        let id = try #require((added["alarm"] as? [String: Any])?["id"] as? String)

        let summary = "Alarm at \(soon.time) — Work"
        let notice = try #require(desktop.waitForNotify(summary: summary, timeout: 40), "monitor: \(desktop.monitorText)\ndaemon: \(DesktopDaemon.log(daemon))")
        let early = soon.due.timeIntervalSinceNow
        #expect(early > 50 && early < 65, "the notice came \(early) s before the alarm, not about 60")
        #expect(notice.hints["urgency"] == "0" && notice.hints["category"] == "x-alarmd.upcoming")
        #expect(notice.actions == ["skip", "Dismiss now"])

        let noticeID = try #require(notice.id)
        try desktop.chooseAction("skip", notification: noticeID)
        let skipped = { (try? Alarmctl.json(["show", id], daemon)["alarm"] as? [String: Any])?["skipNext"] as? Bool }
        #expect(waitUntil(timeout: 5) { skipped() == true }, "daemon: \(DesktopDaemon.log(daemon))")
        #expect(desktop.waitForNotify(summary: "Work at \(soon.time) will not ring") != nil, "monitor: \(desktop.monitorText)")
        // Its next firing is now the day after.
        let firings = try Alarmctl.json(["next"], daemon)["firings"] as? [[String: Any]] ?? []
        let at = firings.first { $0["id"] as? String == id }?["at"] as? String
        let next = try #require(at.flatMap { DesktopDaemon.instant($0) }, "\(firings)")
        #expect(next.timeIntervalSince(soon.due) > 86_000, "next \(next), the skipped one \(soon.due)")
    }

    /// Ten minutes ahead the check finds no sound server (there is none on
    /// this desktop) and says so in a notification and the journal.
    @Test func theTenMinuteCheckSaysWhyItMayNotBeHeard() throws {
        let soon = MinuteAhead(605)
        let (desktop, daemon) = try Self.start(soon, alarms: "UpcomingNotice=0\n")
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        try Alarmctl.ok(["add", soon.time, "--label", "Flight"], daemon)

        let prefix = "Your \(soon.time) alarm may not be heard: "
        var warning: NotifyCall?
        #expect(waitUntil(timeout: 30) {
            warning = desktop.notifyCalls.first { $0.summary.hasPrefix(prefix) }
            return warning != nil
        }, "monitor: \(desktop.monitorText)\ndaemon: \(DesktopDaemon.log(daemon))")
        #expect(warning?.summary.hasPrefix(prefix + "the output's volume and mute cannot be checked (no sound server") == true, "\(String(describing: warning?.summary))")
        let before = soon.due.timeIntervalSinceNow
        #expect(before > 540 && before < 605, "the check came \(before) s before the alarm, not about 600")
        #expect(warning?.hints["urgency"] == "1" && warning?.actions == [])
        #expect(DesktopDaemon.waitForLog(daemon) { $0.contains { $0.hasPrefix("Alarm \"Flight\"") && $0.contains("may not be heard") } }
                    .contains { $0.contains("may not be heard") }, "daemon: \(DesktopDaemon.log(daemon))")
        // Given once: nothing more within the next seconds.
        usleep(1_500_000)
        #expect(desktop.notifyCalls.filter { $0.summary.hasPrefix(prefix) }.count == 1)
    }
}

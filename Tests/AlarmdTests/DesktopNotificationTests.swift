// SPDX-License-Identifier: Apache-2.0
import AlarmCore
@testable import AlarmDaemon
import Foundation
import Glibc
import SystemCalls
import Testing

/// What a notification says, computed in-process: no bus needed.
@Suite struct NotificationContentTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)

    static func ringer() -> DesktopRinger {
        DesktopRinger(queue: DispatchQueue(label: "test.output"), journal: Journal(socketPath: "/nonexistent/journal"), environment: [:], settings: { DaemonConfig() }, onCommand: { _, _ in })
    }

    static func keys(_ notification: DesktopNotifications.Notification) -> [String] { notification.actions.map(\.0) }
    static func labels(_ notification: DesktopNotifications.Notification) -> [String] { notification.actions.map(\.1) }

    @Test func aRepeatingAlarmShowsTimeAndDaysWithSnoozeAndDismiss() throws {
        let alarm = Alarm(time: try TimeOfDay(hour: 7, minute: 30), days: .weekdays, label: "Work", snooze: SnoozeSettings(minutes: 5), created: Self.now)
        let shown = Self.ringer().notification(for: .alarm(alarm), snoozeCount: 0, config: DaemonConfig())
        #expect(shown.summary == "Work")
        #expect(shown.body == "07:30 · Weekdays")
        // Its own length first, then the configured choices (5, 10, 15) but its own.
        #expect(Self.keys(shown) == ["snooze", "snooze-10", "snooze-15", "dismiss"])
        #expect(Self.labels(shown) == ["Snooze 5 min", "Snooze 10 min", "Snooze 15 min", "Dismiss"])
        #expect(shown.urgency == 2)
        #expect(shown.category == "x-alarmd.alarm")
        #expect(shown.resident)
        #expect(shown.imagePath == nil)
    }

    @Test func aOneShotAlarmShowsItsTimeOnly() throws {
        let alarm = Alarm(time: try TimeOfDay(hour: 18, minute: 45), label: "Pick up Sam", created: Self.now)
        let shown = Self.ringer().notification(for: .alarm(alarm), snoozeCount: 0, config: DaemonConfig())
        #expect(shown.body == "18:45")
        #expect(Self.labels(shown) == ["Snooze 9 min", "Snooze 5 min", "Snooze 10 min", "Snooze 15 min", "Dismiss"])
        var none = DaemonConfig()
        none.snoozeChoices = []
        #expect(Self.labels(Self.ringer().notification(for: .alarm(alarm), snoozeCount: 0, config: none)) == ["Snooze 9 min", "Dismiss"])
    }

    @Test func noSnoozeActionWhenSnoozeIsOffOrUsedUp() throws {
        let time = try TimeOfDay(hour: 6, minute: 0)
        let off = Alarm(time: time, days: .everyDay, label: "Off", snooze: SnoozeSettings(enabled: false), created: Self.now)
        #expect(Self.keys(Self.ringer().notification(for: .alarm(off), snoozeCount: 0, config: DaemonConfig())) == ["dismiss"])
        let limited = Alarm(time: time, days: .everyDay, label: "Twice", snooze: SnoozeSettings(minutes: 3, maxCount: 2), created: Self.now)
        #expect(Self.keys(Self.ringer().notification(for: .alarm(limited), snoozeCount: 1, config: DaemonConfig())) == ["snooze", "snooze-5", "snooze-10", "snooze-15", "dismiss"])
        #expect(Self.keys(Self.ringer().notification(for: .alarm(limited), snoozeCount: 2, config: DaemonConfig())) == ["dismiss"])
    }

    @Test func aReminderShowsItsNotesWithSnoozeAndDone() throws {
        let directory = TemporaryDirectory()
        let image = directory.path + "/card.png"
        _ = FileManager.default.createFile(atPath: image, contents: Data(Self.tinyPNG))
        var config = DaemonConfig()
        config.snoozeMinutes = 4
        let reminder = Reminder(title: "Call the bank", notes: "ask about the card", imagePath: image, created: Self.now)
        let shown = Self.ringer().notification(for: .reminder(reminder), snoozeCount: 0, config: config)
        #expect(shown.summary == "Call the bank")
        #expect(shown.body == "ask about the card")
        #expect(Self.keys(shown) == ["snooze", "snooze-5", "snooze-10", "snooze-15", "done"])
        #expect(Self.labels(shown) == ["Snooze 4 min", "Snooze 5 min", "Snooze 10 min", "Snooze 15 min", "Done"])
        #expect(shown.category == "x-alarmd.reminder")
        #expect(shown.urgency == 2 && shown.resident)
        #expect(shown.imagePath == image)

        // An image that is not there is left out rather than sent.
        let gone = Reminder(title: "Gone", imagePath: directory.path + "/missing.png", created: Self.now)
        #expect(Self.ringer().notification(for: .reminder(gone), snoozeCount: 0, config: config).imagePath == nil)
    }

    /// A reminder's notification says when it was due, then its notes; an
    /// all-day one its day.
    @Test func aReminderSaysWhenItWasDue() throws {
        let due = ISO8601DateFormatter().date(from: "2030-01-07T14:00:00Z")!
        let reminder = Reminder(title: "Call the bank", notes: "ask about the card", due: due, created: Self.now)
        #expect(Self.ringer().notification(for: .reminder(reminder), snoozeCount: 0, config: DaemonConfig()).body == "Due Mon 2030-01-07 14:00\nask about the card")
        let allDay = Reminder(title: "Bins", due: due, allDay: true, created: Self.now)
        #expect(Self.ringer().notification(for: .reminder(allDay), snoozeCount: 0, config: DaemonConfig()).body == "Due 2030-01-07")
    }

    /// The body is markup (the specification allows a subset), so text is
    /// escaped there; the summary is plain text (servers escape it themselves).
    @Test func markupIsEscapedInTheBodyOnly() throws {
        let reminder = Reminder(title: "<b>x</b>&", notes: "<b>x</b>& \"q\" 'a'", created: Self.now)
        let shown = Self.ringer().notification(for: .reminder(reminder), snoozeCount: 0, config: DaemonConfig())
        #expect(shown.body == "&lt;b&gt;x&lt;/b&gt;&amp; \"q\" 'a'")
        #expect(shown.summary == "<b>x</b>&")
        #expect(DesktopNotifications.escapeMarkup("<b>x</b>&") == "&lt;b&gt;x&lt;/b&gt;&amp;")
        #expect(DesktopNotifications.escapeMarkup("plain · text") == "plain · text")
    }

    /// A valid 1×1 PNG.
    static let tinyPNG: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
        0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
        0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
}

/// The real alarmd ringing on a real (virtual) desktop: Xvfb, a private session
/// bus and dunst, with every Notify call recorded by dbus-monitor.
@Suite(.serialized, .enabled(if: DesktopSession.isAvailable, "\(DesktopSession.unavailableReason ?? "")"))
struct DesktopNotificationTests {
    /// Without snooze choices, so that menus show the item's own actions
    /// only (``snoozeChoicesInDunstSnoozeForTheirLength()`` has them).
    static func config(player: String) -> String {
        "[Sound]\nPlayer=\(player)\n[Alarms]\nSnoozeChoices=\n"
    }

    /// A desktop and a daemon on it, with the recording player.
    static func start() throws -> (DesktopSession, DaemonProcess, player: (script: String, log: String)) {
        let desktop = try DesktopSession()
        let directory = TemporaryDirectory()
        let player = DesktopDaemon.writeRecordingPlayer(in: directory.path)
        let daemon = try DesktopDaemon.start(config: config(player: player.script), desktop: desktop, directory: directory)
        return (desktop, daemon, player)
    }

    @Test func aDueReminderAppearsInDunstWithItsActions() throws {
        let (desktop, daemon, _) = try Self.start()
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        let image = daemon.directory.path + "/card.png"
        _ = FileManager.default.createFile(atPath: image, contents: Data(NotificationContentTests.tinyPNG))
        let title = "Tea <b>x</b>&"
        let id = try DesktopDaemon.remind(title, in: 1, daemon, extra: ["--notes", "green & <i>hot</i>", "--image", image])

        let shown = desktop.waitForNotify(summary: title)
        let call = try #require(shown, "no Notify call; monitor: \(desktop.monitorText)\ndaemon: \(DesktopDaemon.log(daemon))")
        #expect(call.appName == "alarmd")
        #expect(call.replacesID == 0)
        // When it was due, then its notes: the monitor's parse keeps only the
        // first line of a body that spans lines; dunst's history, below, has it whole.
        #expect(call.body.contains("Due "), "\(call.body)")
        #expect(call.actions == ["snooze", "Snooze 9 min", "done", "Done"])
        #expect(call.hints["urgency"] == "2")
        #expect(call.hints["category"] == "x-alarmd.reminder")
        #expect(call.hints["resident"] == "true")
        #expect(call.hints["desktop-entry"] == "alarmd")
        #expect(call.hints["image-path"] == image)
        #expect(call.expireTimeout == 0)
        #expect(desktop.notifyCalls.count == 1, "one notification per ring: \(desktop.notifyCalls)")
        #expect(try DesktopDaemon.waitRinging(id, daemon))

        // dunst shows it (critical: it stays until closed).
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 1 }, "displayed: \(desktop.displayedCount); dunst: \(desktop.dunstLog)")
        usleep(300_000)
        #expect(desktop.displayedCount == 1, "a critical notification does not time out")

        // Marking it done closes it; dunst's history then has it as dunst drew it:
        // the text reads exactly as typed, nothing in it became markup.
        try Alarmctl.ok(["remind", "done", id], daemon)
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 0 })
        var entry: [String: Any]?
        _ = waitUntil(timeout: 5) {
            entry = desktop.history().first { ($0["id"] as? Int).map(UInt32.init) == call.id }
            return entry != nil
        }
        let closed = try #require(entry, "not in dunst's history: \(desktop.history())")
        #expect(closed["appname"] as? String == "alarmd")
        #expect(closed["category"] as? String == "x-alarmd.reminder")
        #expect(closed["summary"] as? String == title)
        let message = closed["message"] as? String ?? ""
        #expect(message.hasPrefix("<b>Tea &lt;b&gt;x&lt;/b&gt;&amp;</b>\nDue ") && message.hasSuffix("\ngreen &amp; &lt;i&gt;hot&lt;/i&gt;"), "\(message)")
    }

    /// Alarms seeded one minute due: a repeating one with snooze, one without
    /// snooze, and a one-shot one; all ring at start.
    @Test func dueAlarmsShowTimeDaysAndTheirActions() throws {
        let desktop = try DesktopSession()
        let directory = TemporaryDirectory()
        let player = DesktopDaemon.writeRecordingPlayer(in: directory.path)
        let daemon = DaemonProcess(directory: directory, config: Self.config(player: player.script), environment: desktop.environment)
        let now = Date()
        let time = try DaemonProcessTests.utcMinute(of: now)
        let created = now.addingTimeInterval(-86_400 * 2)
        let daily = Alarm(time: time, days: .everyDay, label: "Wake <up> & go", snooze: SnoozeSettings(minutes: 5), created: created)
        let strict = Alarm(time: time, days: .everyDay, label: "Strict", snooze: SnoozeSettings(enabled: false), created: created)
        let once = Alarm(time: time, label: "Once", created: created)
        try DaemonProcessTests.seed(daemon, alarms: [daily, strict, once], anchoredAt: now.addingTimeInterval(-86_400))
        _ = JournalFixture.isAvailable
        try daemon.startAndWaitReady()
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }

        let hhmm = time.description
        let wake = try #require(desktop.waitForNotify(summary: "Wake <up> & go"), "monitor: \(desktop.monitorText)")
        #expect(wake.body == "\(hhmm) · Every day")
        #expect(wake.actionPairs.map(\.0) == ["snooze", "dismiss"])
        #expect(wake.actions == ["snooze", "Snooze 5 min", "dismiss", "Dismiss"])
        #expect(wake.hints["category"] == "x-alarmd.alarm")
        #expect(wake.hints["urgency"] == "2")
        #expect(wake.hints["resident"] == "true")
        #expect(wake.hints["desktop-entry"] == "alarmd")
        #expect(wake.hints["image-path"] == nil)

        let strictCall = try #require(desktop.waitForNotify(summary: "Strict"))
        #expect(strictCall.actions == ["dismiss", "Dismiss"], "no snooze action when snooze is off")
        let onceCall = try #require(desktop.waitForNotify(summary: "Once"))
        #expect(onceCall.body == hhmm)
        #expect(onceCall.actions == ["snooze", "Snooze 9 min", "dismiss", "Dismiss"])
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 3 }, "displayed: \(desktop.displayedCount)")

        // The alarm sound, not the reminder sound, loops for them.
        _ = waitUntil(timeout: 5) { DesktopDaemon.playerLog(player.log).filter { $0.first == "start" }.count >= 3 }
        let files = Set(DesktopDaemon.playerLog(player.log).filter { $0.first == "start" }.map { $0[$0.count - 2] })
        #expect(files == ["/usr/share/sounds/freedesktop/stereo/alarm-clock-elapsed.oga"])

        // Dismiss from the notification: the alarm is dismissed and the notification goes.
        let strictID = try #require(strictCall.id)
        let menu = try desktop.chooseAction("dismiss", notification: strictID)
        #expect(menu.contains("#Dismiss (Strict) [\(strictID),dismiss]"), "\(menu)")
        let dismissed = waitUntil(timeout: 5) {
            let ringing = (try? Alarmctl.json(["status"], daemon)["ringing"] as? [String]) ?? nil
            return ringing.map { !$0.contains(strict.id.uuidString.lowercased()) } ?? false
        }
        #expect(dismissed, "daemon: \(DesktopDaemon.log(daemon))")
        #expect(waitUntil(timeout: 5) { desktop.closeCalls.contains(strictID) }, "the daemon closes the resident notification")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 2 })

        // Snooze from dunst's own menu, which shows the alarm's label and both
        // actions: the alarm is snoozed for its own 5 minutes, the journal says
        // so, and its notification goes.
        let wakeID = try #require(wake.id)
        let menu2 = try desktop.chooseAction("snooze", notification: wakeID)
        #expect(menu2.contains("#Snooze 5 min (Wake <up> & go) [\(wakeID),snooze]") && menu2.contains("#Dismiss (Wake <up> & go) [\(wakeID),dismiss]"),
                "dunst's context menu: \(menu2)")
        let dailyID = daily.id.uuidString.lowercased()
        let phase = { (try? Alarmctl.json(["show", dailyID], daemon)["alarm"] as? [String: Any])?["phase"] as? String }
        #expect(waitUntil(timeout: 5) { phase() == "snoozed" }, "daemon: \(DesktopDaemon.log(daemon))")
        let until = (try Alarmctl.json(["show", dailyID], daemon)["alarm"] as? [String: Any])?["next"] as? String
        let snoozedUntil = until.flatMap(DesktopDaemon.instant)
        #expect(snoozedUntil.map { abs($0.timeIntervalSinceNow - 300) < 30 } == true, "snoozed until \(until ?? "?")")
        if JournalFixture.isAvailable {
            let entries = JournalFixture.entries(itemID: dailyID) { $0.contains { $0["ALARMD_EVENT"] == "snoozed" } }
            #expect(entries.contains { $0["ALARMD_EVENT"] == "snoozed" && $0["ALARMD_SNOOZE_COUNT"] == "1" }, "\(entries)")
        }
        #expect(waitUntil(timeout: 5) { desktop.closeCalls.contains(wakeID) })
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 1 })
    }

    @Test func snoozeChosenInDunstSnoozesTheItem() throws {
        let (desktop, daemon, player) = try Self.start()
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        let watch = try BackgroundAlarmctl(["watch", "--json"], daemon)
        defer { watch.terminate() }
        usleep(300_000)
        let id = try DesktopDaemon.remind("Stretch", in: 1, daemon)
        let call = try #require(desktop.waitForNotify(summary: "Stretch"), "monitor: \(desktop.monitorText)")
        let notification = try #require(call.id)
        #expect(try DesktopDaemon.waitRinging(id, daemon))

        let menu = try desktop.chooseAction("snooze", notification: notification)
        #expect(menu == ["#Snooze 9 min (Stretch) [\(notification),snooze]", "#Done (Stretch) [\(notification),done]"], "dunst's context menu")

        let snoozed = watch.waitForLine(timeout: 5) { $0.contains(#""kind":"snoozed""#) && $0.contains(id) }
        #expect(snoozed != nil, "no snoozed event; watch: \(watch.lines); daemon: \(DesktopDaemon.log(daemon))")
        #expect(try DesktopDaemon.phase(id, daemon) == "snoozed")
        #expect((try Alarmctl.json(["status"], daemon)["ringing"] as? [String]) == [])
        if JournalFixture.isAvailable {
            let entries = JournalFixture.entries(itemID: id) { $0.contains { $0["ALARMD_EVENT"] == "snoozed" } }
            #expect(entries.contains { $0["ALARMD_EVENT"] == "snoozed" && $0["ALARMD_SNOOZE_COUNT"] == "1" })
        }

        // A resident notification stays until its client closes it: alarmd does,
        // once the item is snoozed, and the sound stops.
        #expect(waitUntil(timeout: 5) { desktop.closeCalls.contains(notification) }, "no CloseNotification: \(desktop.monitorText)")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 0 }, "still displayed: \(desktop.displayedCount)")
        #expect(waitUntil(timeout: 5) { DesktopDaemon.playerLog(player.log).contains { $0.first == "stop" } })
        // Snoozing is not dismissing: no dismissed event followed.
        usleep(300_000)
        #expect(!watch.lines.contains { $0.contains(#""kind":"dismissed""#) }, "\(watch.lines)")
    }

    /// `[Alarms] SnoozeChoices=`: each length is an action of its own in
    /// dunst's menu, and choosing one snoozes for that long.
    @Test func snoozeChoicesInDunstSnoozeForTheirLength() throws {
        let desktop = try DesktopSession()
        let directory = TemporaryDirectory()
        let player = DesktopDaemon.writeRecordingPlayer(in: directory.path)
        let daemon = try DesktopDaemon.start(config: "[Sound]\nPlayer=\(player.script)\n[Alarms]\nSnoozeChoices=2,20,45\nSnoozeMinutes=7\n",
                                             desktop: desktop, directory: directory)
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        for (minutes, key) in [(20, "snooze-20"), (45, "snooze-45"), (7, "snooze")] {
            let title = "Choice \(key)"
            let id = try DesktopDaemon.remind(title, in: 1, daemon)
            let call = try #require(desktop.waitForNotify(summary: title), "monitor: \(desktop.monitorText)")
            let notification = try #require(call.id)
            #expect(try DesktopDaemon.waitRinging(id, daemon))
            #expect(call.actionPairs.map(\.0) == ["snooze", "snooze-2", "snooze-20", "snooze-45", "done"], "the item's own length first")
            // dunst lists a menu in its own (hash) order.
            let menu = try desktop.chooseAction(key, notification: notification)
            #expect(Set(menu) == ["#Snooze 7 min (\(title)) [\(notification),snooze]", "#Snooze 2 min (\(title)) [\(notification),snooze-2]",
                             "#Snooze 20 min (\(title)) [\(notification),snooze-20]", "#Snooze 45 min (\(title)) [\(notification),snooze-45]",
                             "#Done (\(title)) [\(notification),done]"], "dunst's context menu")
            #expect(waitUntil(timeout: 5) { (try? DesktopDaemon.phase(id, daemon)) == "snoozed" }, "daemon: \(DesktopDaemon.log(daemon))")
            let reminder = try Alarmctl.json(["remind", "show", id], daemon)["reminder"] as? [String: Any]
            let next = (reminder?["next"] as? String).flatMap(DesktopDaemon.instant)
            #expect(next.map { abs($0.timeIntervalSinceNow - Double(minutes * 60)) < 15 } == true, "snoozed until \(String(describing: reminder?["next"])) for \(key)")
        }
    }

    @Test func doneChosenInDunstCompletesTheReminder() throws {
        let (desktop, daemon, _) = try Self.start()
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        let id = try DesktopDaemon.remind("Water plants", in: 1, daemon)
        let call = try #require(desktop.waitForNotify(summary: "Water plants"), "monitor: \(desktop.monitorText)")
        try desktop.chooseAction("done", notification: try #require(call.id))
        let done = try waitUntil(timeout: 5) {
            (try Alarmctl.json(["remind", "show", id], daemon)["reminder"] as? [String: Any])?["done"] as? Bool == true
        }
        #expect(done, "daemon: \(DesktopDaemon.log(daemon))")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 0 })
    }

    @Test func dismissWithAlarmctlClosesTheNotification() throws {
        let (desktop, daemon, player) = try Self.start()
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        let id = try DesktopDaemon.remind("Laundry", in: 1, daemon)
        let call = try #require(desktop.waitForNotify(summary: "Laundry"), "monitor: \(desktop.monitorText)")
        let notification = try #require(call.id)
        #expect(try DesktopDaemon.waitRinging(id, daemon))
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 1 })

        #expect(try Alarmctl.ok(["dismiss", id], daemon) == "Dismissed \"Laundry\" (\(id.prefix(8)))\n")
        #expect(waitUntil(timeout: 5) { desktop.closeCalls == [notification] }, "monitor: \(desktop.monitorText)")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 0 })
        #expect(waitUntil(timeout: 5) { desktop.closedSignals.contains { $0.id == notification && $0.reason == 3 } }, "closed by a call")
        #expect(desktop.history().contains { ($0["id"] as? Int).map(UInt32.init) == notification && $0["summary"] as? String == "Laundry" })
        #expect(waitUntil(timeout: 5) { DesktopDaemon.playerLog(player.log).contains { $0.first == "stop" } })
        #expect(try DesktopDaemon.phase(id, daemon) == "waiting")
    }

    /// Nobody answers: after the ring duration the item falls silent by
    /// itself, and its notification and sound go with it.
    @Test func autoSilenceClosesTheNotificationAndStopsTheSound() throws {
        let desktop = try DesktopSession()
        let directory = TemporaryDirectory()
        let player = DesktopDaemon.writeRecordingPlayer(in: directory.path)
        let daemon = try DesktopDaemon.start(config: Self.config(player: player.script) + "[Alarms]\nRingDuration=2s\n", desktop: desktop, directory: directory)
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        let watch = try BackgroundAlarmctl(["watch", "--json"], daemon)
        defer { watch.terminate() }
        usleep(300_000)
        let id = try DesktopDaemon.remind("Kettle", in: 1, daemon)
        let call = try #require(desktop.waitForNotify(summary: "Kettle"), "monitor: \(desktop.monitorText)")
        let notification = try #require(call.id)
        #expect(try DesktopDaemon.waitRinging(id, daemon))
        let timedOut = watch.waitForLine(timeout: 10) { $0.contains(#""kind":"timed-out""#) && $0.contains(id) }
        #expect(timedOut != nil, "no timed-out event; watch: \(watch.lines)")
        #expect(waitUntil(timeout: 5) { desktop.closeCalls.contains(notification) }, "no CloseNotification: \(desktop.monitorText)")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 0 })
        #expect((try Alarmctl.json(["status"], daemon)["ringing"] as? [String]) == [])
        // The loop is over: the player (which plays 0.3 s at a time, so it may
        // be between plays) is not started again and none is left running.
        usleep(1_000_000)
        let starts = SoundLoopTests.starts(player.log)
        #expect(!starts.isEmpty)
        usleep(1_000_000)
        #expect(SoundLoopTests.starts(player.log).count == starts.count, "the sound went on after auto-silence")
        for pid in SoundLoopTests.pids(player.log, "start") { #expect(!processIsAlive(pid), "player \(pid) still runs") }
    }

    /// Closing the notification (the person clicking it away) counts as dismiss.
    @Test func closingTheNotificationInDunstDismisses() throws {
        let (desktop, daemon, _) = try Self.start()
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        let id = try DesktopDaemon.remind("Oven", in: 1, daemon)
        _ = try #require(desktop.waitForNotify(summary: "Oven"), "monitor: \(desktop.monitorText)")
        #expect(try DesktopDaemon.waitRinging(id, daemon))
        #expect(desktop.dunstctl(["close"]).status == 0)
        let stopped = try waitUntil(timeout: 5) { (try Alarmctl.json(["status"], daemon)["ringing"] as? [String]) == [] }
        #expect(stopped, "daemon: \(DesktopDaemon.log(daemon))")
        #expect(try DesktopDaemon.phase(id, daemon) == "waiting")
    }

    /// An occurrence long overdue at start is not rung but shown once as missed:
    /// a normal-urgency notification without actions.
    @Test func aMissedAlarmIsShownOnceWithoutActions() throws {
        let desktop = try DesktopSession()
        let directory = TemporaryDirectory()
        let player = DesktopDaemon.writeRecordingPlayer(in: directory.path)
        let daemon = DaemonProcess(directory: directory, config: Self.config(player: player.script), environment: desktop.environment)
        let now = Date()
        let alarm = Alarm(time: try DaemonProcessTests.utcMinute(of: now.addingTimeInterval(-7200)), days: .everyDay, label: "Gone & <away>",
                          created: now.addingTimeInterval(-86_400 * 10))
        try DaemonProcessTests.seed(daemon, alarms: [alarm], anchoredAt: now.addingTimeInterval(-86_400 * 3))
        _ = JournalFixture.isAvailable
        try daemon.startAndWaitReady()
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }

        let summary = "Missed: Gone & <away>, \(alarm.time)"
        let call = try #require(desktop.waitForNotify(summary: summary), "monitor: \(desktop.monitorText)")
        #expect(call.actions == [])
        #expect(call.hints["urgency"] == "1")
        #expect(call.hints["category"] == "x-alarmd.missed")
        #expect(call.hints["resident"] == "false")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 1 })
        usleep(500_000)
        #expect(desktop.notifyCalls.count == 1, "one notification for all the missed occurrences: \(desktop.notifyCalls)")
        #expect(DesktopDaemon.playerLog(player.log).isEmpty, "a missed alarm does not ring")
    }

    /// With the session bus gone, items still fire (journal, sound, Watch); the
    /// outage is logged once; once a bus is back, notifications appear again.
    @Test func aBusOutageDoesNotStopFiringAndTheDaemonReconnects() throws {
        let (desktop, daemon, player) = try Self.start()
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        let watch = try BackgroundAlarmctl(["watch", "--json"], daemon)
        defer { watch.terminate() }
        usleep(300_000)

        let first = try DesktopDaemon.remind("Before", in: 1, daemon)
        #expect(desktop.waitForNotify(summary: "Before") != nil, "monitor: \(desktop.monitorText)")
        try Alarmctl.ok(["dismiss", first], daemon)

        desktop.stopBus()
        usleep(300_000)
        let second = try DesktopDaemon.remind("During one", in: 1, daemon)
        let third = try DesktopDaemon.remind("During two", in: 2, daemon)
        for id in [second, third] {
            #expect(watch.waitForLine(timeout: 10) { $0.contains(#""kind":"fired""#) && $0.contains(id) } != nil, "\(id) did not fire; \(watch.lines)")
        }
        #expect(try DesktopDaemon.waitRinging(third, daemon))
        if JournalFixture.isAvailable {
            for id in [second, third] {
                #expect(JournalFixture.entries(itemID: id) { $0.contains { $0["ALARMD_EVENT"] == "fired" } }.contains { $0["ALARMD_EVENT"] == "fired" })
            }
        }
        // The sound still plays without a bus.
        let playing = waitUntil(timeout: 5) { DesktopDaemon.playerLog(player.log).filter { $0.first == "start" && $0.contains("/usr/share/sounds/freedesktop/stereo/message-new-instant.oga") }.count >= 3 }
        #expect(playing)
        let outage = DesktopDaemon.waitForLog(daemon) { $0.contains { $0.hasPrefix("No desktop notifications") } }
        try Alarmctl.ok(["dismiss", second], daemon)
        try Alarmctl.ok(["dismiss", third], daemon)

        try desktop.startBus()
        let fourth = try DesktopDaemon.remind("After", in: 1, daemon)
        let after = desktop.waitForNotify(summary: "After")
        #expect(after != nil, "no notification after the bus came back; daemon: \(DesktopDaemon.log(daemon))")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 1 })
        #expect(try DesktopDaemon.waitRinging(fourth, daemon))
        #expect(!desktop.notifyCalls.contains { $0.summary.hasPrefix("During") }, "nothing is replayed")
        // Actions work on the new connection too.
        try desktop.chooseAction("snooze", notification: try #require(after?.id))
        #expect(watch.waitForLine(timeout: 5) { $0.contains(#""kind":"snoozed""#) && $0.contains(fourth) } != nil, "\(watch.lines)")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 0 })

        let log = DesktopDaemon.waitForLog(daemon) { $0.contains { $0.hasPrefix("Session bus is back") } }
        let outages = log.filter { $0.hasPrefix("No desktop notifications") }
        #expect(outages.count == 1, "the outage is logged once: \(outages); first seen: \(outage.filter { $0.hasPrefix("No desktop") })")
        #expect(outages.first?.contains("alarms still ring by sound and are logged to the journal") == true)
        #expect(log.filter { $0.hasPrefix("Session bus is back") }.count == 1, "\(log)")
    }

    /// A new notification server numbers its notifications from 1 again, so ids
    /// from before a bus restart must not be used on the new one: dismissing an
    /// item that rang before the restart must not close another item's
    /// notification. An item still ringing is shown again on the new server.
    @Test func aBusRestartForgetsOldNotificationIdsAndShowsRingingItemsAgain() throws {
        let (desktop, daemon, _) = try Self.start()
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        let early = try DesktopDaemon.remind("Early", in: 1, daemon)
        let before = try #require(desktop.waitForNotify(summary: "Early")?.id, "monitor: \(desktop.monitorText)")
        #expect(try DesktopDaemon.waitRinging(early, daemon))

        desktop.stopBus()
        usleep(300_000)
        try desktop.startBus()
        var again: NotifyCall?
        _ = waitUntil(timeout: 10) {
            again = desktop.notifyCalls.filter { $0.summary == "Early" && $0.id != nil }.dropFirst().first
            return again != nil
        }
        let reshown = try #require(again?.id, "not shown again on the new server; daemon: \(DesktopDaemon.log(daemon))")
        #expect(reshown == before, "the new server numbers from 1 again, so the ids collide")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 1 })

        let late = try DesktopDaemon.remind("Late", in: 1, daemon)
        let lateID = try #require(desktop.waitForNotify(summary: "Late")?.id, "monitor: \(desktop.monitorText)")
        #expect(try DesktopDaemon.waitRinging(late, daemon))
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 2 })

        try Alarmctl.ok(["dismiss", early], daemon)
        #expect(waitUntil(timeout: 5) { desktop.closeCalls.contains(reshown) }, "monitor: \(desktop.monitorText)")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 1 })
        usleep(300_000)
        #expect(!desktop.closeCalls.contains(lateID), "Late's notification was closed: \(desktop.closeCalls)")
        #expect(desktop.displayedCount == 1, "Late is still shown")
        #expect(desktop.history().contains { ($0["id"] as? Int).map(UInt32.init) == reshown && $0["summary"] as? String == "Early" })
        #expect(!desktop.history().contains { $0["summary"] as? String == "Late" }, "Late was not closed")
        #expect(try DesktopDaemon.phase(late, daemon) == "ringing")

        // Its actions work on the new server.
        try desktop.chooseAction("snooze", notification: lateID)
        #expect(waitUntil(timeout: 5) { (try? DesktopDaemon.phase(late, daemon)) == "snoozed" }, "daemon: \(DesktopDaemon.log(daemon))")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 0 })
    }

    /// A notification server that restarts (dunst killed and started again,
    /// the bus staying up) has forgotten what was shown: what still rings is
    /// shown again within a second of the new server taking the name, its ids
    /// are the new server's, and its actions work.
    @Test func aRestartedNotificationServerShowsRingingItemsAgainWithinASecond() throws {
        let (desktop, daemon, _) = try Self.start()
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        let first = try DesktopDaemon.remind("First", in: 1, daemon)
        let second = try DesktopDaemon.remind("Second", in: 1, daemon)
        for title in ["First", "Second"] {
            #expect(desktop.waitForNotify(summary: title) != nil, "monitor: \(desktop.monitorText)")
        }
        #expect(try DesktopDaemon.waitRinging(first, daemon))
        #expect(try DesktopDaemon.waitRinging(second, daemon))
        try Alarmctl.ok(["dismiss", second], daemon)
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 1 })

        try desktop.restartNotificationServer()
        let again = try #require(desktop.waitForNotify(summary: "First", number: 2), "not shown again; daemon: \(DesktopDaemon.log(daemon))")
        let started = try #require(desktop.notificationServerStarts.last)
        let shownAt = try #require(again.time)
        #expect(shownAt >= started && shownAt - started < 1, "shown \(shownAt - started) s after the server started")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 1 }, "only what still rings")
        #expect(desktop.notifyCalls.filter { $0.summary == "Second" }.count == 1, "a dismissed item is not shown again")

        try desktop.chooseAction("snooze", notification: try #require(again.id))
        #expect(waitUntil(timeout: 5) { (try? DesktopDaemon.phase(first, daemon)) == "snoozed" }, "daemon: \(DesktopDaemon.log(daemon))")
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 0 })
    }
}

/// The harness's own parsers, on text captured from the real programs.
@Suite struct DesktopHarnessTests {
    @Test func dbusMonitorOutputIsParsedIntoNotifyCalls() throws {
        let text = """
            signal time=1796046275.134528 sender=org.freedesktop.DBus -> destination=:1.0 serial=4 path=/org/freedesktop/DBus; interface=org.freedesktop.DBus; member=NameLost
               string ":1.0"
            method call time=1796046396.004159 sender=:1.13 -> destination=org.freedesktop.Notifications serial=4 path=/org/freedesktop/Notifications; interface=org.freedesktop.Notifications; member=Notify
               string "alarmd"
               uint32 0
               string "alarm-clock"
               string "Tea "hot" <b>"
               string "green &amp; "hot""
               array [
                  string "snooze"
                  string "Snooze 9 min"
                  string "done"
                  string "Done"
               ]
               array [
                  dict entry(
                     string "urgency"
                     variant             byte 2
                  )
                  dict entry(
                     string "resident"
                     variant             boolean true
                  )
                  dict entry(
                     string "desktop-entry"
                     variant             string "alarmd"
                  )
               ]
               int32 0
            method return time=1796046396.006009 sender=:1.2 -> destination=:1.13 serial=3 reply_serial=4
               uint32 7
            signal time=1796046401.450212 sender=:1.1 -> destination=:1.13 serial=20 path=/org/freedesktop/Notifications; interface=org.freedesktop.Notifications; member=NotificationClosed
               uint32 7
               uint32 3
            """
        let messages = MonitoredMessage.parse(text)
        #expect(messages.map(\.type) == ["signal", "method call", "method return", "signal"])
        let call = try #require(messages[1].notifyCall())
        #expect(call.sender == ":1.13" && call.serial == 4)
        #expect(call.appName == "alarmd" && call.icon == "alarm-clock" && call.replacesID == 0)
        #expect(call.summary == "Tea \"hot\" <b>")
        #expect(call.body == "green &amp; \"hot\"")
        #expect(call.actions == ["snooze", "Snooze 9 min", "done", "Done"])
        #expect(call.actionPairs.map(\.1) == ["Snooze 9 min", "Done"])
        #expect(call.hints == ["urgency": "2", "resident": "true", "desktop-entry": "alarmd"])
        #expect(call.expireTimeout == 0)
        #expect(messages[2].header["reply_serial"] == "4" && messages[2].values == ["7"])
        #expect(messages[3].member == "NotificationClosed" && messages[3].values == ["7", "3"])
    }

    @Test func stderrLinesAreReadLikeJournalEntries() {
        let entry = DesktopDaemon.stderrEntry("alarmd[42] <5> Reminder \"Tea\" fired on time  [ALARMD_ITEM_ID=abc ALARMD_KIND=reminder]")
        #expect(entry?.message == "Reminder \"Tea\" fired on time")
        #expect(entry?.fields == "ALARMD_ITEM_ID=abc ALARMD_KIND=reminder")
        #expect(DesktopDaemon.stderrEntry("alarmd[42] <4> No desktop notifications: x [y]")?.message == "No desktop notifications: x [y]")
        #expect(DesktopDaemon.stderrEntry("something else") == nil)
    }
}

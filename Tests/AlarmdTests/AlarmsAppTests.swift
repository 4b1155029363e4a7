// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// The Alarms desktop app end to end, as a person would use it: the real
/// `alarms` binary under Xvfb, a private session bus and the accessibility
/// bus, driven through AT-SPI by `python/alarms_ui.py` (python3-pyatspi),
/// against a real alarmd on private directories; what the app did is read
/// back with `alarmctl --json`. Each test sets up its own world
/// (``AlarmsAppWorld``: daemon, display, buses, app, driver); they run one
/// after another. The controls are found by their accessible names, the names
/// a screen reader reads, exactly.
@Suite(.serialized)
struct AlarmsAppTests {
    static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
    static let mondayToFriday = ["mon", "tue", "wed", "thu", "fri"]

    /// Opens the New Alarm form and sets its time to `hour`:`minute`.
    static func openNewAlarm(_ ui: AlarmsUI, at hour: Double, _ minute: Double) throws {
        try ui.click("push button", "Add Alarm")
        try ui.waitWindow("New Alarm")
        try ui.setValue("spin button", "Hour", hour)
        try ui.setValue("spin button", "Minute", minute)
    }

    /// (a) The form: Add Alarm, Hour 7, Minute 30, the Monday–Friday
    /// toggles (the Repeat choice follows them: Weekdays), Label "Work",
    /// Save; the daemon has exactly that alarm and the list shows it.
    @Test func anAlarmAddedThroughTheFormIsInTheDaemon() throws {
        let world = try AlarmsAppWorld()
        let ui = world.ui!
        try Self.openNewAlarm(ui, at: 7, 30)
        for day in Self.weekdays {
            try ui.toggle("push button", day)
            try ui.waitState("push button", day, "pressed")
        }
        // The drop-down shows the preset the toggles make.
        let repeatShown = try ui.rowLabels("combo box", "Repeat")
        #expect(repeatShown.contains("Weekdays"), "the Repeat drop-down after toggling Monday–Friday shows \(repeatShown)")
        try ui.setText("text", "Label", "Work")
        try ui.click("push button", "Save")
        try ui.windowGone("New Alarm")
        try ui.wait("check box", "Work")

        let alarms = try world.alarms()
        try #require(alarms.count == 1, "\(alarms)")
        #expect(alarms[0]["time"] as? String == "07:30")
        #expect(alarms[0]["days"] as? [String] == Self.mondayToFriday)
        #expect(alarms[0]["label"] as? String == "Work")
        #expect(alarms[0]["enabled"] as? Bool == true)

        let row = try ui.rowLabels("check box", "Work")
        #expect(row.contains("07:30"), "the row says \(row)")
        #expect(row.contains { $0.hasPrefix("Work, Weekdays") }, "the row says \(row)")
    }

    /// (b) The row's switch turns the alarm off in the daemon at once.
    @Test func theRowsSwitchDisablesTheAlarm() throws {
        let world = try AlarmsAppWorld { daemon in
            try Alarmctl.ok(["add", "7:30", "--days", "weekdays", "--label", "Work"], daemon)
        }
        let ui = world.ui!
        try ui.waitState("check box", "Work", "checked")
        try ui.toggle("check box", "Work")
        var enabled: Bool?
        #expect(try waitUntil(timeout: 5) {
            enabled = try world.alarms().first?["enabled"] as? Bool
            return enabled == false
        }, "alarmctl list --json says enabled \(String(describing: enabled)) after the switch was turned off")
        try ui.waitState("check box", "Work", "checked", on: false)
    }

    /// (c) An alarm added with alarmctl while the app is open appears in the
    /// list with nothing done in the app (the app's Watch subscription).
    @Test func anAlarmAddedWithAlarmctlAppearsByItself() throws {
        let world = try AlarmsAppWorld()
        let ui = world.ui!
        try ui.wait("label", "No Alarms")
        let added = Date()
        try Alarmctl.ok(["add", "6:15", "--days", "daily", "--label", "Run"], world.daemon!)
        try ui.wait("check box", "Run", timeout: 5)
        let seconds = Date().timeIntervalSince(added)
        let row = try ui.rowLabels("check box", "Run")
        #expect(row.contains("06:15"), "the row says \(row)")
        #expect(row.contains { $0.hasPrefix("Run, Every day") }, "the row says \(row)")
        try ui.gone("label", "No Alarms")
        // The issue asks for a tenth of a second; the benchmark measures it
        // (p95 of 50); this says how long it took here, AT-SPI polling included.
        print("AlarmsAppTests: the alarmctl alarm was on screen \(Int(seconds * 1000)) ms after alarmctl was started")
    }

    /// (d) To-dos: three added through the form, the first marked done with
    /// its check box, the last moved up with its row menu's Move Up; the
    /// daemon has them done and in that order.
    @Test func aToDoIsAddedMarkedDoneAndMoved() throws {
        let world = try AlarmsAppWorld()
        let ui = world.ui!
        try ui.click("page tab", "To-dos")
        try ui.wait("push button", "Add To-do")
        for title in ["Buy milk", "Call mom", "Pay rent"] {
            try ui.click("push button", "Add To-do")
            try ui.waitWindow("New To-do")
            try ui.setText("text", "Title", title)
            try ui.click("push button", "Save")
            try ui.windowGone("New To-do")
            try ui.wait("check box", title)
        }
        var titles = try world.reminders().map { $0["title"] as? String ?? "?" }
        #expect(titles == ["Buy milk", "Call mom", "Pay rent"])

        try ui.toggle("check box", "Buy milk")
        var done: Bool?
        #expect(try waitUntil(timeout: 5) {
            done = try world.reminders().first { $0["title"] as? String == "Buy milk" }?["done"] as? Bool
            return done == true
        }, "remind list --all --json says Buy milk is done: \(String(describing: done))")

        // The row menu: a GtkPopoverMenu whose items are "menu item" nodes.
        try ui.click("push button", "More for Pay rent")
        try ui.wait("menu item", "Move Up")
        try ui.click("menu item", "Move Up")
        #expect(try waitUntil(timeout: 5) {
            titles = try (world.alarmctl(["remind", "list"])["reminders"] as? [[String: Any]] ?? []).map { $0["title"] as? String ?? "?" }
            return titles == ["Pay rent", "Call mom"]
        }, "the open to-dos after Move Up on Pay rent, in the daemon's order: \(titles)")
        let open = try ui.names("check box")
        #expect(open.firstIndex(of: "Pay rent") ?? 99 < open.firstIndex(of: "Call mom") ?? -1, "the list shows \(open)")
    }

    /// Delete from a row's menu, then the toast's Undo: the alarm is back as
    /// it was, with its id and what its row does not show (its zone, its
    /// calendar repeat, its snooze limit, its command).
    @Test func undoPutsADeletedAlarmBackWhole() throws {
        let world = try AlarmsAppWorld { daemon in
            try Alarmctl.ok(["add", "19:00", "--monthly", "last-fri", "--label", "Pay day", "--tz", "Europe/Berlin", "--snooze", "5",
                             "--max-snoozes", "3", "--ring", "120", "--command", "/bin/true x"], daemon)
        }
        let ui = world.ui!
        try ui.wait("check box", "Pay day")
        let before = (try world.alarmctl(["export"])["document"] as? [String: Any])?["alarms"] as? [[String: Any]] ?? []
        try #require(before.count == 1)
        try ui.click("push button", "More for Pay day")
        try ui.wait("menu item", "Delete")
        try ui.click("menu item", "Delete")
        try ui.wait("label", "Deleted “Pay day”")
        #expect(try world.alarms().isEmpty)
        // The toast's button (GTK 4.8 names it with its label twice).
        try ui.click("push button", "prefix:Undo")
        try ui.wait("check box", "Pay day")
        var after: [[String: Any]] = []
        #expect(try waitUntil(timeout: 5) {
            after = (try world.alarmctl(["export"])["document"] as? [String: Any])?["alarms"] as? [[String: Any]] ?? []
            return !after.isEmpty
        })
        #expect(after.map { $0 as NSDictionary } == before.map { $0 as NSDictionary }, "\(after) against \(before)")
    }

    /// A timer's Pause stops its countdown in the daemon, +1 min adds to
    /// what is left, and Resume sets it going again; the group above it says
    /// "Running" only while it runs.
    @Test func aTimerIsPausedGivenAMinuteAndResumed() throws {
        let started = Date()
        let world = try AlarmsAppWorld { daemon in try Alarmctl.ok(["timer", "10m", "Tea"], daemon) }
        let ui = world.ui!
        func timer() throws -> [String: Any] { try #require((try world.alarmctl(["timer"])["reminders"] as? [[String: Any]])?.first) }
        try ui.wait("push button", "Add Alarm")
        try ui.click("page tab", "Timers")
        try ui.wait("label", "Running")
        try ui.click("push button", "Pause Tea")
        try ui.wait("push button", "Resume Tea")
        try ui.gone("label", "Running")
        let left = try #require(try timer()["timerLeft"] as? Int, "a paused timer keeps its seconds left")
        #expect((600 - Int(Date().timeIntervalSince(started).rounded(.up)) - 1...600).contains(left), "\(left)")
        try ui.click("push button", "One more minute for Tea")
        #expect(try waitUntil(timeout: 5) { try timer()["timerLeft"] as? Int == left + 60 })
        try ui.click("push button", "Resume Tea")
        try ui.wait("push button", "Pause Tea")
        try ui.wait("label", "Running")
        let resumed = try timer()
        #expect(resumed["timerLeft"] == nil && resumed["due"] is String, "\(resumed)")
    }

    /// (e) A reminder due in two seconds takes over the window with the
    /// ringing view; its Snooze button snoozes it in the daemon.
    @Test func aDueReminderShowsTheRingingViewAndSnoozeSnoozes() throws {
        let world = try AlarmsAppWorld()
        let ui = world.ui!
        try ui.wait("push button", "Add Alarm")
        let id = try DesktopDaemon.remind("Tea", in: 2, world.daemon!)
        try ui.wait("push button", "Stop", timeout: 15)
        try ui.wait("push button", "Snooze")
        #expect(try DesktopDaemon.phase(id, world.daemon!) == "ringing")
        try ui.click("push button", "Snooze")
        var phase: String?
        #expect(try waitUntil(timeout: 5) {
            phase = try DesktopDaemon.phase(id, world.daemon!)
            return phase == "snoozed"
        }, "remind show --json says phase \(String(describing: phase)) after Snooze")
        try ui.gone("push button", "Stop")
    }

    /// (f) alarmd stopped: the banner says so; alarmd started again on the
    /// same directories: the banner goes and the list is back.
    /// Two reminders ringing at once: the view shows the first, says one
    /// more rings, and shows the other once the first is stopped.
    @Test func twoRingingAtOnceAreShownOneAfterTheOther() throws {
        let world = try AlarmsAppWorld()
        let ui = world.ui!
        try ui.wait("push button", "Add Alarm")
        let first = try DesktopDaemon.remind("Tea", in: 2, world.daemon!)
        let second = try DesktopDaemon.remind("Call mum", in: 3, world.daemon!)
        #expect(try DesktopDaemon.waitRinging(second, world.daemon!))
        try ui.wait("label", "1 more ringing", timeout: 10)
        try ui.wait("label", "Tea")
        try ui.click("push button", "Stop")
        try ui.wait("label", "Call mum")
        try ui.gone("label", "1 more ringing")
        #expect(try DesktopDaemon.phase(first, world.daemon!) != "ringing")
        try ui.click("push button", "Stop")
        try ui.wait("push button", "Add Alarm")
        #expect(try waitUntil(timeout: 5) { try DesktopDaemon.phase(second, world.daemon!) != "ringing" })
    }

    @Test func theBannerComesWhenAlarmdStopsAndGoesWhenItIsBack() throws {
        let world = try AlarmsAppWorld { daemon in
            try Alarmctl.ok(["add", "7:30", "--days", "weekdays", "--label", "Work"], daemon)
        }
        let ui = world.ui!
        try ui.wait("check box", "Work")
        try #require(try !ui.exists("label", "alarmd is not running"))
        world.stopDaemon()
        try ui.wait("label", "alarmd is not running", timeout: 10)
        try ui.wait("label", "Alarms ring only while alarmd runs. Start it with: systemctl --user start alarmd.socket")
        try world.startDaemon()
        try ui.gone("label", "alarmd is not running", timeout: 10)
        try ui.wait("check box", "Work", timeout: 10)
        let row = try ui.rowLabels("check box", "Work")
        #expect(row.contains("07:30"), "the row says \(row)")
    }

    /// Bad luck mid-form: alarmd goes away while the form is open. Save says
    /// so in the dialog, which stays open with everything typed; once alarmd
    /// is back, the same Save goes through.
    @Test func aFormOutlivesTheDaemonGoingAwayAndNothingTypedIsLost() throws {
        let world = try AlarmsAppWorld()
        let ui = world.ui!
        try Self.openNewAlarm(ui, at: 6, 45)
        try ui.setText("text", "Label", "Kept")
        world.stopDaemon()
        try ui.click("push button", "Save")
        _ = try ui.waitLabels { labels in labels.contains { $0.contains("Nothing you typed is lost") } }
        try ui.waitWindow("New Alarm")
        #expect(try ui.send("text", "text", "Label") as? String == "Kept")
        #expect(try ui.send("value", "spin button", "Hour") as? Double == 6)
        try world.startDaemon()
        try ui.click("push button", "Save")
        try ui.windowGone("New Alarm")
        try ui.wait("check box", "Kept")
        let alarms = try world.alarms()
        #expect(alarms.map { $0["label"] as? String } == ["Kept"] && alarms.first?["time"] as? String == "06:45", "\(alarms)")
    }

    /// (g) Under LANG=zh_TW.UTF-8 the same form, untouched but for the
    /// Monday–Friday toggles, makes an alarm whose row says 平日 and 鬧鐘.
    @Test func theWindowSpeaksTraditionalChinese() throws {
        if let reason = Locales.unavailableReason {
            Issue.record("cannot run under zh_TW: \(reason)")
            return
        }
        let world = try AlarmsAppWorld(language: "zh_TW.UTF-8", daemonLanguage: "zh_TW.UTF-8")
        let ui = world.ui!
        try ui.click("push button", "新增鬧鐘")  // Add Alarm
        try ui.waitWindow("新增鬧鐘")  // New Alarm
        for day in ["星期一", "星期二", "星期三", "星期四", "星期五"] {
            try ui.toggle("push button", day)
            try ui.waitState("push button", day, "pressed")
        }
        try ui.click("push button", "儲存")  // Save
        try ui.windowGone("新增鬧鐘")
        try ui.wait("check box", "鬧鐘")  // the row's switch, named by the default label
        let row = try ui.rowLabels("check box", "鬧鐘")
        #expect(row.contains { $0.contains("平日") } && row.contains { $0.contains("鬧鐘") }, "the row says \(row)")
        #expect(!row.contains { $0.contains("Weekdays") || $0.contains("Alarm") }, "the row says \(row)")
        let alarms = try world.alarms()
        #expect(alarms.first?["label"] as? String == "鬧鐘", "\(alarms)")
        #expect(alarms.first?["days"] as? [String] == Self.mondayToFriday, "\(alarms)")
    }

    /// Each screen rendered under Xvfb at a phone-like 460×640 (the narrow layout: the page switcher at the bottom),
    /// captured with ImageMagick: not blank (many colours, not uniform), the
    /// window at the size asked for (a window GTK had to widen has content
    /// wider than it), and every on-screen node inside the window (nodes in
    /// a scroll pane may be scrolled away, so the pane counts for them).
    @Test func everyScreenRendersAndFitsItsWindow() throws {
        let shots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/alarms-app-screens").path
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let size = (460, 640)
        let world = try AlarmsAppWorld(size: size) { daemon in
            try Alarmctl.ok(["add", "6:30", "--days", "weekdays", "--label", "Gym"], daemon)
            let work = try Alarmctl.json(["add", "7:30", "--days", "weekdays", "--label", "Work"], daemon)
            try Alarmctl.ok(["disable", (work["alarm"] as? [String: Any])?["id"] as? String ?? "?"], daemon)
            try Alarmctl.ok(["add", "9:00", "--days", "sat,sun", "--label", "Weekend"], daemon)
            try Alarmctl.ok(["remind", "add", "Buy milk", "--notes", "Oat milk, two litres"], daemon)
            try Alarmctl.ok(["remind", "add", "Call mom", "--at", "tomorrow 18:00"], daemon)
            try Alarmctl.ok(["remind", "add", "Pay rent", "--at", "09:00", "--monthly", "1"], daemon)
        }
        let ui = world.ui!

        func check(_ screen: String, window: String, requested: (Int, Int)?) throws {
            let path = "\(shots)/\(screen).png"
            let picture = try ui.shot(window, to: path)
            let layout = try ui.layout(window)
            let colours = picture["colours"] as? Int ?? 0
            let spread = picture["spread"] as? Double ?? 0
            #expect(colours >= 32 && spread >= 8, "\(screen) (\(path)) looks blank: \(colours) colours, spread \(spread)")
            let box = layout["window"] as? [Int] ?? []
            // The X window is the AT-SPI window plus the resize border GTK's
            // client-side decorations draw around it.
            let (pictureWidth, pictureHeight) = (picture["width"] as? Int ?? 0, picture["height"] as? Int ?? 0)
            #expect(box.count == 4 && (0...40).contains(pictureWidth - box[2]) && (0...40).contains(pictureHeight - box[3]),
                    "\(screen): the picture is \(pictureWidth)×\(pictureHeight), the window \(box)")
            if let (width, height) = requested {
                // GTK's default size is the X window's, resize border included.
                #expect(pictureWidth == width && pictureHeight == height, """
                    \(screen): the window was asked to be \(width)×\(height) (window.ini) but is \(pictureWidth)×\(pictureHeight): \
                    its content needs more than the window it was given (\(path))
                    """)
            }
            let overflow = layout["overflow"] as? [String] ?? ["?"]
            #expect(overflow.isEmpty, "\(screen): nodes outside the \(box) window:\n\(overflow.joined(separator: "\n"))")
        }

        try ui.wait("check box", "Gym")
        try ui.wait("check box", "Weekend")
        try check("alarms", window: "Alarms", requested: size)

        try ui.click("page tab", "To-dos")
        try ui.wait("check box", "Buy milk")
        try ui.wait("check box", "Pay rent")
        try check("todos", window: "Alarms", requested: size)

        try ui.click("page tab", "Timers")
        try ui.wait("text", "Timer length")
        try check("timers", window: "Alarms", requested: size)

        try ui.click("page tab", "Alarms")
        try ui.click("push button", "Add Alarm")
        try ui.waitWindow("New Alarm")
        try ui.wait("spin button", "Hour")
        try check("alarm-editor", window: "New Alarm", requested: nil)
    }
}

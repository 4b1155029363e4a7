// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

/// Which occurrence wakes the machine and when, with literal times; and the
/// `[Wake]` settings as alarmd.conf spells them.
@Suite struct WakePlanTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let alarm = Item.alarm(Alarm(time: try! TimeOfDay(hour: 7, minute: 30), created: now))
    static let reminder = Item.reminder(Reminder(title: "Call", due: now.addingTimeInterval(600), created: now))

    @Test func alarmsAndTimersWakeByDefaultRemindersOnlyWhenAsked() {
        var settings = WakeSettings()
        #expect(WakePlan.wakes(Self.alarm, settings: settings))
        #expect(!WakePlan.wakes(Self.reminder, settings: settings))
        #expect(WakePlan.wakes(.reminder(Reminder(title: "Tea", due: Self.now.addingTimeInterval(240), isTimer: true, created: Self.now)), settings: settings))
        settings.reminders = true
        #expect(WakePlan.wakes(Self.reminder, settings: settings))
        settings.enabled = false
        #expect(!WakePlan.wakes(Self.alarm, settings: settings))
        #expect(!WakePlan.wakes(Self.reminder, settings: settings))
    }

    @Test(arguments: [
        // (seconds until the firing, lead, seconds until the wake-up or nil)
        (3600.0, 60.0, 3540.0 as Double?),
        (3600, 0, 3600),
        (30, 60, 30),      // closer than the lead: wake for the occurrence itself
        (60, 60, 60),      // exactly the lead away: the early moment is now, already gone
        (0, 60, nil),      // due now: nothing to wake for
        (-5, 60, nil),
    ])
    func theWakeUpIsLeadBeforeTheFiring(until: Double, lead: Double, expected: Double?) {
        var settings = WakeSettings()
        settings.lead = lead
        let wake = WakePlan.instant(for: Self.now.addingTimeInterval(until), now: Self.now, settings: settings)
        #expect(wake == expected.map { Self.now.addingTimeInterval($0) })
    }

    @Test func nothingWithoutAFiringOrWhenSwitchedOff() {
        #expect(WakePlan.instant(for: nil, now: Self.now, settings: WakeSettings()) == nil)
        var off = WakeSettings()
        off.enabled = false
        #expect(WakePlan.instant(for: Self.now.addingTimeInterval(3600), now: Self.now, settings: off) == nil)
    }

    @Test func theWakeSectionIsRead() throws {
        let (config, warnings) = try DaemonConfig.parse("[Wake]\nEnabled=no\nLead=2m\nReminders=yes\nSuspendAgain=yes\n", name: "alarmd.conf")
        #expect(warnings.isEmpty)
        #expect(!config.wake.enabled)
        #expect(config.wake.lead == 120)
        #expect(config.wake.reminders)
        #expect(config.wake.suspendAgain)
        #expect(DaemonConfig().wake == WakeSettings())
        #expect(try DaemonConfig.parse("[Wake]\nLead=0\n", name: "x").config.wake.lead == 0)
    }

    @Test(arguments: [("Enabled", "maybe", "must be yes or no"), ("Lead", "2h", "up to 1h"), ("Reminders", "sometimes", "must be yes or no"), ("SuspendAgain", "2", "must be yes or no")])
    func badWakeValuesNameFileLineAndKey(key: String, value: String, message: String) {
        do {
            _ = try DaemonConfig.parse("[Wake]\n\(key)=\(value)\n", name: "alarmd.conf")
            Issue.record("accepted \(key)=\(value)")
        } catch {
            #expect(error.description.contains("alarmd.conf:2"), "\(error)")
            #expect(error.description.contains(key), "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// `Status` and `GetAlarm` say the machine will not wake from suspend only
/// while no means of waking it works: what they say follows the wake-up as
/// it is, not as it was when the sounds were last checked.
@Suite(.serialized) struct WakeWarningTests {
    /// A daemon without `CAP_WAKE_ALARM` that starts with an alarm already
    /// stored checks its sounds at once, before the user manager (refusing
    /// here) and then the helper have answered. Once the helper holds the
    /// wake-up, no warning says the machine will not wake.
    @Test(.enabled(if: getuid() == 0, "the helper needs CAP_WAKE_ALARM and dropping it from alarmd needs root's bounding set"))
    func withTheHelperHoldingTheWakeUpNoWarningSaysTheMachineWillNotWake() throws {
        let manager = try WakeTests.MockUserManager(directory: TemporaryDirectory())
        _ = try manager.run(["refuse"])
        let helper = try WakeHelperTests.Helper()
        let environment = ["DBUS_SESSION_BUS_ADDRESS": manager.bus.address, "ALARMD_WAKE_HELPER": helper.socketPath]
        let directory = TemporaryDirectory()
        let id: String
        do {
            let first = DaemonProcess(directory: directory, environment: environment)
            try first.startAndWaitReady()
            let added = try Alarmctl.json(["add", WakeTests.hhmm(Date().addingTimeInterval(3 * 3600)), "--label", "Helped"], first)
            id = try #require((added["alarm"] as? [String: Any])?["id"] as? String)
            first.stop()
        }
        let daemon = WakeTests.withoutCapWakeAlarm(DaemonProcess(directory: directory, environment: environment))
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        _ = WakeTests.wake(of: daemon) { $0?["method"] as? String == "helper" }
        #expect(waitUntil(timeout: 5) { (helper.timer ?? nil) != nil }, "the helper holds no wake-up")

        let status = try Alarmctl.json(["status"], daemon)
        let warnings = status["warnings"] as? [String] ?? []
        #expect(!warnings.contains { $0.contains("will not wake") }, "\(warnings)")
        let text = try Alarmctl.ok(["status"], daemon)
        #expect(text.contains("via the alarmd-wake helper"), "\(text)")
        #expect(!text.contains("will not wake from suspend"), "\(text)")
        let alarm = try Alarmctl.json(["show", id], daemon)
        let alarmWarnings = alarm["warnings"] as? [String] ?? []
        #expect(!alarmWarnings.contains { $0.contains("will not wake") }, "\(alarmWarnings)")
    }
}

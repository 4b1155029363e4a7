// SPDX-License-Identifier: Apache-2.0
import AlarmDaemon
import Foundation
import Glibc
import Testing

/// `TZ` changed in the systemd user manager's environment reaches the running
/// daemon on reload. A stand-in manager (Python `jeepney` on a private
/// session bus) answers the calls real systemd would.
@Suite(.serialized) struct ServiceManagerTests {
    final class FakeManager {
        let bus: PrivateBus
        let managerEnvironment: String
        let unitEnvironment: String
        private let process = Process()
        let output = PipeCollector()

        init(directory: TemporaryDirectory) throws {
            bus = try PrivateBus(directory: directory.path)
            managerEnvironment = directory.path + "/manager.env"
            unitEnvironment = directory.path + "/unit.env"
            let (found, tried) = PythonClientTests.interpreter(importing: "jeepney")
            guard let python = found else {
                throw HarnessError(description: "no Python can `import jeepney` (tried: \(tried.joined(separator: "; "))); `make python-deps` installs it")
            }
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [PythonClientTests.packageRoot + "/Tests/AlarmdTests/python/fake_systemd_manager.py",
                                 bus.address, managerEnvironment, unitEnvironment]
            process.standardOutput = output.pipe
            process.standardError = output.pipe
            try process.run()
            guard waitUntil(timeout: 20, { output.text.contains("ready") || !process.isRunning }), process.isRunning else {
                throw HarnessError(description: "the fake manager did not start: \(output.text)")
            }
        }

        func setEnvironment(manager: [String], unit: [String] = []) {
            _ = FileManager.default.createFile(atPath: managerEnvironment, contents: Data(manager.map { $0 + "\n" }.joined().utf8))
            _ = FileManager.default.createFile(atPath: unitEnvironment, contents: Data(unit.map { $0 + "\n" }.joined().utf8))
        }

        func stop() { endProcess(process) }

        deinit { endProcess(process) }
    }

    /// Starts alarmd as systemd would (INVOCATION_ID set) with TZ=Asia/Tokyo
    /// and one floating 07:30 alarm.
    static func start(_ manager: FakeManager, _ directory: TemporaryDirectory) throws -> DaemonProcess {
        let daemon = DaemonProcess(directory: directory, environment: [
            "TZ": "Asia/Tokyo", "INVOCATION_ID": "0123456789abcdef0123456789abcdef",
            "DBUS_SESSION_BUS_ADDRESS": manager.bus.address,
        ])
        try daemon.startAndWaitReady()
        try Alarmctl.ok(["add", "7:30", "--label", "Floating"], daemon)
        try Alarmctl.ok(["add", "7:30", "--label", "Pinned", "--tz", "Europe/Berlin"], daemon)
        return daemon
    }

    /// The next firings' instants, as alarmctl reports them, by title.
    static func next(_ daemon: DaemonProcess) throws -> [String: String] {
        let firings = try Alarmctl.json(["next", "--count", "2"], daemon)["firings"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: firings.compactMap { firing in
            (firing["title"] as? String).map { ($0, firing["at"] as? String ?? "") }
        })
    }

    /// Sends SIGHUP and waits for the READY=1 that ends the reload.
    static func reload(_ daemon: DaemonProcess) throws {
        let before = daemon.notify.messages.count
        kill(daemon.process.processIdentifier, SIGHUP)
        guard daemon.notify.wait(for: "READY=1", after: before, timeout: 10) != nil else {
            throw HarnessError(description: "no READY=1 after the reload: \(daemon.standardError)")
        }
    }

    @Test func tzSetInTheManagerMovesFloatingAlarmsOnReload() throws {
        let directory = TemporaryDirectory()
        let manager = try FakeManager(directory: directory)
        let daemon = try Self.start(manager, directory)
        defer { daemon.stop(signal: SIGKILL) }
        #expect(try Self.next(daemon)["Floating"]?.hasSuffix("T07:30:00+09:00") == true)

        // systemctl --user set-environment TZ=America/New_York; systemctl --user reload alarmd
        manager.setEnvironment(manager: ["PATH=/usr/bin", "TZ=America/New_York"])
        try Self.reload(daemon)
        let moved = try Self.next(daemon)
        #expect(moved["Floating"]?.hasSuffix("T07:30:00-05:00") == true, "\(moved)")
        // A pinned alarm stays at 07:30 Berlin time, shown in the new zone.
        #expect(moved["Pinned"]?.hasSuffix("T01:30:00-05:00") == true, "\(moved)")
        let log = DesktopDaemon.waitForLog(daemon) { $0.contains { $0.hasPrefix("Time zone changed from Asia/Tokyo to America/New_York") } }
        #expect(log.contains("Reload: TZ is now America/New_York in the service manager's environment (was Asia/Tokyo)"), "\(log)")
        #expect(manager.output.text.contains("GetUnitByPID"), "\(manager.output.text)")

        // The unit's own Environment= wins over the manager's, as when systemd starts it.
        manager.setEnvironment(manager: ["TZ=America/New_York"], unit: ["TZ=:Europe/Berlin"])
        try Self.reload(daemon)
        #expect(try Self.next(daemon)["Floating"]?.hasSuffix("T07:30:00+01:00") == true)

        // `systemctl --user unset-environment TZ`: back to /etc/localtime.
        manager.setEnvironment(manager: [])
        try Self.reload(daemon)
        let system = try Self.next(daemon)["Floating"] ?? ""
        let zone = SystemZone(environmentTZ: nil).current()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone.identifier))
        let instant = try #require(ISO8601DateFormatter().date(from: system), "\(system)")
        #expect(calendar.dateComponents([.hour, .minute], from: instant) == DateComponents(hour: 7, minute: 30), "\(system) in \(zone.identifier)")
    }

    /// `systemctl --user set-environment LANG=zh_TW.UTF-8` and a reload: the
    /// daemon's language follows (a new alarm from a client that sends no
    /// label is named in it); unset, it goes back.
    @Test(.enabled(if: Locales.unavailableReason == nil, "\(Locales.unavailableReason ?? "")"))
    func theLanguageSetInTheManagerReachesTheDaemonOnReload() throws {
        let directory = TemporaryDirectory()
        let manager = try FakeManager(directory: directory)
        let daemon = DaemonProcess(directory: directory, environment: [
            "LANG": "C.UTF-8", "ALARMD_LOCALEDIR": Locales.directory, "INVOCATION_ID": "0123456789abcdef0123456789abcdef",
            "DBUS_SESSION_BUS_ADDRESS": manager.bus.address,
        ])
        try daemon.startAndWaitReady()
        defer { daemon.stop(signal: SIGKILL) }
        func newLabel() throws -> String? {
            // alarmctl under C sends no label: the daemon's default applies.
            (try Alarmctl.json(["add", "7:30", "--force"], daemon)["alarm"] as? [String: Any])?["label"] as? String
        }
        #expect(try newLabel() == "Alarm")

        manager.setEnvironment(manager: ["PATH=/usr/bin", "LANG=zh_TW.UTF-8"])
        try Self.reload(daemon)
        #expect(try newLabel() == "鬧鐘")
        let log = DesktopDaemon.waitForLog(daemon) { $0.contains { $0.hasPrefix("Reload: notifications now follow") } }
        #expect(log.contains("Reload: notifications now follow LANG=zh_TW.UTF-8"), "\(log)")
        // A label in Chinese is kept as it was made: never translated back.
        #expect(try Alarmctl.ok(["list"], daemon).contains("鬧鐘"))

        manager.setEnvironment(manager: ["PATH=/usr/bin"])
        try Self.reload(daemon)
        #expect(try newLabel() == "Alarm")
    }

    @Test func aManagerThatCannotBeAskedKeepsTheZone() throws {
        let directory = TemporaryDirectory()
        let manager = try FakeManager(directory: directory)
        let daemon = try Self.start(manager, directory)
        defer { daemon.stop(signal: SIGKILL) }
        manager.stop()
        try Self.reload(daemon)
        #expect(try Self.next(daemon)["Floating"]?.hasSuffix("T07:30:00+09:00") == true)
        let log = DesktopDaemon.waitForLog(daemon) { $0.contains { $0.hasPrefix("Reload: cannot ask the service manager for TZ") } }
        #expect(log.contains { $0.hasPrefix("Reload: cannot ask the service manager for TZ") && $0.hasSuffix("keeping TZ=Asia/Tokyo") }, "\(log)")
    }

    /// Started by hand (no INVOCATION_ID), the daemon keeps the TZ it was given
    /// and does not ask anyone.
    @Test func aDaemonStartedByHandKeepsItsTZ() throws {
        let directory = TemporaryDirectory()
        let manager = try FakeManager(directory: directory)
        manager.setEnvironment(manager: ["TZ=America/New_York"])
        let daemon = DaemonProcess(directory: directory, environment: ["TZ": "Asia/Tokyo", "DBUS_SESSION_BUS_ADDRESS": manager.bus.address])
        try daemon.startAndWaitReady()
        defer { daemon.stop(signal: SIGKILL) }
        try Alarmctl.ok(["add", "7:30", "--label", "Floating"], daemon)
        try Self.reload(daemon)
        #expect(try Self.next(daemon)["Floating"]?.hasSuffix("T07:30:00+09:00") == true)
        #expect(!manager.output.text.contains("GetUnitByPID"), "\(manager.output.text)")
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc

// The desktop the Alarms app (`alarms`) is tested on, as a person would use
// it: an Xvfb display, a private session bus, the accessibility bus
// (`at-spi-bus-launcher`), the real `.build/debug/alarms` with
// GTK_A11Y=atspi, and `Tests/AlarmdTests/python/alarms_ui.py`, the AT-SPI
// driver (Debian's /usr/bin/python3 with python3-pyatspi), serving one test
// over its line protocol.

/// Xvfb, a private session bus and the accessibility bus, torn down with the object.
final class AlarmsAppDesktop {
    /// What the tests run; `make test-deps` installs every one (xvfb,
    /// dbus-daemon, at-spi2-core, python3-pyatspi, x11-utils, imagemagick, python3-pil).
    static let programs = ["/usr/bin/Xvfb", "/usr/bin/dbus-daemon", "/usr/bin/dbus-send", "/usr/libexec/at-spi-bus-launcher",
                           "/usr/bin/python3", "/usr/bin/xwininfo", "/usr/bin/import"]

    let directory = TemporaryDirectory()
    private(set) var display = 0
    private var xvfb: Process?
    private var bus: PrivateBus?
    private var launcher: Process?
    private let launcherOutput = PipeCollector()

    var busAddress: String { bus?.address ?? "" }
    var environment: [String: String] { ["DISPLAY": ":\(display)", "DBUS_SESSION_BUS_ADDRESS": busAddress] }

    /// Why the desktop cannot be set up here (a missing program or Python
    /// module, with the package that brings it), or nil.
    static let missing: String? = {
        let absent = programs.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        if !absent.isEmpty {
            return "not installed: \(absent.joined(separator: ", ")) (make test-deps installs xvfb, dbus-daemon, at-spi2-core, x11-utils, imagemagick)"
        }
        let probe = Tool.run("/usr/bin/python3", ["-c", "import gi; gi.require_version('Atspi', '2.0'); import pyatspi, PIL"], timeout: 30)
        if probe.status != 0 {
            return "/usr/bin/python3 cannot import pyatspi and PIL (make test-deps installs python3-pyatspi, gir1.2-atspi-2.0, python3-pil): \(probe.standardError)"
        }
        return nil
    }()

    init(screen: String = "1024x768x24") throws {
        if let missing = Self.missing { throw HarnessError(description: missing) }
        try startDisplay(screen: screen)
        do {
            bus = try PrivateBus(directory: directory.path)
            try startAccessibilityBus()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    private func stop() {
        if let launcher {
            // The launcher's own bus (a dbus-daemon) and the registry it
            // started: the runner's children ignore SIGTERM, so they are
            // killed, deepest first.
            for pid in Self.descendants(of: launcher.processIdentifier).reversed() { kill(pid, SIGKILL) }
            endProcess(launcher)
        }
        launcher = nil
        bus = nil
        if let xvfb {
            endProcess(xvfb)
            let lock = "/tmp/.X\(display)-lock"
            if let owner = try? String(contentsOfFile: lock, encoding: .utf8),
               Int32(owner.trimmingCharacters(in: .whitespacesAndNewlines)) == xvfb.processIdentifier {
                unlink(lock)
                unlink("/tmp/.X11-unix/X\(display)")
            }
        }
        xvfb = nil
    }

    /// Every process under `pid`, parents before their children.
    static func descendants(of pid: pid_t) -> [pid_t] {
        InstallTests.children(of: pid).flatMap { [$0] + descendants(of: $0) }
    }

    private static let displayLock = NSLock()
    nonisolated(unsafe) private static var nextDisplay = 500 + Int(getpid() % 300)

    /// Xvfb on the first free display number (DesktopSession's way, from
    /// another range of numbers).
    private func startDisplay(screen: String) throws {
        for _ in 0..<20 {
            Self.displayLock.lock()
            var number = Self.nextDisplay
            while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
                number += 1
            }
            Self.nextDisplay = number + 1 > 990 ? 500 : number + 1
            Self.displayLock.unlock()

            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
            process.arguments = [":\(number)", "-nolisten", "tcp", "-screen", "0", screen]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            if waitUntil(timeout: 10, { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") || !process.isRunning }), process.isRunning {
                xvfb = process
                display = number
                return
            }
            endProcess(process)
        }
        throw HarnessError(description: "no Xvfb display could be started")
    }

    /// at-spi-bus-launcher on the session bus; ready once it owns org.a11y.Bus
    /// and answers GetAddress (a GTK app asks it for the accessibility bus).
    private func startAccessibilityBus() throws {
        let launcher = Process()
        launcher.executableURL = URL(fileURLWithPath: "/usr/libexec/at-spi-bus-launcher")
        launcher.arguments = ["--launch-immediately"]
        launcher.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_RUNTIME_DIR": directory.path,
                                "LANG": "C.UTF-8"].merging(environment) { $1 }
        launcher.standardOutput = launcherOutput.pipe
        launcher.standardError = launcherOutput.pipe
        launcher.standardInput = FileHandle.nullDevice
        try launcher.run()
        self.launcher = launcher
        let ready = waitUntil(timeout: 15) {
            guard launcher.isRunning else { return true }
            let reply = Tool.run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress"],
                                 environment: environment, timeout: 5)
            return reply.status == 0 && reply.standardOutput.contains("unix:")
        }
        guard ready, launcher.isRunning else {
            throw HarnessError(description: "at-spi-bus-launcher did not offer the accessibility bus: \(launcherOutput.text)")
        }
    }
}

/// The real `alarms` app on a desktop, talking to `daemon`'s socket (found
/// the default way, `$XDG_RUNTIME_DIR/alarmd/io.alarmd`).
final class AlarmsAppProcess {
    static let executable = productsDirectory + "/alarms"
    let process = Process()
    private let output = PipeCollector()
    let home: TemporaryDirectory

    /// `size` is the window's size, given the app's own way: the state file
    /// it reads at start (`$XDG_STATE_HOME/alarms/window.ini`).
    init(desktop: AlarmsAppDesktop, runtimeDirectory: String, language: String = "C.UTF-8", size: (Int, Int)? = nil,
         environment extra: [String: String] = [:]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw HarnessError(description: "\(Self.executable) is not built: swift build --product alarms")
        }
        home = TemporaryDirectory()
        if let (width, height) = size {
            try FileManager.default.createDirectory(atPath: home.path + "/state/alarms", withIntermediateDirectories: true)
            try "[window]\nwidth=\(width)\nheight=\(height)\nmaximized=false\n"
                .write(toFile: home.path + "/state/alarms/window.ini", atomically: true, encoding: .utf8)
        }
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_STATE_HOME": home.path + "/state", "XDG_CONFIG_HOME": home.path + "/config",
            "XDG_DATA_HOME": home.path + "/data", "XDG_CACHE_HOME": home.path + "/cache", "XDG_RUNTIME_DIR": runtimeDirectory,
            "LANG": language, "LANGUAGE": "", "ALARMD_LOCALEDIR": Locales.directory, "TZ": "UTC",
            "GTK_A11Y": "atspi", "GDK_BACKEND": "x11", "GSETTINGS_BACKEND": "memory",
            // A GLib critical (a reference released twice, a wrong type
            // passed) stops the app, so the test that caused it fails.
            "G_DEBUG": "fatal-criticals",
        ].merging(desktop.environment) { $1 }.merging(extra) { $1 }
        process.standardOutput = output.pipe
        process.standardError = output.pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit { endProcess(process) }

    /// What the app wrote, without GTK 4.8's "Screen coordinates not
    /// supported" warnings (an AT-SPI client asking for screen coordinates).
    var log: String {
        output.text.split(separator: "\n", omittingEmptySubsequences: true)
            .filter { !$0.contains("Screen coordinates not supported") }.joined(separator: "\n")
    }

    var isRunning: Bool { process.isRunning }
}

/// `alarms_ui.py --serve`: one Python process answering a test's commands,
/// a JSON array per line in, a JSON object per line out.
final class AlarmsUI {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/python/alarms_ui.py"

    private let process = Process()
    private let input = Pipe()
    private let output = PipeCollector()
    private let errors = PipeCollector()
    private var answered = 0
    private weak var app: AlarmsAppProcess?

    init(desktop: AlarmsAppDesktop, app: AlarmsAppProcess) throws {
        self.app = app
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, "--pid", String(app.process.processIdentifier), "--serve"]
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": desktop.directory.path].merging(desktop.environment) { $1 }
        process.standardInput = input
        process.standardOutput = output.pipe
        process.standardError = errors.pipe
        try process.run()
        // The app on the accessibility bus, with its window.
        try send("ping")
    }

    deinit {
        try? input.fileHandleForWriting.write(contentsOf: Data("[\"quit\"]\n".utf8))
        try? input.fileHandleForWriting.close()
        if !waitUntil(timeout: 2, { !process.isRunning }) { endProcess(process) }
        process.waitUntilExit()
    }

    /// Sends one command and returns its value; a failure throws the
    /// driver's message (what it waited for, and the app's tree), with the
    /// app's own output.
    @discardableResult
    func send(_ words: String..., timeout: TimeInterval = 40) throws -> Any? {
        try send(words, timeout: timeout)
    }

    @discardableResult
    func send(_ words: [String], timeout: TimeInterval = 40) throws -> Any? {
        let started = Date()
        defer {
            let seconds = Date().timeIntervalSince(started)
            if seconds > 2 { print("AlarmsUI: \(words.joined(separator: " ")) took \(String(format: "%.1f", seconds)) s") }
        }
        let line = try JSONSerialization.data(withJSONObject: words) + Data("\n".utf8)
        try input.fileHandleForWriting.write(contentsOf: line)
        var reply: String?
        _ = waitUntil(timeout: timeout) {
            let lines = output.text.split(separator: "\n", omittingEmptySubsequences: true)
            if lines.count > answered, output.text.hasSuffix("\n") || lines.count > answered + 1 {
                reply = String(lines[answered])
                return true
            }
            return !process.isRunning
        }
        guard let reply else {
            throw HarnessError(description: "alarms_ui.py gave no answer to \(words) in \(timeout) s (running: \(process.isRunning)); its stderr: \(errors.text)\n\(appLog)")
        }
        answered += 1
        guard let object = try JSONSerialization.jsonObject(with: Data(reply.utf8), options: [.fragmentsAllowed]) as? [String: Any] else {
            throw HarnessError(description: "alarms_ui.py answered \(words) with \(reply)")
        }
        if object["ok"] as? Bool == true { return object["value"] }
        throw HarnessError(description: "\(words.joined(separator: " ")): \(object["error"] as? String ?? reply)\n\(appLog)")
    }

    private var appLog: String {
        guard let app else { return "" }
        return "The app (running: \(app.isRunning)) wrote:\n" + String(app.log.suffix(4000))
    }

    // The commands, typed.

    @discardableResult
    func wait(_ role: String, _ name: String, timeout: TimeInterval? = nil) throws -> [String: Any] {
        try send(["wait", role, name] + (timeout.map { [String($0)] } ?? [])) as? [String: Any] ?? [:]
    }

    func gone(_ role: String, _ name: String, timeout: TimeInterval? = nil) throws {
        try send(["gone", role, name] + (timeout.map { [String($0)] } ?? []))
    }

    func exists(_ role: String, _ name: String) throws -> Bool { try send("exists", role, name) as? Bool ?? false }
    func click(_ role: String, _ name: String) throws { try send("click", role, name) }
    func toggle(_ role: String, _ name: String) throws { try send("toggle", role, name) }
    func states(_ role: String, _ name: String) throws -> [String] { try send("states", role, name) as? [String] ?? [] }
    func waitState(_ role: String, _ name: String, _ state: String, on: Bool = true) throws {
        try send("wait-state", role, name, state, on ? "on" : "off")
    }
    func setValue(_ role: String, _ name: String, _ value: Double) throws { try send("set-value", role, name, String(value)) }
    func setText(_ role: String, _ name: String, _ text: String) throws { try send("set-text", role, name, text) }
    func names(_ role: String) throws -> [String] { try send("names", role) as? [String] ?? [] }
    func rowLabels(_ role: String, _ name: String) throws -> [String] { try send("row-labels", role, name) as? [String] ?? [] }
    func labels() throws -> [String] { try send("labels") as? [String] ?? [] }
    func waitWindow(_ name: String) throws { try send("wait-window", name) }
    func windowGone(_ name: String) throws { try send("window-gone", name) }
    func layout(_ window: String) throws -> [String: Any] { try send("layout", window) as? [String: Any] ?? [:] }
    func shot(_ window: String, to path: String) throws -> [String: Any] { try send("shot", window, path) as? [String: Any] ?? [:] }
    func tree() throws -> String { try send("tree") as? String ?? "" }

    /// Waits until `condition` holds of the on-screen labels (polled in
    /// Swift, for conditions the driver has no command for).
    @discardableResult
    func waitLabels(timeout: TimeInterval = 10, _ condition: ([String]) -> Bool) throws -> [String] {
        var last: [String] = []
        let held = try waitUntil(timeout: timeout) {
            last = try labels()
            return condition(last)
        }
        guard held else { throw HarnessError(description: "the labels never satisfied the condition; last seen: \(last)\n\(try tree())") }
        return last
    }
}

/// One test's world: its own alarmd on private directories, a desktop, the
/// app and the driver. The daemon can be stopped and started again on the
/// same directories.
final class AlarmsAppWorld {
    let directory = TemporaryDirectory()
    private(set) var daemon: DaemonProcess?
    let desktop: AlarmsAppDesktop
    private(set) var app: AlarmsAppProcess!
    private(set) var ui: AlarmsUI!
    let daemonEnvironment: [String: String]

    var runtimeDirectory: String { directory.path + "/runtime" }

    init(language: String = "C.UTF-8", daemonLanguage: String = "C.UTF-8", size: (Int, Int)? = nil,
         before: (DaemonProcess) throws -> Void = { _ in }) throws {
        daemonEnvironment = ["LANG": daemonLanguage, "ALARMD_LOCALEDIR": Locales.directory,
                             "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.path)/no-bus"]
        desktop = try AlarmsAppDesktop()
        try startDaemon()
        try before(daemon!)
        app = try AlarmsAppProcess(desktop: desktop, runtimeDirectory: runtimeDirectory, language: language, size: size)
        ui = try AlarmsUI(desktop: desktop, app: app)
    }

    func startDaemon() throws {
        daemon = nil  // the old one's notify socket goes first
        let daemon = DaemonProcess(directory: directory, environment: daemonEnvironment)
        try daemon.startAndWaitReady()
        self.daemon = daemon
    }

    func stopDaemon() {
        daemon?.stop(signal: SIGTERM)
    }

    /// `alarmctl ARGUMENTS --json` against this world's daemon.
    func alarmctl(_ arguments: [String]) throws -> [String: Any] {
        guard let daemon else { throw HarnessError(description: "no daemon") }
        return try Alarmctl.json(arguments, daemon)
    }

    func alarms() throws -> [[String: Any]] { try alarmctl(["list"])["alarms"] as? [[String: Any]] ?? [] }
    func reminders() throws -> [[String: Any]] { try alarmctl(["remind", "list", "--all"])["reminders"] as? [[String: Any]] ?? [] }

    deinit {
        ui = nil
        app = nil
        daemon?.stop()
    }
}

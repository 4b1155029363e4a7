// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SystemCalls

// The desktop the daemon rings on, built from real parts for each test: an
// `Xvfb` display, a private session bus (`dbus-daemon`), the `dunst`
// notification server with a private configuration, and `dbus-monitor`
// recording every call to `org.freedesktop.Notifications`. Tests read the
// exact Notify arguments from the monitor and dunst's own view with `dunstctl`.

/// Runs a program to completion and returns its status and output.
enum Tool {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    static func run(_ path: String, _ arguments: [String], environment: [String: String] = [:], timeout: TimeInterval = 10) -> Result {
        let out = Pipe()
        let err = Pipe()
        let process: Process
        do {
            process = try startProcess(path, arguments, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"].merging(environment) { $1 },
                                       output: out, errors: err)
        } catch {
            return Result(status: -1, standardOutput: "", standardError: "cannot run \(path): \(error)")
        }
        // A program that hangs is killed, which ends its output too.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let (outData, errorData) = readToEnd(out, err)
        process.waitUntilExit()
        watchdog.cancel()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
    }
}

/// Starts `path` with `arguments` and `environment` (the test runner's when
/// `nil`), reading from /dev/null and writing to `output` and `errors`
/// (/dev/null unless given). The caller ends it.
func startProcess(_ path: String, _ arguments: [String], environment: [String: String]? = nil,
                  output: Any = FileHandle.nullDevice, errors: Any = FileHandle.nullDevice) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return process
}

/// Writes an executable file in one go, with a close-on-exec descriptor, so no
/// child forked meanwhile keeps it open for writing (which would make running it
/// fail with ETXTBSY).
func writeExecutable(_ path: String, _ text: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    precondition(fd >= 0, "open \(path): \(String(cString: strerror(errno)))")
    let bytes = Array(text.utf8)
    precondition(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
    close(fd)
    chmod(path, 0o755)
}

/// Ends a child and reaps it. SIGKILL by default: children started through
/// `Process` inherit the test runner's blocked signal mask, SIGTERM included,
/// so a polite SIGTERM would just wait for the timeout.
func endProcess(_ process: Process?, signal: Int32 = SIGKILL, timeout: TimeInterval = 3) {
    guard let process else { return }
    if process.isRunning {
        kill(process.processIdentifier, signal)
        if !waitUntil(timeout: timeout, { !process.isRunning }) {
            kill(process.processIdentifier, SIGKILL)
        }
    }
    if process.processIdentifier > 0 { process.waitUntilExit() }
}

/// Whether a process is still alive (a zombie nobody reaped counts as gone).
func processIsAlive(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(after: close)...].split(separator: " ").first
    return state != "Z" && state != "X"
}

/// One `Notify` call as `dbus-monitor` saw it.
struct NotifyCall: CustomStringConvertible {
    var sender: String
    var serial: Int
    var appName: String
    var replacesID: UInt32
    var icon: String
    var summary: String
    var body: String
    /// Flat, as on the wire: key, label, key, label…
    var actions: [String]
    /// Hint values as text: `byte 2` → "2", `boolean true` → "true", strings unquoted.
    var hints: [String: String]
    var expireTimeout: Int32
    /// The id the server returned, once its reply was seen.
    var id: UInt32?
    /// When the monitor saw the call, in seconds since the epoch.
    var time: Double?

    /// Actions as (key, label) pairs.
    var actionPairs: [(String, String)] {
        stride(from: 0, to: actions.count - 1, by: 2).map { (actions[$0], actions[$0 + 1]) }
    }

    var description: String { "Notify(\(summary) | \(body) | \(actions) | \(hints) | id \(id.map(String.init) ?? "?"))" }
}

/// One message of `dbus-monitor`'s text output: its header and body lines.
struct MonitoredMessage {
    var type: String
    var header: [String: String]
    var body: [String]

    var member: String? { header["member"] }

    /// Body lines parsed one per value (`uint32 3` → "3", `string "x"` → "x").
    var values: [String] { body.map(MonitoredMessage.value(of:)) }

    static func value(of line: String) -> String {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("string \""), trimmed.hasSuffix("\""), trimmed.count >= 9 {
            return String(trimmed.dropFirst(8).dropLast())
        }
        if let space = trimmed.firstIndex(of: " ") { return String(trimmed[trimmed.index(after: space)...]).trimmingCharacters(in: .whitespaces) }
        return trimmed
    }

    /// Splits the monitor's output into messages.
    static func parse(_ text: String) -> [MonitoredMessage] {
        var messages: [MonitoredMessage] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if line.first == " " {
                if !messages.isEmpty { messages[messages.count - 1].body.append(line) }
                continue
            }
            let kinds = ["method call", "method return", "signal", "error"]
            guard let kind = kinds.first(where: { line.hasPrefix($0 + " ") }) else { continue }
            var header: [String: String] = [:]
            for field in line.dropFirst(kind.count).split(whereSeparator: { $0 == " " || $0 == ";" }) {
                guard let equals = field.firstIndex(of: "=") else { continue }
                header[String(field[..<equals])] = String(field[field.index(after: equals)...])
            }
            messages.append(MonitoredMessage(type: kind, header: header, body: []))
        }
        return messages
    }

    /// A Notify call's arguments, or nil when the body is not one.
    func notifyCall() -> NotifyCall? {
        let lines = body.map { $0.trimmingCharacters(in: .whitespaces) }
        var index = 0
        func next() -> String? {
            guard index < lines.count else { return nil }
            defer { index += 1 }
            return lines[index]
        }
        func string() -> String? { next().map(MonitoredMessage.value(of:)) }
        guard let app = string(), let replaces = string().flatMap({ UInt32($0) }), let icon = string(),
              let summary = string(), let bodyText = string(), next() == "array [" else { return nil }
        var actions: [String] = []
        while let line = next(), line != "]" { actions.append(MonitoredMessage.value(of: line)) }
        guard next() == "array [" else { return nil }
        var hints: [String: String] = [:]
        while let line = next(), line != "]" {
            guard line == "dict entry(", let key = string(), let variant = next(), variant.hasPrefix("variant") else { continue }
            hints[key] = MonitoredMessage.value(of: String(variant.dropFirst("variant".count)))
            _ = next()  // ")"
        }
        guard let timeout = string().flatMap({ Int32($0) }) else { return nil }
        return NotifyCall(sender: header["sender"] ?? "", serial: Int(header["serial"] ?? "") ?? -1, appName: app, replacesID: replaces,
                          icon: icon, summary: summary, body: bodyText, actions: actions, hints: hints, expireTimeout: timeout,
                          time: header["time"].flatMap(Double.init))
    }
}

/// Xvfb, a private session bus, dunst and dbus-monitor, torn down with the object.
final class DesktopSession: @unchecked Sendable {
    static let programs = ["/usr/bin/Xvfb", "/usr/bin/dbus-daemon", "/usr/bin/dbus-monitor", "/usr/bin/dbus-send", "/usr/bin/dunst", "/usr/bin/dunstctl"]

    /// Why desktop tests cannot run here, or nil. As root (CI, `make test`) the
    /// programs are required (`make test-deps` installs them), so a missing one
    /// fails the test instead of skipping it.
    static let unavailableReason: String? = {
        let missing = programs.filter { !FileManager.default.isExecutableFile(atPath: $0) }
        guard !missing.isEmpty, getuid() != 0 else { return nil }
        return "not installed: \(missing.joined(separator: ", ")) (apt-get install xvfb dbus-daemon dbus-bin dunst, or make test-deps as root)"
    }()

    static var isAvailable: Bool { unavailableReason == nil }

    let directory = TemporaryDirectory()
    private(set) var display = 0
    private var xvfb: Process?
    private var bus: Process?
    private var dunst: Process?
    private var monitor: Process?
    private var busErrors = PipeCollector()
    private var dunstOutput = PipeCollector()
    /// Every monitor's output, oldest first (a new monitor starts with each bus).
    private var monitorOutputs: [PipeCollector] = []
    private let lock = NSLock()

    var busPath: String { directory.path + "/bus" }
    var busAddress: String { "unix:path=" + busPath }
    /// What a client of this desktop needs.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": busAddress, "DISPLAY": ":\(display)"] }
    var dmenuLog: String { directory.path + "/menu.txt" }
    var dunstLog: String { dunstOutput.text }

    init() throws {
        for program in Self.programs where !FileManager.default.isExecutableFile(atPath: program) {
            throw HarnessError(description: "\(program) is not installed; make test-deps installs it")
        }
        writeConfiguration()
        try startDisplay()
        do { try startBus() } catch {
            stopBus()
            stopDisplay()
            throw error
        }
    }

    deinit {
        stopBus()
        stopDisplay()
    }

    /// Kills Xvfb and removes the socket and lock file it could not remove itself.
    private func stopDisplay() {
        guard let xvfb else { return }
        endProcess(xvfb)
        let lock = "/tmp/.X\(display)-lock"
        if let owner = try? String(contentsOfFile: lock, encoding: .utf8), Int32(owner.trimmingCharacters(in: .whitespacesAndNewlines)) == xvfb.processIdentifier {
            unlink(lock)
            unlink("/tmp/.X11-unix/X\(display)")
        }
        self.xvfb = nil
    }

    private func writeConfiguration() {
        let dir = directory.path
        // dunst's context menu runs this instead of dmenu: it records the menu and
        // answers with the first line containing the text in `pick`.
        writeExecutable(dir + "/dmenu.sh", """
            #!/bin/sh
            cat > '\(dir)/menu.tmp'
            mv '\(dir)/menu.tmp' '\(dir)/menu.txt'
            grep -m1 -F -- "$(cat '\(dir)/pick' 2>/dev/null)" '\(dir)/menu.txt'
            exit 0

            """)
        let dunstrc = """
            [global]
                dmenu = \(dir)/dmenu.sh
                browser = /bin/true
                font = Monospace 8
                markup = full
                format = "<b>%s</b>\\n%b"
                notification_limit = 0
                stack_duplicates = false
                history_length = 100
                sticky_history = yes
                show_age_threshold = -1
                ignore_dbusclose = false
                mouse_left_click = close_current
            [urgency_low]
                timeout = 0
            [urgency_normal]
                timeout = 0
            [urgency_critical]
                timeout = 0

            """
        precondition(FileManager.default.createFile(atPath: dir + "/dunstrc", contents: Data(dunstrc.utf8)))
        PrivateBus.writeConfiguration(to: dir + "/bus.conf", address: busAddress)
    }

    private static let displayLock = NSLock()
    nonisolated(unsafe) private static var nextDisplay = 40 + Int(getpid() % 400)

    /// Xvfb on the first free display number: no socket and no lock file; a
    /// display taken meanwhile by someone else makes Xvfb exit, and the next is tried.
    private func startDisplay() throws {
        for _ in 0..<20 {
            Self.displayLock.lock()
            var number = Self.nextDisplay
            while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock") {
                number += 1
            }
            Self.nextDisplay = number + 1
            if Self.nextDisplay > 900 { Self.nextDisplay = 40 }
            Self.displayLock.unlock()

            let process = try startProcess("/usr/bin/Xvfb", [":\(number)", "-nolisten", "tcp", "-screen", "0", "800x600x24"])
            let socket = "/tmp/.X11-unix/X\(number)"
            if waitUntil(timeout: 10, { FileManager.default.fileExists(atPath: socket) || !process.isRunning }), process.isRunning {
                xvfb = process
                display = number
                return
            }
            endProcess(process)
        }
        throw HarnessError(description: "no Xvfb display could be started")
    }

    /// Starts the session bus on `busPath` (the same path every time), then
    /// dbus-monitor and dunst, and waits until dunst owns the Notifications name.
    func startBus() throws {
        unlink(busPath)
        busErrors = PipeCollector()
        let bus = try startProcess("/usr/bin/dbus-daemon",
                                   ["--config-file=\(directory.path)/bus.conf", "--nofork", "--address=\(busAddress)", "--print-address"],
                                   errors: busErrors.pipe)
        self.bus = bus
        guard waitUntil(timeout: 10, { FileManager.default.fileExists(atPath: busPath) || !bus.isRunning }), bus.isRunning else {
            throw HarnessError(description: "dbus-daemon did not start: \(busErrors.text)")
        }

        let output = PipeCollector()
        monitor = try startProcess("/usr/bin/dbus-monitor",
                                   ["--address", busAddress, "--monitor",
                                    "interface='org.freedesktop.Notifications'",
                                    "type='method_return'",
                                    "type='signal',member='NameOwnerChanged',arg0='org.freedesktop.Notifications'"],
                                   output: output.pipe)
        lock.lock()
        monitorOutputs.append(output)
        lock.unlock()
        // Once a monitor, it is told it lost its unique name.
        guard waitUntil(timeout: 30, { output.text.contains("member=NameLost") }) else {
            throw HarnessError(description: "dbus-monitor did not become a monitor: \(output.text)")
        }

        try startDunst()
    }

    /// Starts dunst and waits until it owns the Notifications name.
    private func startDunst() throws {
        dunstOutput = PipeCollector()
        let dunst = try startProcess("/usr/bin/dunst", ["-config", directory.path + "/dunstrc"],
                                     environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_CONFIG_HOME": directory.path + "/config",
                                                   "XDG_DATA_HOME": directory.path + "/data", "LANG": "C.UTF-8"].merging(environment) { $1 },
                                     output: dunstOutput.pipe, errors: dunstOutput.pipe)
        self.dunst = dunst
        guard waitUntil(timeout: 10, { notificationsOwned() || !dunst.isRunning }), dunst.isRunning else {
            throw HarnessError(description: "dunst did not take org.freedesktop.Notifications: \(dunstOutput.text)")
        }
    }

    /// Kills dunst, the monitor and the bus (the daemon's connection breaks).
    func stopBus() {
        endProcess(dunst)
        endProcess(monitor)
        endProcess(bus)
        dunst = nil
        monitor = nil
        bus = nil
    }

    /// Kills dunst and starts a new one on the same bus: the bus connection
    /// stays, and the new server numbers its notifications from 1 again.
    func restartNotificationServer() throws {
        endProcess(dunst)
        dunst = nil
        guard waitUntil(timeout: 10, { !notificationsOwned() }) else { throw HarnessError(description: "dunst's name outlived it") }
        try startDunst()
    }

    var busIsRunning: Bool { bus?.isRunning == true }

    func notificationsOwned() -> Bool {
        let result = Tool.run("/usr/bin/dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                      "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.Notifications"],
                              environment: environment, timeout: 5)
        return result.status == 0 && result.standardOutput.contains("boolean true")
    }

    // MARK: dunst

    @discardableResult
    func dunstctl(_ arguments: [String]) -> Tool.Result {
        Tool.run("/usr/bin/dunstctl", arguments, environment: environment)
    }

    /// `dunstctl count displayed`, or -1 when dunst does not answer.
    var displayedCount: Int {
        Int(dunstctl(["count", "displayed"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// `dunstctl history`: closed notifications, newest first, each field unwrapped.
    func history() -> [[String: Any]] {
        let text = dunstctl(["history"]).standardOutput
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let data = object["data"] as? [[Any]], let list = data.first as? [[String: Any]] else { return [] }
        return list.map { entry in entry.compactMapValues { ($0 as? [String: Any])?["data"] } }
    }

    /// Opens dunst's context menu (as a person would) and chooses the action
    /// `key` of notification `id`; returns the menu lines dunst offered.
    @discardableResult
    func chooseAction(_ key: String, notification id: UInt32) throws -> [String] {
        try "[\(id),\(key)]".write(toFile: directory.path + "/pick", atomically: true, encoding: .utf8)
        unlink(dmenuLog)
        let result = dunstctl(["context"])
        guard result.status == 0 else { throw HarnessError(description: "dunstctl context: \(result.standardError)") }
        guard waitUntil(timeout: 5, { FileManager.default.fileExists(atPath: dmenuLog) }) else {
            throw HarnessError(description: "dunst did not open its context menu; dunst said: \(dunstLog)")
        }
        let menu = (try? String(contentsOfFile: dmenuLog, encoding: .utf8)) ?? ""
        return menu.split(separator: "\n").map(String.init)
    }

    // MARK: what the monitor saw

    var monitorText: String {
        lock.lock()
        defer { lock.unlock() }
        return monitorOutputs.map(\.text).joined(separator: "\n")
    }

    /// Every message seen, all buses in order.
    var messages: [MonitoredMessage] {
        lock.lock()
        let texts = monitorOutputs.map(\.text)
        lock.unlock()
        return texts.flatMap { MonitoredMessage.parse($0) }
    }

    /// Every Notify call, with the id dunst returned where its reply was seen.
    var notifyCalls: [NotifyCall] {
        lock.lock()
        let texts = monitorOutputs.map(\.text)
        lock.unlock()
        // Serials are per connection and per bus: pair calls and replies within one monitor's output.
        return texts.flatMap { text -> [NotifyCall] in
            let messages = MonitoredMessage.parse(text)
            return messages.filter { $0.type == "method call" && $0.member == "Notify" }.compactMap { message in
                guard var call = message.notifyCall() else { return nil }
                let reply = messages.first {
                    $0.type == "method return" && $0.header["destination"] == call.sender && Int($0.header["reply_serial"] ?? "") == call.serial
                }
                call.id = reply?.values.first.flatMap { UInt32($0) }
                return call
            }
        }
    }

    /// When the Notifications name was taken, as the monitor's `time=` (seconds
    /// since the epoch), oldest first.
    var notificationServerStarts: [Double] {
        messages.filter { $0.type == "signal" && $0.member == "NameOwnerChanged" && $0.values.count == 3 && !$0.values[2].isEmpty }
            .compactMap { $0.header["time"].flatMap(Double.init) }
    }

    /// Ids passed to CloseNotification.
    var closeCalls: [UInt32] {
        messages.filter { $0.type == "method call" && $0.member == "CloseNotification" }.compactMap { $0.values.first.flatMap { UInt32($0) } }
    }

    /// NotificationClosed signals as (id, reason).
    var closedSignals: [(id: UInt32, reason: UInt32)] {
        messages.filter { $0.type == "signal" && $0.member == "NotificationClosed" }.compactMap { message in
            let values = message.values
            guard values.count >= 2, let id = UInt32(values[0]), let reason = UInt32(values[1]) else { return nil }
            return (id, reason)
        }
    }

    /// Waits for the `count`th Notify call (from 1) with `summary` whose reply
    /// was seen.
    func waitForNotify(summary: String, number count: Int, timeout: TimeInterval = 10) -> NotifyCall? {
        var found: NotifyCall?
        _ = waitUntil(timeout: timeout) {
            found = notifyCalls.filter { $0.summary == summary && $0.id != nil }.dropFirst(count - 1).first
            return found != nil
        }
        return found
    }

    /// Waits for a Notify call with `summary` whose reply was seen (so it has its id).
    func waitForNotify(summary: String, timeout: TimeInterval = 10) -> NotifyCall? {
        var found: NotifyCall?
        _ = waitUntil(timeout: timeout) {
            found = notifyCalls.first { $0.summary == summary && $0.id != nil }
            return found != nil
        }
        return found
    }
}

/// Daemon-side helpers shared by the desktop tests.
enum DesktopDaemon {
    /// A player that records each start (`start PID ARGS… TIME`), "plays" for
    /// `seconds` in a child (`child PID`), and records `stop PID TIME` when
    /// terminated; times are seconds since the epoch. The default play is
    /// longer than `SoundLoop.minimumInterval`, so the loop restarts it at once
    /// and a stop almost always finds it running (and logging `stop`).
    static func writeRecordingPlayer(in directory: String, seconds: String = "1") -> (script: String, log: String) {
        let script = directory + "/player.sh"
        let log = directory + "/player.log"
        writeExecutable(script, """
            #!/bin/sh
            log='\(log)'
            trap 'echo "stop $$ $(date +%s.%N)" >> "$log"; exit 0' TERM
            echo "start $$ $* $(date +%s.%N)" >> "$log"
            sleep \(seconds) &
            echo "child $!" >> "$log"
            wait $!
            exit 0

            """)
        return (script, log)
    }

    /// The player log's lines, split into words.
    static func playerLog(_ path: String) -> [[String]] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }

    /// A daemon with `config`, talking to `desktop` when given. Journal
    /// availability is settled first, so the daemon logs where the test reads.
    static func start(config: String, desktop: DesktopSession?, directory: TemporaryDirectory = TemporaryDirectory(),
                      environment: [String: String] = [:]) throws -> DaemonProcess {
        _ = JournalFixture.isAvailable
        var env = desktop?.environment ?? ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.path)/no-bus"]
        env.merge(environment) { $1 }
        let daemon = DaemonProcess(directory: directory, config: config, environment: env)
        try daemon.startAndWaitReady()
        return daemon
    }

    /// What the daemon logged (about item `itemID`, when given): its journal
    /// messages, or the same read from its standard error where there is no journal.
    static func log(_ daemon: DaemonProcess, itemID: String? = nil) -> [String] {
        if JournalFixture.isAvailable {
            let item = itemID.map { ["ALARMD_ITEM_ID=\($0)"] } ?? []
            return JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd"] + item, of: daemon).compactMap { $0["MESSAGE"] }
        }
        return daemon.standardError.split(separator: "\n").compactMap { line in
            guard let entry = stderrEntry(String(line)) else { return nil }
            if let itemID, !entry.fields.contains("ALARMD_ITEM_ID=\(itemID)") { return nil }
            return entry.message
        }
    }

    /// A journal line as alarmd writes it to standard error without a journal:
    /// `alarmd[PID] <PRIORITY> MESSAGE  [FIELD=value …]`.
    static func stderrEntry(_ line: String) -> (message: String, fields: String)? {
        guard line.hasPrefix("alarmd["), let open = line.range(of: "> ") else { return nil }
        var message = String(line[open.upperBound...])
        var fields = ""
        if message.hasSuffix("]"), let start = message.range(of: "  [ALARMD_", options: .backwards) {
            fields = String(message[message.index(start.lowerBound, offsetBy: 3)..<message.index(before: message.endIndex)])
            message = String(message[..<start.lowerBound])
        }
        return (message, fields)
    }

    /// Waits until the daemon's log satisfies `condition`; the log as last read.
    @discardableResult
    static func waitForLog(_ daemon: DaemonProcess, timeout: TimeInterval = 10, _ condition: ([String]) -> Bool) -> [String] {
        var lines: [String] = []
        _ = waitUntil(timeout: timeout) {
            lines = log(daemon)
            return condition(lines)
        }
        return lines
    }

    /// Adds a reminder due in `seconds` through `alarmctl`; its id.
    static func remind(_ title: String, in seconds: Int, _ daemon: DaemonProcess, extra: [String] = []) throws -> String {
        let reply = try Alarmctl.json(["remind", "add", title, "--in", "\(seconds)s"] + extra, daemon)
        guard let id = (reply["reminder"] as? [String: Any])?["id"] as? String else {
            throw HarnessError(description: "no reminder id in \(reply)")
        }
        return id
    }

    /// Waits until `id` is ringing.
    static func waitRinging(_ id: String, _ daemon: DaemonProcess, timeout: TimeInterval = 10) throws -> Bool {
        try waitUntil(timeout: timeout) {
            (try Alarmctl.json(["status"], daemon)["ringing"] as? [String] ?? []).contains(id)
        }
    }

    /// A reminder's phase as `remind show --json` reports it.
    /// A wire instant (RFC 3339, with or without fractional seconds).
    static func instant(_ text: String) -> Date? {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return ISO8601DateFormatter().date(from: text) ?? fractional.date(from: text)
    }

    static func phase(_ id: String, _ daemon: DaemonProcess) throws -> String? {
        (try Alarmctl.json(["remind", "show", id], daemon)["reminder"] as? [String: Any])?["phase"] as? String
    }
}

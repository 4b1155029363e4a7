// SPDX-License-Identifier: Apache-2.0
// The shared test helpers (TemporaryDirectory, the store fixtures, SplitMix64)
// for every file of this target, without an import in each.
@_exported import AlarmTestSupport
import Foundation
import Glibc

/// The directory holding the package's built products (the test runner is one).
let productsDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path

/// Polls `condition` every `interval` seconds (10 ms) until it holds or `timeout` passes.
func waitUntil(timeout: TimeInterval, interval: TimeInterval = 0.01, _ condition: () throws -> Bool) rethrows -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if try condition() { return true }
        usleep(useconds_t(interval * 1_000_000))
    }
    return try condition()
}

/// A `NOTIFY_SOCKET` for the daemon under test: a datagram socket that records
/// every sd_notify message it receives.
final class NotifyListener: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private let lock = NSLock()
    private var received: [String] = []
    private var thread: Thread?

    init(directory: String) {
        path = directory + "/notify.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.fd = fd
        let bound = withUnixAddress(path) { bind(fd, $0, $1) }
        precondition(bound == 0, "bind \(path): \(errno)")
        thread = Thread { [weak self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
                guard let self else { return }
                let message = String(decoding: buffer[0..<count], as: UTF8.self)
                self.lock.lock()
                self.received.append(message)
                self.lock.unlock()
            }
        }
        thread?.start()
    }

    deinit {
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        unlink(path)
    }

    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Waits for a message containing `needle`, returning it.
    func wait(for needle: String, after index: Int = 0, timeout: TimeInterval = 10) -> (index: Int, message: String)? {
        var found: (Int, String)?
        _ = waitUntil(timeout: timeout) {
            let all = messages
            if let hit = all.indices.dropFirst(index).first(where: { all[$0].contains(needle) }) { found = (hit, all[hit]) }
            return found != nil
        }
        return found
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
}

/// Collects what a child process writes to a pipe, as it arrives: a thread
/// of its own reads a copy of the read end until end of file, then closes it.
///
/// Not with `FileHandle.readabilityHandler`. That installs a Dispatch read
/// source on a `dup` of the descriptor, and installing and tearing such
/// sources down from many tests at once corrupts libdispatch's epoll
/// bookkeeping on Linux (swift-corelibs-libdispatch#949): the test process
/// crashed in `_dispatch_event_loop_drain` on a freed registration, as a CI
/// run did while dozens of tests spawned `systemd-analyze` and daemons in
/// parallel. The thread holds neither the collector nor the pipe, so it ends
/// when every write end is closed: the child's at its exit (Process closes
/// the parent's after launching it), the pipe's own when the collector goes.
final class PipeCollector: @unchecked Sendable {
    let pipe = Pipe()
    private let collected = Collected()

    init() {
        let fd = fcntl(pipe.fileHandleForReading.fileDescriptor, F_DUPFD_CLOEXEC, 0)
        precondition(fd >= 0, "cannot copy a pipe's descriptor: \(String(cString: strerror(errno)))")
        let collected = collected
        let reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count > 0 {
                    collected.append(buffer[0..<count])
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            close(fd)
        }
        reader.name = "test.pipe-reader"
        reader.start()
    }

    var text: String { collected.text }

    private final class Collected: @unchecked Sendable {
        private var data = Data()
        private let lock = NSLock()

        func append(_ bytes: ArraySlice<UInt8>) {
            lock.lock()
            data.append(contentsOf: bytes)
            lock.unlock()
        }

        var text: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// A real alarmd process with its own state, config and runtime directories.
final class DaemonProcess {
    let process = Process()
    let directory: TemporaryDirectory
    let notify: NotifyListener
    private let errors = PipeCollector()

    var stateDirectory: String { directory.path + "/state" }
    /// The control socket at its default place under XDG_RUNTIME_DIR.
    var socketPath: String { directory.path + "/runtime/alarmd/io.alarmd" }

    /// Starts the daemon and waits for READY=1 (which comes after the socket listens).
    func startAndWaitReady(timeout: TimeInterval = 20) throws {
        try start()
        guard notify.wait(for: "READY=1", timeout: timeout) != nil else {
            throw HarnessError(description: "alarmd did not become ready; stderr: \(standardError)")
        }
    }
    var databasePath: String { stateDirectory + "/alarmd.sqlite3" }

    init(directory: TemporaryDirectory = TemporaryDirectory(), config: String? = nil, environment: [String: String] = [:], arguments: [String] = []) {
        self.directory = directory
        notify = NotifyListener(directory: directory.path)
        try? FileManager.default.createDirectory(atPath: directory.path + "/state", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: directory.path + "/runtime", withIntermediateDirectories: true)
        var args = ["--state-dir", directory.path + "/state"]
        if let config {
            let path = directory.path + "/alarmd.conf"
            precondition(FileManager.default.createFile(atPath: path, contents: Data(config.utf8)))
            args += ["--config", path]
        }
        process.executableURL = URL(fileURLWithPath: productsDirectory + "/alarmd")
        process.arguments = args + arguments
        // An empty XDG_CONFIG_DIRS entry of the test's own: alarmd would
        // otherwise fall back to /etc/xdg and read the machine's alarmd.conf.
        try? FileManager.default.createDirectory(atPath: directory.path + "/config-dirs", withIntermediateDirectories: true)
        var env = [
            "PATH": "/usr/bin:/bin",
            "HOME": directory.path,
            "XDG_CONFIG_HOME": directory.path + "/config",
            "XDG_CONFIG_DIRS": directory.path + "/config-dirs",
            "XDG_RUNTIME_DIR": directory.path + "/runtime",
            "NOTIFY_SOCKET": notify.path,
            "TZ": "UTC",
            // Never the machine's alarmd-wake helper or sound server: a test
            // that wants one starts its own.
            "ALARMD_WAKE_HELPER": directory.path + "/no-wake-helper",
            "PULSE_SERVER": "unix:" + directory.path + "/no-sound-server",
        ]
        env.merge(environment) { $1 }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors.pipe
    }

    /// When ``start()`` ran: journal queries by `_PID` look no earlier, since
    /// with `pid_max` 32768 a long run reuses pids, and an earlier process's
    /// entries would otherwise count as this daemon's.
    private(set) var startedAt: Date?

    func start() throws {
        startedAt = Date()
        try process.run()
    }

    var standardError: String { errors.text }

    /// Sends `signal` and waits for the exit; returns the exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 10) -> Int32? {
        if process.isRunning { kill(process.processIdentifier, signal) }
        guard waitUntil(timeout: timeout, { !process.isRunning }) else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationStatus
    }

    /// Runs to completion (for start-up failures) and returns the exit status.
    func runToExit(timeout: TimeInterval = 20) throws -> Int32? {
        try start()
        guard waitUntil(timeout: timeout, { !process.isRunning }) else { stop(signal: SIGKILL); return nil }
        _ = waitUntil(timeout: 1) { !standardError.isEmpty }
        return process.terminationStatus
    }

    deinit { if process.isRunning { stop(signal: SIGKILL) } }
}

/// The system journal as a test reads it back. When no journald runs (a
/// container, CI — possibly with a stale socket file left by an earlier one),
/// the harness starts the real `/lib/systemd/systemd-journald`, which needs
/// root; without root the journal tests are skipped with the reason.
enum JournalFixture {
    static let socket = "/run/systemd/journal/socket"

    /// Why journal tests cannot run here, or `nil` when they can.
    static let unavailableReason: String? = {
        if datagramSocketIsListening(socket) { return nil }
        guard getuid() == 0 else { return "no journald is running and starting one needs root" }
        let journald = Process()
        journald.executableURL = URL(fileURLWithPath: "/lib/systemd/systemd-journald")
        journald.standardOutput = FileHandle.nullDevice
        journald.standardError = FileHandle.nullDevice
        do { try journald.run() } catch { return "cannot start systemd-journald: \(error)" }
        return waitUntil(timeout: 10) { datagramSocketIsListening(socket) } ? nil : "systemd-journald is not listening on \(socket)"
    }()

    static var isAvailable: Bool { unavailableReason == nil }

    /// alarmd's entries about one item, oldest first, as `journalctl -o json` prints them.
    static func entries(itemID: String, timeout: TimeInterval = 10, until satisfied: ([[String: String]]) -> Bool = { !$0.isEmpty }) -> [[String: String]] {
        var result: [[String: String]] = []
        _ = waitUntil(timeout: timeout) {
            result = query(["SYSLOG_IDENTIFIER=alarmd", "ALARMD_ITEM_ID=\(itemID)"])
            return satisfied(result)
        }
        return result
    }

    /// `daemon`'s own entries matching `matches`: its pid, since it started.
    static func query(_ matches: [String], of daemon: DaemonProcess) -> [[String: String]] {
        query(matches + ["_PID=\(daemon.process.processIdentifier)"], since: daemon.startedAt)
    }

    static func query(_ matches: [String], since: Date? = nil) -> [[String: String]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/journalctl")
        let start = since.map { ["--since=@\(Int($0.timeIntervalSince1970) - 1)"] } ?? []
        process.arguments = ["-o", "json", "--no-pager", "--all"] + start + matches
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return [] }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object.compactMapValues { $0 as? String }
        }
    }
}

/// An alarm time about `seconds` from now, without waiting for the next
/// minute: alarms ring on the minute, so the daemon is given a zone of its
/// own (`tz`) whose offset — POSIX `TZ` allows seconds — puts a minute
/// boundary that far ahead, and `time` is that minute there. The clock stays
/// the real one.
struct MinuteAhead {
    let tz: String
    let time: String
    /// When it rings.
    let due: Date

    init(_ seconds: Int) {
        let due = Int(Date().timeIntervalSince1970.rounded(.up)) + seconds
        let offset = (60 - due % 60) % 60
        let local = due + offset
        tz = String(format: "ALM-0:00:%02d", offset)
        time = String(format: "%02d:%02d", local / 3600 % 24, local / 60 % 60)
        self.due = Date(timeIntervalSince1970: TimeInterval(due))
    }
}

/// The resident set of `pid` in bytes (`VmRSS` of /proc/PID/status), `nil`
/// once it is gone.
func residentBytes(of pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kib = Int(line.dropFirst("VmRSS:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") else { return nil }
    return kib * 1024
}

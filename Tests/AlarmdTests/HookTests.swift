// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Glibc
import Testing

/// An item's command, run by the real daemon when the item fires.
@Suite(.serialized) struct HookTests {
    /// A daemon without a desktop, a silent player, and `[Hooks] Timeout=`.
    static func startDaemon(timeout: String = "5s") throws -> DaemonProcess {
        let directory = TemporaryDirectory()
        writeExecutable(directory.path + "/quiet.sh", "#!/bin/sh\nexec sleep 30\n")
        return try DesktopDaemon.start(config: "[Sound]\nPlayer=\(directory.path)/quiet.sh\n[Hooks]\nTimeout=\(timeout)\n", desktop: nil, directory: directory)
    }

    /// A hook script in the daemon's directory that writes its environment and
    /// arguments to `<name>.args` and `<name>.env` (the latter last, whole), then runs `more`.
    static func writeHook(_ daemon: DaemonProcess, _ name: String, more: String = "") -> String {
        writeHook(in: daemon.directory.path, name, more: more)
    }

    static func writeHook(in dir: String, _ name: String, more: String = "") -> String {
        let script = dir + "/\(name).sh"
        writeExecutable(script, """
            #!/bin/sh
            for argument in "$@"; do printf '%s\\n' "$argument"; done > '\(dir)/\(name).args'
            env > '\(dir)/\(name).env.tmp'
            mv '\(dir)/\(name).env.tmp' '\(dir)/\(name).env'
            \(more)

            """)
        return script
    }

    /// The `NAME=value` lines a hook recorded, once it has.
    static func environment(_ daemon: DaemonProcess, _ name: String, timeout: TimeInterval = 10) -> [String: String]? {
        let path = daemon.directory.path + "/\(name).env"
        guard waitUntil(timeout: timeout, { FileManager.default.fileExists(atPath: path) }),
              let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            result[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return result
    }

    static func arguments(_ daemon: DaemonProcess, _ name: String) -> String? {
        try? String(contentsOfFile: daemon.directory.path + "/\(name).args", encoding: .utf8)
    }

    /// A reminder added through the Varlink API, due at a whole second `seconds` from now.
    static func addReminder(_ daemon: DaemonProcess, title: String, in seconds: Double, command: [String]) throws -> (id: String, due: String) {
        try addReminder(daemon, title: title, due: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + seconds).rounded(.up)), command: command)
    }

    /// A reminder added through the Varlink API, due at `date` (a whole second).
    static func addReminder(_ daemon: DaemonProcess, title: String, due date: Date, command: [String]) throws -> (id: String, due: String) {
        let due = date.rfc3339UTC
        let parameters: [String: Any] = ["title": title, "due": due, "command": command]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: ["method": "io.alarmd.AddReminder", "parameters": parameters]), as: UTF8.self)
        let reply = try RawSocket.call(daemon.socketPath, json)
        guard let reminder = reply.parameters?["reminder"]?.objectValue, let id = reminder["id"]?.stringValue else {
            throw HarnessError(description: "AddReminder failed: \(reply.text)")
        }
        #expect(reminder["command"]?.arrayValue?.compactMap(\.stringValue) == command, "the command is stored as given")
        return (id, due)
    }

    /// The daemon's journal lines about one item (or its whole log without a journal).
    static func itemLog(_ daemon: DaemonProcess, _ id: String, until condition: @escaping ([String]) -> Bool) -> [String] {
        var lines: [String] = []
        _ = waitUntil(timeout: 10) {
            lines = DesktopDaemon.log(daemon, itemID: id)
            return condition(lines)
        }
        return lines
    }

    @Test func aHookRunsWhenTheItemFiresWithTheItemInItsEnvironment() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let script = Self.writeHook(daemon, "tea", more: "echo 'hook says hello'\necho 'and warns' >&2\n")
        let (id, due) = try Self.addReminder(daemon, title: "Tea", in: 1.5, command: [script, "two words", "$HOME", "*"])

        let environment = try #require(Self.environment(daemon, "tea"), "the hook did not run; daemon: \(DesktopDaemon.log(daemon))")
        #expect(environment["ALARMD_ID"] == id)
        #expect(environment["ALARMD_KIND"] == "reminder")
        #expect(environment["ALARMD_LABEL"] == "Tea")
        #expect(environment["ALARMD_EVENT"] == "fired")
        #expect(environment["ALARMD_SCHEDULED"] == due)
        #expect(environment["PATH"] == "/usr/bin:/bin", "the daemon's PATH")
        #expect(environment["DBUS_SESSION_BUS_ADDRESS"] == nil && environment["NOTIFY_SOCKET"] == nil, "nothing else of the daemon's leaks in")
        #expect(Self.arguments(daemon, "tea") == "two words\n$HOME\n*\n", "argv as given, no shell")

        // Its output, both streams, is in the journal, line by line.
        let lines = Self.itemLog(daemon, id) { $0.contains("hook: and warns") }
        #expect(lines.contains("hook: hook says hello"), "\(lines)")
        #expect(lines.contains("hook: and warns"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("Hook of") }, "a hook that succeeds is not reported: \(lines)")
        #expect(try DesktopDaemon.phase(id, daemon) == "ringing", "and the item rings")
    }

    @Test func alarmctlCommandLinesAndAlarmsRunHooksToo() throws {
        let directory = TemporaryDirectory()
        writeExecutable(directory.path + "/quiet.sh", "#!/bin/sh\nexec sleep 30\n")
        let script = Self.writeHook(in: directory.path, "cli")
        let alarmScript = Self.writeHook(in: directory.path, "alarm")
        let restarted = DaemonProcess(directory: directory, config: "[Sound]\nPlayer=\(directory.path)/quiet.sh\n",
                                      environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.path)/no-bus"])
        // An alarm due this minute, seeded so that it rings at start.
        let now = Date()
        let local = Zone.utc.rules.localDateTime(at: now.epochSecondsFloor)
        let alarm = Alarm(time: try TimeOfDay(hour: local.hour, minute: local.minute), days: .everyDay, label: "Wake",
                          command: [alarmScript, "--from", "alarm"], created: now.addingTimeInterval(-86_400 * 2))
        try DaemonProcessTests.seed(restarted, alarms: [alarm], anchoredAt: now.addingTimeInterval(-86_400))
        _ = JournalFixture.isAvailable
        try restarted.startAndWaitReady()
        defer { restarted.stop() }

        let alarmEnvironment = try #require(Self.environment(restarted, "alarm"), "\(DesktopDaemon.log(restarted))")
        #expect(alarmEnvironment["ALARMD_KIND"] == "alarm")
        #expect(alarmEnvironment["ALARMD_ID"] == alarm.id.uuidString.lowercased())
        #expect(alarmEnvironment["ALARMD_LABEL"] == "Wake")
        #expect(alarmEnvironment["ALARMD_EVENT"] == "fired")
        #expect(alarmEnvironment["ALARMD_SCHEDULED"] == "\(local.dateText)T\(alarm.time):00Z")
        #expect(Self.arguments(restarted, "alarm") == "--from\nalarm\n")

        // `--command` is split like a shell line by alarmctl, never run by one.
        let id = try DesktopDaemon.remind("From the CLI", in: 1, restarted, extra: ["--command", "\(script) 'a b' \"c\" $HOME"])
        let environment = try #require(Self.environment(restarted, "cli"))
        #expect(environment["ALARMD_ID"] == id)
        #expect(environment["ALARMD_LABEL"] == "From the CLI")
        #expect(Self.arguments(restarted, "cli") == "a b\nc\n$HOME\n")
    }

    @Test func aHookThatOverrunsItsTimeoutIsKilledWithEverythingItStarted() throws {
        let daemon = try Self.startDaemon(timeout: "1s")
        defer { daemon.stop() }
        let dir = daemon.directory.path
        let script = Self.writeHook(daemon, "slow", more: """
            sleep 30 &
            echo $! > '\(dir)/slow.child'
            echo $$ > '\(dir)/slow.pid'
            echo 'working on it'
            wait
            echo 'never printed'
            """)
        let (id, _) = try Self.addReminder(daemon, title: "Slow", in: 1, command: [script])
        #expect(waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: dir + "/slow.pid") && FileManager.default.fileExists(atPath: dir + "/slow.child") })
        let started = Date()
        let pids = [dir + "/slow.pid", dir + "/slow.child"].compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
            .compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(pids.count == 2)
        #expect(pids.allSatisfy(processIsAlive), "both run until the timeout")
        #expect(waitUntil(timeout: 8) { pids.allSatisfy { !processIsAlive($0) } }, "still running: \(pids.filter(processIsAlive))")
        let took = Date().timeIntervalSince(started)
        #expect(took < 6, "killed after about 1 s (not its 30 s), took \(took) s")

        let lines = Self.itemLog(daemon, id) { $0.contains { $0.hasPrefix("Hook of") } }
        #expect(lines.contains("Hook of Reminder \"Slow\" killed after 1 s"), "\(lines)")
        #expect(lines.contains("hook: working on it"), "\(lines)")
        #expect(!lines.contains("hook: never printed"))
        #expect(try DesktopDaemon.phase(id, daemon) == "ringing", "the item rings on")
    }

    /// Hooks run side by side, each within its own timeout: two that sleep
    /// start together (a runner that waited for each hook in turn started the
    /// second only after the first's sleep), and a third that overruns the
    /// timeout is stopped while the other two finish.
    @Test func hooksRunSideBySideEachWithinItsOwnTimeout() throws {
        let daemon = try Self.startDaemon(timeout: "3s")
        defer { daemon.stop() }
        let dir = daemon.directory.path
        let log = dir + "/hooks.log"
        func hook(_ name: String, sleeping seconds: String) -> String {
            let script = dir + "/\(name).sh"
            writeExecutable(script, """
                #!/bin/sh
                echo "\(name) start $(date +%s.%N)" >> '\(log)'
                echo $$ > '\(dir)/\(name).pid'
                sleep \(seconds)
                echo "\(name) end $(date +%s.%N)" >> '\(log)'

                """)
            return script
        }
        let due = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 2).rounded(.up))
        let (first, _) = try Self.addReminder(daemon, title: "First", due: due, command: [hook("first", sleeping: "2")])
        let (second, _) = try Self.addReminder(daemon, title: "Second", due: due, command: [hook("second", sleeping: "2")])
        let (slow, _) = try Self.addReminder(daemon, title: "Slow", due: due, command: [hook("slow", sleeping: "30")])

        func times() -> [String: Double] {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            var result: [String: Double] = [:]
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.count == 3, let time = Double(words[2]) { result["\(words[0]) \(words[1])"] = time }
            }
            return result
        }
        #expect(waitUntil(timeout: 15) { times().count == 5 }, "the hooks' log: \(times()); daemon: \(DesktopDaemon.log(daemon))")
        let log1 = times()
        let starts = ["first", "second", "slow"].compactMap { log1["\($0) start"] }
        try #require(starts.count == 3, "\(log1)")
        #expect(starts.max()! - starts.min()! < 1, "all three started together, well within one 2 s sleep: \(log1)")
        #expect(log1["slow end"] == nil, "the slow hook never finished its sleep")

        let slowPID = try #require((try? String(contentsOfFile: dir + "/slow.pid", encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        #expect(waitUntil(timeout: 8) { !processIsAlive(slowPID) }, "the slow hook is stopped after its timeout")
        let lines = Self.itemLog(daemon, slow) { $0.contains { $0.hasPrefix("Hook of") } }
        #expect(lines.contains("Hook of Reminder \"Slow\" killed after 3 s"), "\(lines)")
        for id in [first, second] {
            #expect(!DesktopDaemon.log(daemon, itemID: id).contains { $0.hasPrefix("Hook of") }, "the quick hooks ran to their end within the timeout")
        }
    }

    /// A process that leaves the hook's process group (setsid) survives the kill
    /// and may keep the hook's output open; hooks after it must still run.
    @Test func aHookChildThatEscapesTheProcessGroupDoesNotHoldUpLaterHooks() throws {
        let daemon = try Self.startDaemon(timeout: "1s")
        defer { daemon.stop() }
        let dir = daemon.directory.path
        let escaping = Self.writeHook(daemon, "escape", more: "setsid sleep 20 &\necho $! > '\(dir)/escape.child'\necho 'left running'\nexit 0")
        var escaped: pid_t?
        defer { if let escaped { kill(escaped, SIGKILL) } }
        let (first, _) = try Self.addReminder(daemon, title: "Escapes", in: 1, command: [escaping])
        #expect(waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: dir + "/escape.child") })
        escaped = (try? String(contentsOfFile: dir + "/escape.child", encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(escaped.map(processIsAlive) == true, "it did escape")

        let next = Self.writeHook(daemon, "next")
        let (second, _) = try Self.addReminder(daemon, title: "Next", in: 1, command: [next])
        let environment = Self.environment(daemon, "next", timeout: 8)
        #expect(environment?["ALARMD_ID"] == second, "the next hook did not run: \(DesktopDaemon.log(daemon))")
        let lines = Self.itemLog(daemon, first) { $0.contains { $0.hasPrefix("Hook of") } }
        #expect(lines.contains("hook: left running"), "\(lines)")
        #expect(lines.contains("Hook of Reminder \"Escapes\" exited with status 0, but a process it started outside its process group kept its output open; stopped reading after 1 s"), "\(lines)")
    }

    @Test func aFailingHookIsLoggedAndChangesNothingElse() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let script = Self.writeHook(daemon, "fail", more: "echo 'it went wrong'\nexit 3")
        let (id, _) = try Self.addReminder(daemon, title: "Fails", in: 1, command: [script])
        let lines = Self.itemLog(daemon, id) { $0.contains { $0.hasPrefix("Hook of") } }
        #expect(lines.contains("Hook of Reminder \"Fails\" exited with status 3"), "\(lines)")
        #expect(lines.contains("hook: it went wrong"), "\(lines)")
        if JournalFixture.isAvailable {
            let entries = JournalFixture.entries(itemID: id)
            #expect(entries.filter { $0["ALARMD_EVENT"] == "fired" }.count == 1)
            #expect(entries.first { ($0["MESSAGE"] ?? "").hasPrefix("Hook of") }?["PRIORITY"] == "4", "a warning")
        }
        #expect(try DesktopDaemon.phase(id, daemon) == "ringing")
        #expect(try Alarmctl.ok(["dismiss", id], daemon) == "Dismissed \"Fails\" (\(id.prefix(8)))\n")
        #expect(try DesktopDaemon.phase(id, daemon) == "waiting")
        try Alarmctl.ok(["remind", "done", id], daemon)
    }

    @Test func aMissingHookProgramIsLogged() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let (id, _) = try Self.addReminder(daemon, title: "Nothing there", in: 1, command: ["/nonexistent/hook", "x"])
        let lines = Self.itemLog(daemon, id) { $0.contains { $0.hasPrefix("Hook of") } }
        let report = lines.first { $0.hasPrefix("Hook of") }
        #expect(report?.hasPrefix("Hook of Reminder \"Nothing there\" not run: ") == true, "\(lines)")
        #expect(report?.contains("/nonexistent/hook") == true && report?.contains("No such file or directory") == true, "\(report ?? "")")
        #expect(try DesktopDaemon.phase(id, daemon) == "ringing")
    }

    /// A label full of shell syntax reaches the hook as one environment value and
    /// nothing else: no shell ever sees it.
    @Test func aLabelCannotInjectIntoTheHook() throws {
        let daemon = try Self.startDaemon()
        defer { daemon.stop() }
        let dir = daemon.directory.path
        let label = "-rf $(touch \(dir)/pwned) `touch \(dir)/pwned2`; touch \(dir)/pwned3 && echo \"$PATH\" | x"
        let script = Self.writeHook(daemon, "inject")
        let (id, _) = try Self.addReminder(daemon, title: label, in: 1, command: [script])
        let environment = try #require(Self.environment(daemon, "inject"), "\(DesktopDaemon.log(daemon))")
        #expect(environment["ALARMD_LABEL"] == label)
        #expect(environment["ALARMD_ID"] == id)
        #expect(Self.arguments(daemon, "inject") == "", "the label is not an argument")
        usleep(300_000)
        for name in ["pwned", "pwned2", "pwned3"] {
            #expect(!FileManager.default.fileExists(atPath: dir + "/" + name), "\(name) was created: the label ran")
        }
    }
}

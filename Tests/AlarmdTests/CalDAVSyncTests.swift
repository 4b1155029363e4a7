// SPDX-License-Identifier: Apache-2.0
import AlarmStore
import Foundation
import Glibc
import Testing

/// A real CalDAV server (Radicale, with password authentication) started on
/// 127.0.0.1 for a test, its data in a directory that outlives a restart.
final class RadicaleServer: @unchecked Sendable {
    let directory = TemporaryDirectory()
    let port: Int
    let user = "alice"
    let password = "s3cret pass"
    private var process: Process?
    private let python: String

    var tasksURL: String { "http://127.0.0.1:\(port)/\(user)/tasks/" }
    var alarmsURL: String { "http://127.0.0.1:\(port)/\(user)/alarms/" }

    init(python: String) throws {
        self.python = python
        // A port of its own: tests run one after another, and an earlier
        // server's port may still be in TIME_WAIT.
        var chosen = 0
        for attempt in 0..<20 {
            let candidate = 20_000 + Int((UInt32(getpid()) &* 7 &+ UInt32(attempt) &* 131 &+ UInt32(Date().timeIntervalSince1970) % 9973) % 20_000)
            if Self.isFree(candidate) { chosen = candidate; break }
        }
        guard chosen > 0 else { throw HarnessError(description: "no free port for Radicale") }
        port = chosen
        try start()
    }

    deinit { stop() }

    static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
    }

    /// Starts (or starts again) the server and waits until it serves.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [ICalendarTests.packageRoot + "/Tests/AlarmdTests/python/radicale_server.py", directory.path, String(port), user, password]
        let out = PipeCollector(), err = PipeCollector()
        process.standardOutput = out.pipe
        process.standardError = err.pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        guard waitUntil(timeout: 20, { out.text.contains("READY") || !process.isRunning }), process.isRunning else {
            throw HarnessError(description: "Radicale did not start: \(err.text)")
        }
    }

    func stop() {
        endProcess(process)
        process = nil
    }

    /// The daemon's `[Sync]` section, with the password in a 0600 file.
    func syncConfig(in directory: TemporaryDirectory, interval: String, alarms: Bool = false, password: String? = nil) -> String {
        let file = directory.path + "/sync-password"
        #expect(FileManager.default.createFile(atPath: file, contents: Data(((password ?? self.password) + "\n").utf8), attributes: [.posixPermissions: 0o600]))
        return "[Sync]\nURL=\(tasksURL)\n" + (alarms ? "AlarmsURL=\(alarmsURL)\n" : "") + "User=\(user)\nPasswordFile=\(file)\nInterval=\(interval)\n"
    }

    /// The phone: Python's `caldav` library on the tasks (or alarms) collection.
    func phone(_ arguments: [String], alarms: Bool = false) throws -> Any {
        let result = Tool.run(python, [ICalendarTests.packageRoot + "/Tests/AlarmdTests/python/caldav_phone.py", alarms ? alarmsURL : tasksURL, user, password] + arguments,
                              timeout: 60)
        guard result.status == 0 else { throw HarnessError(description: "caldav_phone.py \(arguments): \(result.standardError)") }
        return try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    }

    func todos() throws -> [[String: Any]] { try phone(["list-todos"]) as? [[String: Any]] ?? [] }
}

/// CalDAV sync against the real Radicale, the Python `caldav` library as the
/// other device, and real alarmd daemons (issue 18).
@Suite(.serialized) struct CalDAVSyncTests {
    static func python() throws -> String {
        let (found, tried) = PythonClientTests.interpreter(importing: "caldav, radicale")
        return try #require(found, "no Python with radicale and caldav (make test-deps installs them into .build/pyvenv); tried: \(tried.joined(separator: "; "))")
    }

    static func daemon(_ server: RadicaleServer, interval: String, alarms: Bool = false, environment: [String: String] = [:], password: String? = nil) throws -> DaemonProcess {
        let directory = TemporaryDirectory()
        let daemon = DaemonProcess(directory: directory, config: server.syncConfig(in: directory, interval: interval, alarms: alarms, password: password),
                                   environment: environment)
        try daemon.startAndWaitReady()
        return daemon
    }

    static func utc(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.string(from: date)
    }

    static func reminders(_ daemon: DaemonProcess, all: Bool = true) throws -> [[String: Any]] {
        try Alarmctl.json(["remind", "list"] + (all ? ["--all"] : []), daemon)["reminders"] as? [[String: Any]] ?? []
    }

    /// The phone adds a to-do due in a few seconds; alarmd (syncing every
    /// second) has it and rings it on time. Done here shows as COMPLETED
    /// there; deleted there, it is gone here.
    @Test func aToDoFromThePhoneRingsAndDoneAndDeletionTravel() throws {
        let server = try RadicaleServer(python: try Self.python())
        let daemon = try Self.daemon(server, interval: "1s")
        defer { daemon.stop() }
        let due = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 6).rounded(.up))
        _ = try server.phone(["add-todo", "phone-1@example.org", "Take the cake out", Self.utc(due)])
        var reminder: [String: Any]?
        _ = waitUntil(timeout: 5) {
            reminder = (try? Self.reminders(daemon))?.first { $0["title"] as? String == "Take the cake out" }
            return reminder != nil
        }
        let id = try #require(reminder?["id"] as? String, "the phone's to-do did not arrive")
        #expect(try DesktopDaemon.waitRinging(id, daemon, timeout: 15))
        let history = try Alarmctl.json(["history", id], daemon)["events"] as? [[String: Any]] ?? []
        let fired = try #require(history.first { $0["kind"] as? String == "fired" }, "\(history)")
        let firedAt = try #require((fired["actual"] as? String).flatMap(DesktopDaemon.instant))
        #expect(abs(firedAt.timeIntervalSince(due)) < 2, "rang at \(firedAt), due \(due)")

        try Alarmctl.ok(["remind", "done", id], daemon)
        #expect(waitUntil(timeout: 10) { (try? server.todos())?.first { $0["uid"] as? String == "phone-1@example.org" }?["status"] as? String == "COMPLETED" },
                "\((try? server.todos()) ?? [])")

        _ = try Alarmctl.ok(["remind", "add", "Buy milk", "--in", "2h"], daemon)
        #expect(waitUntil(timeout: 10) { (try? server.todos())?.contains { $0["summary"] as? String == "Buy milk" } == true }, "sent soon after the change")
        let milk = try #require(try server.todos().first { $0["summary"] as? String == "Buy milk" })
        _ = try server.phone(["delete", try #require(milk["uid"] as? String)])
        #expect(waitUntil(timeout: 10) { (try? Self.reminders(daemon))?.contains { $0["title"] as? String == "Buy milk" } == false })
        let left = try Self.reminders(daemon)
        #expect(left.count == 1, "the cake stays: \(left)")
        // Later rounds asked for the changes since a token (RFC 6578), which Radicale keeps.
        let state = try SyncStateStore(path: daemon.stateDirectory + "/sync.sqlite3")
        #expect(try state.token(collection: "reminder " + server.tasksURL)?.hasPrefix("http://radicale.org/ns/sync/") == true)
    }

    /// Two daemons with their own state on one server: an alarm added on one
    /// rings on the other.
    @Test func anAlarmAddedOnOneMachineRingsOnTheOther() throws {
        let server = try RadicaleServer(python: try Self.python())
        let minute = MinuteAhead(20)
        let first = try Self.daemon(server, interval: "1s", alarms: true, environment: ["TZ": minute.tz])
        defer { first.stop() }
        let second = try Self.daemon(server, interval: "1s", alarms: true, environment: ["TZ": minute.tz])
        defer { second.stop() }
        let added = try Alarmctl.json(["add", minute.time, "--label", "Shared"], first)
        let id = try #require((added["alarm"] as? [String: Any])?["id"] as? String)
        #expect(waitUntil(timeout: 15) { ((try? Alarmctl.json(["list"], second))?["alarms"] as? [[String: Any]] ?? []).contains { $0["id"] as? String == id } },
                "the alarm did not reach the second machine")
        let watch = try BackgroundAlarmctl(["watch", "--json"], second)
        defer { watch.terminate() }
        let line = watch.waitForLine(timeout: minute.due.timeIntervalSinceNow + 10) { $0.contains(#""kind":"fired""#) && $0.contains(id) }
        #expect(line != nil, "it did not ring on the second machine; watch: \(watch.lines)")
        #expect(abs(Date().timeIntervalSince(minute.due)) < 5)
    }

    /// One calendar holding both to-dos and events (as many servers' default
    /// calendar does), named by both URL= and AlarmsURL=: neither pass takes
    /// the other's items for removed.
    @Test func oneCalendarForAlarmsAndRemindersKeepsBoth() throws {
        let server = try RadicaleServer(python: try Self.python())
        let directory = TemporaryDirectory()
        let config = server.syncConfig(in: directory, interval: "1h").replacingOccurrences(of: "User=", with: "AlarmsURL=\(server.tasksURL)\nUser=")
        let daemon = DaemonProcess(directory: directory, config: config)
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        try Alarmctl.ok(["add", "7:30", "--days", "weekdays", "--label", "Work"], daemon)
        try Alarmctl.ok(["remind", "add", "Buy milk", "--in", "2h"], daemon)
        for _ in 0..<3 { try Alarmctl.ok(["sync"], daemon) }
        #expect(try Self.reminders(daemon).count == 1)
        #expect((try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]] ?? []).count == 1)
        let ical = try server.phone(["list-todos"]) as? [[String: Any]] ?? []
        #expect(ical.map { $0["summary"] as? String } == ["Buy milk"], "\(ical)")
        let events = try server.phone(["list-events"]) as? [[String: Any]] ?? []
        #expect(events.map { $0["summary"] as? String } == ["Work"], "\(events)")
    }

    /// Changed on both sides between rounds: the newer change wins everywhere,
    /// and the other copy is in the journal whole.
    @Test func aConflictGoesToTheNewerChangeAndTheLoserIsInTheJournal() throws {
        let server = try RadicaleServer(python: try Self.python())
        let daemon = try Self.daemon(server, interval: "1h")
        defer { daemon.stop() }
        let added = try Alarmctl.json(["remind", "add", "Call the bank", "--in", "3h"], daemon)
        let id = try #require((added["reminder"] as? [String: Any])?["id"] as? String)
        try Alarmctl.ok(["sync"], daemon)
        #expect(try server.todos().count == 1)
        // Both sides change it; this machine's change comes later, so it wins.
        _ = try server.phone(["set-summary", id, "Call the bank (phone)"])
        sleep(1)
        try Alarmctl.ok(["remind", "edit", id, "--title", "Call the bank (desktop)"], daemon)
        let synced = try Alarmctl.ok(["sync"], daemon)
        #expect(synced.contains("1 conflict"), "\(synced)")
        #expect(try server.todos().first?["summary"] as? String == "Call the bank (desktop)")
        #expect(try Self.reminders(daemon).first?["title"] as? String == "Call the bank (desktop)")
        let log = DesktopDaemon.waitForLog(daemon) { $0.contains { $0.hasPrefix("Sync conflict") } }
        let entry = try #require(log.first { $0.hasPrefix("Sync conflict") }, "\(log)")
        #expect(entry.contains("kept the newer copy (this machine's)") && entry.contains("SUMMARY:Call the bank (phone)"), "\(entry)")
    }

    /// The server stopped while changes are made here: they wait (status says
    /// so), and all arrive once it is back, none twice.
    @Test func changesMadeWhileTheServerIsAwayArriveOnceItIsBack() throws {
        let server = try RadicaleServer(python: try Self.python())
        let daemon = try Self.daemon(server, interval: "1h")
        defer { daemon.stop() }
        try Alarmctl.ok(["remind", "add", "Before", "--in", "1h"], daemon)
        try Alarmctl.ok(["sync"], daemon)
        server.stop()
        try Alarmctl.ok(["remind", "add", "During one", "--in", "2h"], daemon)
        try Alarmctl.ok(["remind", "add", "During two"], daemon)
        let before = try #require(try Self.reminders(daemon).first { $0["title"] as? String == "Before" }?["id"] as? String)
        try Alarmctl.ok(["remind", "done", before], daemon)
        let failed = try Alarmctl.run(["sync"], daemon)
        #expect(failed.status == 1 && failed.standardError.contains("cannot reach http://127.0.0.1:\(server.port)"), "\(failed.standardError)")
        let status = try Alarmctl.ok(["status"], daemon)
        #expect(status.contains("failed: cannot reach") && status.contains("3 changes waiting to be sent"), "\(status)")
        #expect(!status.contains(server.password) && !failed.standardError.contains(server.password))

        try server.start()
        try Alarmctl.ok(["sync"], daemon)
        let todos = try server.todos()
        #expect(todos.map { $0["summary"] as? String ?? "" }.sorted() == ["Before", "During one", "During two"], "\(todos)")
        #expect(todos.first { $0["summary"] as? String == "Before" }?["status"] as? String == "COMPLETED")
        #expect(try Self.reminders(daemon).count == 3, "nothing duplicated here")
        let after = try Alarmctl.ok(["status"], daemon)
        #expect(after.contains("sync:") && !after.contains("waiting") && !after.contains("failed"), "\(after)")
    }

    /// alarmd-sync killed with SIGKILL in the middle of a round against the
    /// real Radicale: alarmd says so and starts it again, the next round
    /// does what the killed one did not, and nothing is lost or duplicated on
    /// either side.
    @Test func theSyncProcessKilledMidRoundRedoesTheRound() throws {
        let server = try RadicaleServer(python: try Self.python())
        let daemon = try Self.daemon(server, interval: "1h")
        defer { daemon.stop() }
        let later = Self.utc(Date().addingTimeInterval(30 * 86_400))
        for index in 1...5 { _ = try server.phone(["add-todo", "phone-\(index)@example.org", "From the phone \(index)", later]) }
        try Alarmctl.ok(["sync"], daemon)
        let alarmd = daemon.process.processIdentifier
        // Many to send: the round makes a PUT for each, which Radicale writes
        // to a file of its own.
        let count = 150
        let reminders = (1...count).map { #"{"id":"\#(UUID().uuidString.lowercased())","title":"Local \#($0)"}"# }
        try Alarmctl.ok(["import", "-"], daemon, input: Data(#"{"format":"alarmd","version":1,"reminders":[\#(reminders.joined(separator: ","))]}"#.utf8))
        let folder = server.directory.path + "/collections/collection-root/\(server.user)/tasks"
        func stored() -> Int { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".ics") }.count }
        let round = Alarmctl.process(["sync"], daemon)
        round.standardOutput = FileHandle.nullDevice
        round.standardError = FileHandle.nullDevice
        try round.run()
        #expect(waitUntil(timeout: 20, interval: 0.001) { stored() > 10 }, "the round did not start sending")
        let killed = try #require(HostileCalDAVTests.children(of: alarmd, named: "alarmd-sync").first, "no alarmd-sync under alarmd")
        #expect(kill(killed, SIGKILL) == 0)
        let atTheKill = stored()
        round.waitUntilExit()
        #expect(round.terminationStatus == 1, "the round in flight is answered with the process's death")
        #expect(atTheKill < count + 5, "the kill came after the last PUT")

        var status = ""
        #expect(waitUntil(timeout: 5) {
            status = (try? Alarmctl.ok(["status"], daemon)) ?? ""
            return status.contains("killed by signal 9")
        }, "status does not say the sync process died: \(status)")
        var last: Alarmctl.Result?
        // A request starts a new process at once, back-off or not.
        #expect(waitUntil(timeout: 30) {
            last = try? Alarmctl.run(["sync"], daemon)
            return last?.status == 0
        }, "no round after the restart: \(String(describing: last)); \((try? Alarmctl.ok(["status"], daemon)) ?? "")")
        let there = try server.todos().map { $0["summary"] as? String ?? "" }
        let here = try Self.reminders(daemon).map { $0["title"] as? String ?? "" }
        let expected = ((1...count).map { "Local \($0)" } + (1...5).map { "From the phone \($0)" }).sorted()
        #expect(there.sorted() == expected, "the server has \(there.count) (\(atTheKill) at the kill)")
        #expect(here.sorted() == expected, "alarmd has \(here.count)")
    }

    /// A wrong password: a clear error in status and the journal (never the
    /// password itself), nothing lost here.
    @Test func aWrongPasswordIsReportedAndNothingIsLost() throws {
        let server = try RadicaleServer(python: try Self.python())
        let daemon = try Self.daemon(server, interval: "1h", password: "wrong horse")
        defer { daemon.stop() }
        try Alarmctl.ok(["remind", "add", "Kept here"], daemon)
        let failed = try Alarmctl.run(["sync"], daemon)
        #expect(failed.status == 1 && failed.standardError.contains("refused the user name or password (HTTP 401)"), "\(failed.standardError)")
        let status = try Alarmctl.ok(["status"], daemon)
        #expect(status.contains("HTTP 401") && status.contains("1 change waiting"), "\(status)")
        #expect(try Self.reminders(daemon).count == 1)
        let log = DesktopDaemon.waitForLog(daemon) { $0.contains { $0.contains("HTTP 401") } }
        #expect(log.filter { $0.contains("HTTP 401") }.count == 1, "said once: \(log)")
        #expect(!log.contains { $0.contains("wrong horse") } && !status.contains("wrong horse"))
    }

    /// A password file others can read is refused, and sync stays off.
    @Test func aPasswordFileOthersCanReadIsRefused() throws {
        let server = try RadicaleServer(python: try Self.python())
        let directory = TemporaryDirectory()
        let config = server.syncConfig(in: directory, interval: "1h")
        chmod(directory.path + "/sync-password", 0o644)
        let daemon = DaemonProcess(directory: directory, config: config)
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let log = DesktopDaemon.waitForLog(daemon) { $0.contains { $0.hasPrefix("Sync:") } }
        #expect(log.contains { $0.contains("must be a file of your own that only you can read (chmod 600)") }, "\(log)")
        let failed = try Alarmctl.run(["sync"], daemon)
        #expect(failed.status == 1 && failed.standardError.contains("sync is off: PasswordFile"), "\(failed.standardError)")
    }
}

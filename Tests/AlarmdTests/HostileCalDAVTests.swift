// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// A CalDAV server of the tests' own (`python/hostile_caldav.py`, on
/// 127.0.0.1) whose replies are attacks on the client, against a real
/// alarmd syncing with it. Whatever the server sends: alarmd keeps its pid,
/// a reminder due during the rounds rings on time, alarmd's resident memory
/// stays under 100 MB, no local item or field is lost, and no request
/// carries the credentials to any origin but the configured one.
@Suite(.serialized) struct HostileCalDAVTests {
    /// One run of the hostile server (or of its sink, which only records).
    final class Server {
        let process = Process()
        let port: Int
        let log: String
        let directory: TemporaryDirectory

        init(_ arguments: [String], directory: TemporaryDirectory, name: String) throws {
            self.directory = directory
            log = directory.path + "/\(name).jsonl"
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [ICalendarTests.packageRoot + "/Tests/AlarmdTests/python/hostile_caldav.py", "--log", log, "--lifetime", "300"] + arguments
            let out = PipeCollector(), err = PipeCollector()
            process.standardOutput = out.pipe
            process.standardError = err.pipe
            process.standardInput = FileHandle.nullDevice
            let process = self.process
            try process.run()
            guard waitUntil(timeout: 20, { out.text.contains("PORT ") || !process.isRunning }),
                  let line = out.text.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }), let port = Int(line.dropFirst(5)) else {
                throw HarnessError(description: "hostile_caldav.py \(arguments) did not start: \(err.text)")
            }
            self.port = port
        }

        deinit { endProcess(process) }

        /// Every request it saw, one object each.
        var requests: [[String: Any]] {
            guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    /// A started alarmd in `directory` syncing every `interval` with `server`'s collection.
    static func syncingDaemon(_ directory: TemporaryDirectory, with server: Server, interval: String = "1s") throws -> DaemonProcess {
        let password = directory.path + "/sync-password"
        try #require(FileManager.default.createFile(atPath: password, contents: Data("s3cret\n".utf8), attributes: [.posixPermissions: 0o600]))
        let daemon = DaemonProcess(directory: directory, config: "[Sync]\nURL=http://127.0.0.1:\(server.port)/cal/\nUser=alice\nPasswordFile=\(password)\nInterval=\(interval)\n")
        try daemon.startAndWaitReady()
        return daemon
    }

    /// The items as an export has them, without what changes by itself.
    static func items(_ daemon: DaemonProcess) throws -> String {
        let document = try Alarmctl.json(["export"], daemon)
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    struct Outcome {
        let daemon: DaemonProcess
        let main: Server
        let sink: Server
        let peakRSS: Int
        let before: String
        let after: String
        let lateness: TimeInterval?
    }

    /// alarmd with items of every kind (a command, a reminder's place,
    /// microseconds in `created`), syncing every second with a server in
    /// `mode` for `seconds`, while a reminder falls due in the middle.
    static func run(_ mode: String, _ extra: [String] = [], seconds: TimeInterval = 8) throws -> Outcome {
        let directory = TemporaryDirectory()
        let sink = try Server(["--sink"], directory: directory, name: "sink")
        let main = try Server(["--mode", mode, "--sink-port", String(sink.port)] + extra, directory: directory, name: "main")
        let daemon = try syncingDaemon(directory, with: main)
        _ = try Alarmctl.ok(["add", "7:00", "--label", "Kept", "--days", "weekdays", "--command", "/bin/echo hello"], daemon)
        for title in ["One", "Two", "Three", "Four"] { _ = try Alarmctl.ok(["remind", "add", title, "--at", "2099-01-01 09:00"], daemon) }
        let due = Date().addingTimeInterval(seconds / 2)
        let added = try Alarmctl.json(["remind", "add", "Due now", "--at", ISO8601DateFormatter().string(from: due)], daemon)
        let dueID = ((added["reminder"] as? [String: Any])?["id"] as? String) ?? ""
        let before = try items(daemon)
        let pid = daemon.process.processIdentifier
        var peak = 0
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if let rss = residentBytes(of: pid) { peak = max(peak, rss) }
            usleep(100_000)
        }
        #expect(daemon.process.isRunning && daemon.process.processIdentifier == pid, "alarmd \(mode): the daemon did not survive; stderr: \(daemon.standardError)")
        let events = try Alarmctl.json(["history", "--kind", "fired"], daemon)["events"] as? [[String: Any]] ?? []
        let fired = events.first { $0["id"] as? String == dueID }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        func instant(_ key: String) -> Date? {
            (fired?[key] as? String).flatMap { formatter.date(from: $0) ?? ISO8601DateFormatter().date(from: $0) }
        }
        let lateness = instant("actual").flatMap { actual in instant("scheduled").map { actual.timeIntervalSince($0) } }
        // The reminder that rang changed its own state; compare the rest.
        let after = try items(daemon)
        return Outcome(daemon: daemon, main: main, sink: sink, peakRSS: peak, before: before, after: after, lateness: lateness)
    }

    /// The guarantees every hostile reply must leave intact.
    static func check(_ outcome: Outcome, _ mode: String) {
        defer { outcome.daemon.stop() }
        #expect(outcome.peakRSS > 0 && outcome.peakRSS < 100 << 20, "\(mode): alarmd's RSS reached \(outcome.peakRSS >> 20) MB")
        #expect(outcome.lateness.map { $0 < 1.0 } == true, "\(mode): the reminder due during the rounds rang \(outcome.lateness.map { "\($0) s late" } ?? "never")")
        #expect(outcome.sink.requests.isEmpty, "\(mode): requests reached another origin: \(outcome.sink.requests)")
        let foreign = outcome.main.requests.filter { ($0["host"] as? String) != "127.0.0.1:\(outcome.main.port)" }
        #expect(foreign.isEmpty, "\(mode): requests named another host: \(foreign)")
        // No item or field lost: everything but the rung reminder reads as before.
        #expect(Self.withoutRung(outcome.after) == Self.withoutRung(outcome.before), "\(mode): items changed:\nbefore \(outcome.before)\nafter  \(outcome.after)")
    }

    /// The export with the rung reminder's fields that ringing changes
    /// (`updated`) left out: what the server must not have touched.
    static func withoutRung(_ export: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(export.utf8)) as? [String: Any],
              var document = object["document"] as? [String: Any] else { return export }
        var reminders = document["reminders"] as? [[String: Any]] ?? []
        for index in reminders.indices { reminders[index]["updated"] = nil }
        document["reminders"] = reminders
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: ["nested", "entity-bomb", "doctype", "userinfo", "suffix-host", "redirect", "no-href", "empty", "many-headers"])
    func aHostileReplyLeavesAlarmdRingingAndItsItemsWhole(mode: String) throws {
        Self.check(try Self.run(mode), mode)
    }

    /// A reply of over 64 MiB, and a server that never answers: the round
    /// is given up on; alarmd rings meanwhile.
    @Test(arguments: ["huge", "hang"])
    func aServerThatFloodsOrStallsCostsOnlyTheRound(mode: String) throws {
        Self.check(try Self.run(mode, mode == "hang" ? ["--hang", "20"] : []), mode)
    }

    /// A listing that cannot be read changes nothing here, and one that
    /// lacks most items removes them only when the next round says the same.
    @Test func listingsRemoveOnlyWhatTheServerPositivelySaysIsGone() throws {
        let directory = TemporaryDirectory()
        let modeFile = directory.path + "/mode"
        try "normal".write(toFile: modeFile, atomically: true, encoding: .utf8)
        let main = try Server(["--mode-file", modeFile], directory: directory, name: "main")
        // Rounds only when asked (the interval is long).
        let daemon = try Self.syncingDaemon(directory, with: main, interval: "1h")
        defer { daemon.stop() }
        for title in ["One", "Two", "Three", "Four"] {
            _ = try Alarmctl.ok(["remind", "add", title, "--at", "2099-01-01 09:00", "--command", "/bin/echo \(title)"], daemon)
        }
        _ = try Alarmctl.run(["sync"], daemon)
        #expect(main.requests.filter { $0["method"] as? String == "PUT" }.count >= 4, "\(main.requests)")
        let before = try Self.items(daemon)
        for mode in ["no-href", "empty"] {
            try mode.write(toFile: modeFile, atomically: true, encoding: .utf8)
            let round = try Alarmctl.run(["sync"], daemon)
            #expect(round.status != 0, "\(mode): the round was taken as good: \(round.standardOutput)")
            #expect(try Self.items(daemon) == before, "\(mode): items changed")
        }
        // A well-formed listing without the four: held for one round, then removed.
        try "forget".write(toFile: modeFile, atomically: true, encoding: .utf8)
        _ = try Alarmctl.run(["sync"], daemon)
        #expect(try Self.items(daemon) == before, "the first round that lacked them removed them")
        _ = try Alarmctl.run(["sync"], daemon)
        let left = (try Alarmctl.json(["remind", "list", "--all"], daemon)["reminders"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
        #expect(Set(left).isDisjoint(with: ["One", "Two", "Three", "Four"]), "the second round's listing said the same, yet \(left) stay")
    }

    /// The sync process is sandboxed: no new privileges, a system call filter,
    /// bounded memory and CPU time, no core file.
    @Test func theSyncProcessRunsInItsSandbox() throws {
        let directory = TemporaryDirectory()
        let main = try Server(["--mode", "hang", "--hang", "30"], directory: directory, name: "main")
        let daemon = try Self.syncingDaemon(directory, with: main)
        defer { daemon.stop() }
        var child: pid_t?
        var status = ""
        // Found once it has sandboxed itself, before it reads anything.
        _ = waitUntil(timeout: 10) {
            child = Self.children(of: daemon.process.processIdentifier, named: "alarmd-sync").first
            status = child.flatMap { try? String(contentsOfFile: "/proc/\($0)/status", encoding: .utf8) } ?? ""
            return status.contains("Seccomp:\t2")
        }
        let pid = try #require(child, "no alarmd-sync under alarmd")
        #expect(status.contains("NoNewPrivs:\t1"), "\(status)")
        #expect(status.contains("Seccomp:\t2"), "\(status)")
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        func limit(_ name: String) -> String? {
            limits.split(separator: "\n").first { $0.hasPrefix(name) }.map { $0.dropFirst(name.count).split(separator: " ").first.map(String.init) ?? "" }
        }
        #expect(limit("Max address space") == String(1 << 30), "\(limits)")
        #expect(limit("Max cpu time") == "600", "\(limits)")
        #expect(limit("Max core file size") == "0", "\(limits)")
        #expect(limit("Max open files") == "64", "\(limits)")
        // Its environment is its own: no session bus, no socket paths.
        let environment = try String(contentsOfFile: "/proc/\(pid)/environ", encoding: .utf8).split(separator: "\0")
        #expect(!environment.contains { $0.hasPrefix("XDG_RUNTIME_DIR=") || $0.hasPrefix("DBUS_SESSION_BUS_ADDRESS=") || $0.hasPrefix("NOTIFY_SOCKET=") }, "\(environment)")
    }

    /// The sync process killed in the middle of a round (the server never
    /// answers): alarmd keeps its pid, says why in `status`, and starts a
    /// new process after its back-off.
    @Test func aSyncProcessKilledMidRoundIsStartedAgain() throws {
        let directory = TemporaryDirectory()
        let main = try Server(["--mode", "hang", "--hang", "60"], directory: directory, name: "main")
        let daemon = try Self.syncingDaemon(directory, with: main)
        defer { daemon.stop() }
        let alarmd = daemon.process.processIdentifier
        var first: pid_t?
        _ = waitUntil(timeout: 10) {
            first = Self.children(of: alarmd, named: "alarmd-sync").first
            return first != nil && !main.requests.isEmpty
        }
        let killed = try #require(first, "no alarmd-sync under alarmd")
        #expect(kill(killed, SIGKILL) == 0)
        var status = ""
        #expect(waitUntil(timeout: 5) {
            status = (try? Alarmctl.ok(["status"], daemon)) ?? ""
            return status.contains("killed by signal 9")
        }, "status does not say the sync process died: \(status)")
        var second: pid_t?
        #expect(waitUntil(timeout: 15) {
            second = Self.children(of: alarmd, named: "alarmd-sync").first
            return second != nil && second != killed
        }, "no new sync process")
        #expect(daemon.process.isRunning && daemon.process.processIdentifier == alarmd)
    }

    static func children(of parent: pid_t, named name: String) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return false }
            let comm = stat[stat.index(after: open)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return comm == name.prefix(15) && fields.count > 2 && Int32(fields[1]) == parent
        }
    }
}

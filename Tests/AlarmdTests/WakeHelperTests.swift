// SPDX-License-Identifier: Apache-2.0
@testable import AlarmDaemon
import AlarmProtocol
import Foundation
import Glibc
import Testing

/// The `alarmd-wake` system helper as a real process, socket-activated by
/// `systemd-socket-activate` as systemd would, with the Python `varlink`
/// package as its clients, run as two users (root and `nobody`, through
/// `setpriv`). Its `CLOCK_REALTIME_ALARM` timer is read back from
/// `/proc/PID/fdinfo`.
@Suite(.serialized) struct WakeHelperTests {
    static let nobody: UInt32 = 65534

    /// One helper and the socket it listens on, open to every user as
    /// `alarmd-wake.socket` makes it (`SocketMode=0666`).
    final class Helper {
        let directory: TemporaryDirectory
        let socketPath: String
        let process = Process()
        private let output = PipeCollector()

        init(directory: TemporaryDirectory = TemporaryDirectory(), name: String = "io.alarmd.Wake", idleExit: Int = 60, options: [String] = []) throws {
            self.directory = directory
            socketPath = directory.path + "/" + name
            chmod(directory.path, 0o755)
            // Under `timeout`, as InstallTests does: it bounds the helper's life
            // if the test is interrupted, and with systemd-socket-activate as a
            // direct child Foundation stops reaping the runner's other children.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = ["-s", "KILL", "300", "/usr/bin/systemd-socket-activate", "-l", socketPath,
                                 Self.binary, "--idle-exit", String(idleExit)] + options
            process.environment = ["PATH": "/usr/bin:/bin"]
            process.standardOutput = output.pipe
            process.standardError = output.pipe
            try process.run()
            guard waitUntil(timeout: 10, { FileManager.default.fileExists(atPath: socketPath) }) else {
                throw HarnessError(description: "systemd-socket-activate did not listen on \(socketPath): \(output.text)")
            }
            chmod(socketPath, 0o666)
        }

        deinit {
            for child in InstallTests.children(of: process.processIdentifier) { kill(child, SIGKILL) }
            endProcess(process)
        }

        /// The helper this build made, or the one `ALARMD_TEST_WAKE_HELPER`
        /// names (an installed one, or another build's to compare with).
        static var binary: String { ProcessInfo.processInfo.environment["ALARMD_TEST_WAKE_HELPER"] ?? productsDirectory + "/alarmd-wake" }

        /// systemd-socket-activate execs the helper in its own process, the child of `timeout`.
        var pid: pid_t { InstallTests.children(of: process.processIdentifier).first ?? -1 }
        var log: String { output.text }

        /// Runs the client script as `uid`; one reply a line.
        func call(as uid: UInt32, _ arguments: [String]) throws -> [[String: Any]] {
            let python = try #require(PythonClientTests.interpreter().path, "no Python with the varlink package (make test installs it)")
            let script = PythonClientTests.packageRoot + "/Tests/AlarmdTests/python/wake_helper_client.py"
            let client = [script, socketPath] + arguments
            let result = uid == 0 ? Tool.run(python, client, timeout: 30)
                : Tool.run("/usr/bin/setpriv", ["--reuid", String(uid), "--regid", String(uid), "--clear-groups", python] + client, timeout: 30)
            guard result.status == 0 else { throw HarnessError(description: "client as uid \(uid) \(arguments): \(result.standardError)\nhelper: \(log)") }
            return try result.standardOutput.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        }

        func one(as uid: UInt32, _ arguments: [String]) throws -> [String: Any] {
            try #require(try call(as: uid, arguments).first)
        }

        /// One call written by hand; a failure says what the helper printed.
        func raw(_ json: String) throws -> VarlinkReply {
            do { return try RawSocket.call(socketPath, json) } catch { throw HarnessError(description: "\(error)\nhelper: \(log)") }
        }

        /// The instant the helper's wake-up timer expires at (see `WakeTests.wakeTimer`).
        var timer: Date?? { WakeTests.wakeTimer(pid) }
    }

    static func text(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
    }

    /// `SetWake` for `at` (an RFC 3339 text; `nil` clears) as alarmd sends
    /// it, on `socket`: `nil` when it was set, else why not, typed.
    static func set(_ at: String?, on socket: RawSocket) throws -> WakeCallFailure? {
        let call = WakeInterface.SetWake.call(.init(at: try at.map { try WakeInstant(rfc3339: $0) }))
        return try failure(socket.call(call.json.jsonText))
    }

    /// Why `reply` is no reply of `SetWake`, typed; `nil` when it is one.
    static func failure(_ reply: VarlinkReply) -> WakeCallFailure? {
        do throws(WakeCallFailure) {
            _ = try WakeInterface.SetWake.reply(reply)
            return nil
        } catch {
            return error
        }
    }

    static func at(_ reply: [String: Any]) -> Date? {
        ((reply["parameters"] as? [String: Any])?["at"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) }
    }

    @Test(.enabled(if: getuid() == 0, "the helper needs CAP_WAKE_ALARM and the test a second uid; CI runs as root"))
    func eachUserHasOneSlotTheTimerIsArmedForTheEarliestAndNoUserReachesAnothers() throws {
        let helper = try Helper()
        let later = Date().addingTimeInterval(2 * 3600).rounded, sooner = Date().addingTimeInterval(3600).rounded
        #expect(try helper.one(as: 0, ["set", Self.text(later)])["error"] == nil)
        #expect(WakeTests.near(helper.timer, later), "\(String(describing: helper.timer))")
        #expect(try helper.one(as: Self.nobody, ["set", Self.text(sooner)])["error"] == nil)
        #expect(WakeTests.near(helper.timer, sooner), "the earliest of both: \(String(describing: helper.timer))")
        #expect(Self.at(try helper.one(as: 0, ["get"])) == later)
        #expect(Self.at(try helper.one(as: Self.nobody, ["get"])) == sooner)

        // Who asks is the socket's peer, never a parameter.
        let impersonation = try helper.one(as: Self.nobody, ["raw", #"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":null,"uid":0}}"#])
        #expect(impersonation["error"] as? String == "io.alarmd.Wake.InvalidParameter")
        #expect((impersonation["parameters"] as? [String: Any])?["parameter"] as? String == "uid", "\(impersonation)")
        #expect(Self.at(try helper.one(as: 0, ["get"])) == later)

        // nobody clears its own: root's stays, and the timer moves to it.
        #expect(try helper.one(as: Self.nobody, ["clear"])["error"] == nil)
        #expect(Self.at(try helper.one(as: Self.nobody, ["get"])) == nil)
        #expect(Self.at(try helper.one(as: 0, ["get"])) == later)
        #expect(WakeTests.near(helper.timer, later), "\(String(describing: helper.timer))")
        // Nothing left: the timer is closed, not left armed.
        #expect(try helper.one(as: 0, ["clear"])["error"] == nil)
        #expect(helper.timer == nil, "\(String(describing: helper.timer))")
    }

    @Test(.enabled(if: getuid() == 0, "the helper needs CAP_WAKE_ALARM and the test a second uid; CI runs as root"))
    func limitsAndBadInputAreRefusedNamingWhatAndTheHelperServesOthers() throws {
        let helper = try Helper()
        let past = try helper.one(as: Self.nobody, ["set", "2020-01-01T00:00:00Z"])
        #expect(past["error"] as? String == "io.alarmd.Wake.InThePast", "\(past)")
        let far = try helper.one(as: Self.nobody, ["set", Self.text(Date().addingTimeInterval(401 * 86_400))])
        #expect(far["error"] as? String == "io.alarmd.Wake.TooFarAhead", "\(far)")
        #expect(try helper.one(as: Self.nobody, ["set", Self.text(Date().addingTimeInterval(399 * 86_400))])["error"] == nil)
        for bad in ["tomorrow", "2026-12-24 07:00", "2026-13-01T07:00:00Z"] {
            let reply = try helper.one(as: Self.nobody, ["set", bad])
            let parameters = reply["parameters"] as? [String: Any]
            #expect(reply["error"] as? String == "io.alarmd.Wake.InvalidParameter" && parameters?["parameter"] as? String == "at", "\(bad): \(reply)")
            #expect((parameters?["message"] as? String)?.contains(bad) == true, "names the value: \(reply)")
        }
        let number = try helper.one(as: Self.nobody, ["raw", #"{"method":"io.alarmd.Wake.SetWake","parameters":{"at":7}}"#])
        #expect((number["parameters"] as? [String: Any])?["message"] as? String == "at must be a string (an RFC 3339 instant) or null, got 7", "\(number)")
        let unknown = try helper.one(as: Self.nobody, ["raw", #"{"method":"io.alarmd.Wake.Reboot","parameters":{}}"#])
        #expect(unknown["error"] as? String == "org.varlink.service.MethodNotFound", "\(unknown)")
        let notJSON = try helper.one(as: Self.nobody, ["raw", "{\"method\":"])
        #expect(notJSON["error"] as? String == "io.alarmd.Wake.InvalidParameter", "\(notJSON)")

        // Over 4 KiB: refused by name, and the connection closed.
        let oversize = try helper.one(as: Self.nobody, ["oversize", "5000"])
        #expect(oversize["error"] as? String == "io.alarmd.Wake.InvalidParameter", "\(oversize)")
        #expect((oversize["parameters"] as? [String: Any])?["message"] as? String == "a message may be at most 4096 bytes")
        #expect(oversize["closed"] as? Bool == true)

        // Ten changes a second per user; the eleventh is refused and changes nothing.
        let target = Self.text(Date().addingTimeInterval(7200))
        let burst = try helper.call(as: Self.nobody, ["burst", "11", target])
        #expect(burst.prefix(10).allSatisfy { $0["error"] == nil }, "\(burst)")
        #expect(burst.last?["error"] as? String == "io.alarmd.Wake.TooManyChanges", "\(burst)")
        #expect((burst.last?["parameters"] as? [String: Any])?["limit"] as? Int == 10)
        // Another user is not held back by it.
        #expect(try helper.one(as: 0, ["set", target])["error"] == nil)
        #expect(Self.at(try helper.one(as: 0, ["get"])) == ISO8601DateFormatter().date(from: target))
        #expect(helper.process.isRunning, "the helper survived all of it: \(helper.log)")
    }

    /// Malformed calls sent to the helper itself as raw bytes, each read back
    /// as alarmd reads replies: the typed error for each, and a helper that
    /// goes on serving.
    @Test(.enabled(if: getuid() == 0, "the helper needs CAP_WAKE_ALARM; CI runs as root"))
    func malformedCallsGetTheirTypedErrorFromTheHelperItself() throws {
        let helper = try Helper()
        func failure(_ json: String) throws -> WakeCallFailure? { Self.failure(try helper.raw(json)) }
        let set = #"{"method":"io.alarmd.Wake.SetWake","parameters":"#
        // Wrong types.
        #expect(try failure(set + #"{"at":7}}"#) == .refused(.invalidParameter(parameter: "at", message: "at must be a string (an RFC 3339 instant) or null, got 7")))
        #expect(try failure(set + #"{"at":{"uid":0}}}"#)
                == .refused(.invalidParameter(parameter: "at", message: "at must be a string (an RFC 3339 instant) or null, got an object")))
        guard case .refused(.invalidParameter("message", _))? = try failure(set + "[]}") else { Issue.record("parameters as an array was taken"); return }
        // Missing: no method, or no interface in it.
        for json in [#"{"parameters":{}}"#, #"{"method":"SetWake"}"#, "{}"] {
            guard case .refused(.invalidParameter("message", _))? = try failure(json) else { Issue.record("\(json) was not refused as a message"); continue }
        }
        // Oversized: a value, a member's name, and a whole message.
        let long = String(repeating: "7", count: 3000)
        #expect(try failure(set + #"{"at":"\#(long)"}}"#)
                == .refused(.invalidParameter(parameter: "at", message: "at must be an RFC 3339 instant with an offset, such as 2026-12-24T06:59:00Z, got \"\(long.prefix(64))\"")))
        let name = String(repeating: "u", count: 3000)
        #expect(try failure(set + #"{"\#(name)":0}}"#)
                == .refused(.invalidParameter(parameter: String(name.prefix(64)), message: "\"\(name.prefix(64))\" is not a parameter of this method")))
        let oversize = try RawSocket(path: helper.socketPath)
        #expect(oversize.sendMessage(set + #"{"at":""# + String(repeating: "x", count: 5000) + #""}}"#))
        #expect(Self.failure(try oversize.reply()) == .refused(.invalidParameter(parameter: "message", message: "a message may be at most 4096 bytes")))
        if case .closed = oversize.receive(timeout: 5) {} else { Issue.record("the connection stayed open after a message over the limit") }
        // Unknown method and interface.
        #expect(try failure(#"{"method":"io.alarmd.Wake.Reboot","parameters":{}}"#) == .methodNotFound(method: "io.alarmd.Wake.Reboot"))
        #expect(try failure(#"{"method":"io.alarmd.ListAlarms"}"#) == .interfaceNotFound(interface: "io.alarmd"))
        // Refusals set nothing; the helper still serves.
        let none = try WakeInterface.GetWake.reply(helper.raw(WakeInterface.GetWake.call(WakeNoMembers()).json.jsonText))
        #expect(none.at == nil)
        #expect(helper.process.isRunning, "\(helper.log)")
    }

    @Test(.enabled(if: getuid() == 0, "the helper needs CAP_WAKE_ALARM; CI runs as root"))
    func anInstantThatPassesIsClearedAndTheHelperExitsWhenNoneIsLeft() throws {
        let helper = try Helper(idleExit: 1)
        let soon = Date().addingTimeInterval(2.5).rounded
        #expect(try helper.one(as: Self.nobody, ["set", Self.text(soon)])["error"] == nil)
        #expect(WakeTests.near(helper.timer, soon))
        #expect(helper.process.isRunning)
        // The instant passes: the slot goes, and a second later the helper.
        #expect(waitUntil(timeout: 10) { !helper.process.isRunning }, "still running: \(helper.log)")
        #expect(helper.process.terminationStatus == 0)
        #expect(Date() >= soon.addingTimeInterval(1), "exited before the instant passed")
    }

    @Test(.enabled(if: getuid() == 0, "the helper needs CAP_WAKE_ALARM; CI runs as root"))
    func aConnectionThatSendsNoWholeMessageForTenSecondsIsClosedButTheOneHoldingAWakeUpIsKept() throws {
        let helper = try Helper()
        let accepted = Date()
        let silent = try RawSocket(path: helper.socketPath)
        // A message that never ends, a byte a second: bytes alone do not count.
        let trickle = try RawSocket(path: helper.socketPath)
        let holder = try RawSocket(path: helper.socketPath)
        let later = Self.text(Date().addingTimeInterval(3600))
        #expect(try Self.set(later, on: holder) == nil)
        #expect(silent.receive(timeout: 0.5) == .timedOut(pending: []), "open at first")
        #expect(trickle.send("{"))
        var closed: Date?
        while closed == nil, Date().timeIntervalSince(accepted) < 15 {
            if case .closed = silent.receive(timeout: 1) { closed = Date() }
            trickle.send(" ")
        }
        let after = try #require(closed, "the silent connection was still open 15 s after it was accepted").timeIntervalSince(accepted)
        #expect(after >= 9 && after <= 12, "closed \(after) s after it was accepted, not 10")
        if case .closed = trickle.receive(timeout: 2) {} else { Issue.record("the trickling connection is still open") }
        // The connection that set the wake-up holds it: kept, and it still answers.
        let held = try WakeInterface.GetWake.reply(holder.call(WakeInterface.GetWake.call(WakeNoMembers()).json.jsonText)).at
        #expect(held == (try WakeInstant(rfc3339: later)), "\(String(describing: held))")
        #expect(helper.process.isRunning, "\(helper.log)")
    }

    @Test(.enabled(if: getuid() == 0, "the helper needs CAP_WAKE_ALARM; CI runs as root"))
    func theConnectionHoldingAWakeUpIsClosedOnceTheWakeUpIsClearedOrHasPassed() throws {
        let helper = try Helper(options: ["--connection-timeout", "1"])
        // Cleared through another connection: the holder's deadline starts then.
        let holder = try RawSocket(path: helper.socketPath)
        #expect(try Self.set(Self.text(Date().addingTimeInterval(3600)), on: holder) == nil)
        #expect(holder.receive(timeout: 2.5) == .timedOut(pending: []), "the holder is kept past the deadline")
        #expect(try Self.set(nil, on: RawSocket(path: helper.socketPath)) == nil)
        let cleared = Date()
        guard case .closed = holder.receive(timeout: 5) else { Issue.record("the holder was kept after its wake-up was cleared"); return }
        #expect(Date().timeIntervalSince(cleared) >= 0.5, "closed before its deadline")

        // Passed: the same, from the instant.
        let soon = Date().addingTimeInterval(2.5).rounded
        let passing = try RawSocket(path: helper.socketPath)
        #expect(try Self.set(Self.text(soon), on: passing) == nil)
        guard case .closed = passing.receive(timeout: 8) else { Issue.record("the holder was kept after its wake-up passed"); return }
        #expect(Date() >= soon.addingTimeInterval(0.9), "closed before the wake-up passed and the deadline after it")
    }

    @Test(.enabled(if: getuid() == 0, "dropping the capability with setpriv needs root's bounding set"))
    func alarmdWithoutCapWakeAlarmUsesTheHelperWhenTheUserManagerRefusesAndSetsItAgainAfterARestart() throws {
        let manager = try WakeTests.MockUserManager(directory: TemporaryDirectory())
        _ = try manager.run(["refuse"])
        let directory = TemporaryDirectory()
        let first = try Helper(directory: directory, name: "first")
        // alarmd reaches the helper through a link, so a second one can take over the name.
        let link = directory.path + "/io.alarmd.Wake"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: first.socketPath)
        let daemon = WakeTests.withoutCapWakeAlarm(DaemonProcess(environment: ["DBUS_SESSION_BUS_ADDRESS": manager.bus.address, "ALARMD_WAKE_HELPER": link]))
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let time = WakeTests.hhmm(Date().addingTimeInterval(3 * 3600))
        let added = try Alarmctl.json(["add", time, "--label", "Helped"], daemon)
        let id = try #require((added["alarm"] as? [String: Any])?["id"] as? String)
        let expected = WakeTests.nextOccurrence(time).addingTimeInterval(-60)
        _ = WakeTests.wake(of: daemon) { $0?["method"] as? String == "helper" }
        #expect(WakeTests.near(first.timer, expected), "\(String(describing: first.timer)) for \(expected)")
        #expect(try Alarmctl.ok(["status"], daemon).contains("via the alarmd-wake helper"))

        // The helper stops (an upgrade): alarmd sets the wake-up again with the next one.
        let second = try Helper(directory: directory, name: "second")
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: second.socketPath)
        kill(first.pid, SIGTERM)
        #expect(waitUntil(timeout: 5) { WakeTests.near(second.timer, expected) }, "\(String(describing: second.timer)); alarmd: \(daemon.standardError)")

        // Disabled: the wake-up is cleared with the helper.
        try Alarmctl.ok(["disable", id], daemon)
        #expect(waitUntil(timeout: 5) { second.timer == nil }, "\(String(describing: second.timer))")
    }
}

private extension Date {
    /// Whole seconds: the wire form the tests compare with.
    var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import Foundation
import Glibc
import Testing

/// 64 clients × 1,000 mixed requests, four `Watch` subscribers (one never
/// reads), and a reminder firing every 100 ms throughout: every request is
/// answered correctly, every firing happens, every reading subscriber gets
/// every firing, the one that does not read is cut off, and memory stays
/// bounded.
///
/// How late the firings were is printed, not asserted tightly: timing is
/// judged in bench/ (the issue's figure is 50 ms; see BENCHMARKS.md). The
/// bound here (one second) only catches a firing held up by the load.
@Suite(.serialized) struct LoadTests {
    static let clients = 64
    static let requestsPerClient = Int(ProcessInfo.processInfo.environment["ALARMD_LOAD_REQUESTS"] ?? "") ?? 1_000

    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var answered = 0
        private(set) var failures: [String] = []
        func ok() { lock.lock(); answered += 1; lock.unlock() }
        func fail(_ text: String) { lock.lock(); if failures.count < 20 { failures.append(text) }; lock.unlock() }
    }

    /// A subscriber that reads every event, keeping the fired ones by id.
    final class Subscriber: @unchecked Sendable {
        private let lock = NSLock()
        private var fired: [String: (scheduled: String, actual: String)] = [:]
        private var stop = false
        private let socket: RawSocket
        private(set) var thread: Thread!

        init(socketPath: String) throws {
            socket = try RawSocket(path: socketPath)
            socket.sendMessage(#"{"method":"io.alarmd.Watch","more":true}"#)
            thread = Thread { [self] in run() }
            thread.start()
        }

        private func run() {
            while !stopped {
                guard case .message(let bytes) = socket.receive(timeout: 1) else { continue }
                guard let reply = try? VarlinkReply(message: bytes), case .parameters(let parameters, _) = reply,
                      let event = parameters["event"]?.objectValue, event["kind"] == "fired",
                      let id = event["id"]?.stringValue else { continue }
                record(id, scheduled: event["scheduled"]?.stringValue ?? "", actual: event["actual"]?.stringValue ?? "")
            }
            socket.close()
        }

        var stopped: Bool { lock.lock(); defer { lock.unlock() }; return stop }
        func finish() { lock.lock(); stop = true; lock.unlock() }
        func record(_ id: String, scheduled: String, actual: String) {
            lock.lock(); fired[id] = (scheduled, actual); lock.unlock()
        }
        var firedEvents: [String: (scheduled: String, actual: String)] { lock.lock(); defer { lock.unlock() }; return fired }
    }

    /// One client's mix: reads, adds, edits, switches and removals of its own
    /// alarms; each reply is checked against what was asked.
    static func client(_ socketPath: String, number: Int, tally: Tally) {
        guard let socket = try? RawSocket(path: socketPath) else { tally.fail("client \(number): cannot connect"); return }
        defer { socket.close() }
        var mine: [String] = []
        for request in 0..<requestsPerClient {
            let label = "L\(number)-\(request)"
            let call: String
            var check: (VarlinkReply) -> String? = { $0.error == nil ? nil : "error \($0.text)" }
            switch request % 8 {
            case 0, 4:
                let time = String(format: "%02d:%02d", (number + request) % 24, request % 60)
                call = #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"\#(time)","label":"\#(label)","days":["mon","fri"]}}}"#
                check = { reply in
                    guard let alarm = reply.parameters?["alarm"]?.objectValue, alarm["label"] == .string(label), alarm["time"] == .string(time),
                          let id = alarm["id"]?.stringValue else { return "AddAlarm: \(reply.text)" }
                    mine.append(id)
                    return nil
                }
            case 1:
                call = #"{"method":"io.alarmd.Status"}"#
                check = { if case .number? = $0.parameters?["alarms"] { return nil } else { return "Status: \($0.text)" } }
            case 2 where !mine.isEmpty:
                let id = mine[request % mine.count]
                call = #"{"method":"io.alarmd.UpdateAlarm","parameters":{"id":"\#(id)","fields":{"label":"\#(label)"}}}"#
                check = { $0.parameters?["alarm"]?.objectValue?["label"] == .string(label) ? nil : "UpdateAlarm: \($0.text)" }
            case 3 where !mine.isEmpty:
                let id = mine[request % mine.count]
                call = #"{"method":"io.alarmd.GetAlarm","parameters":{"id":"\#(id)"}}"#
                check = { $0.parameters?["alarm"]?.objectValue?["id"] == .string(id) ? nil : "GetAlarm: \($0.text)" }
            case 5:
                call = #"{"method":"io.alarmd.Upcoming","parameters":{"count":5}}"#
                check = { ($0.parameters?["firings"]?.arrayValue?.count ?? 0) <= 5 && $0.error == nil ? nil : "Upcoming: \($0.text)" }
            case 6 where !mine.isEmpty:
                let id = mine[request % mine.count]
                call = #"{"method":"io.alarmd.SetAlarmEnabled","parameters":{"id":"\#(id)","enabled":false}}"#
                check = { $0.parameters?["alarm"]?.objectValue?["enabled"] == .bool(false) ? nil : "SetAlarmEnabled: \($0.text)" }
            case 7 where !mine.isEmpty:
                let id = mine.removeFirst()
                call = #"{"method":"io.alarmd.RemoveAlarm","parameters":{"id":"\#(id)"}}"#
            default:
                call = #"{"method":"io.alarmd.GetAlarm","parameters":{"id":"0000"}}"#
                check = { $0.error?.name == "io.alarmd.NoSuchItem" ? nil : "GetAlarm 0000: \($0.text)" }
            }
            guard let reply = try? socket.call(call, timeout: 30) else {
                tally.fail("client \(number) request \(request): no reply to \(call)")
                return
            }
            if let problem = check(reply) { tally.fail("client \(number) request \(request): \(problem)") } else { tally.ok() }
        }
    }

    static func peakRSS(_ pid: pid_t) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    @Test func sixtyFourClientsFourWatchersAndAFiringEveryTenthOfASecond() throws {
        let daemon = DaemonProcess(config: "[Control]\nMaxClients=128\nWatchBacklog=64K\n")
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let utc = Zone.utc

        // A reminder every 100 ms for 60 s, starting in 2 s.
        let start = Date().addingTimeInterval(2)
        var dueByID: [String: Date] = [:]
        let adder = try RawSocket(path: daemon.socketPath)
        for index in 0..<600 {
            let due = start.addingTimeInterval(Double(index) / 10)
            let reply = try adder.call(#"{"method":"io.alarmd.AddReminder","parameters":{"title":"Tick \#(index)","due":"\#(WireTime.string(due, in: utc))"}}"#)
            let id = try #require(reply.parameters?["reminder"]?.objectValue?["id"]?.stringValue, "\(reply.text)")
            dueByID[id] = due
        }
        adder.close()

        let readers = try (0..<3).map { _ in try Subscriber(socketPath: daemon.socketPath) }
        let silent = try RawSocket(path: daemon.socketPath)
        silent.sendMessage(#"{"method":"io.alarmd.Watch","more":true}"#)

        usleep(UInt32(max(0, start.timeIntervalSinceNow) * 1_000_000))
        let tally = Tally()
        let socketPath = daemon.socketPath
        let threads = (0..<Self.clients).map { number in
            Thread { Self.client(socketPath, number: number, tally: tally) }
        }
        let began = Date()
        threads.forEach { $0.start() }
        // A hang guard, not a speed check (speed is bench/'s: §7 runs the same
        // 64 × 1,000 against a release build in about 14 s). In this debug build
        // the 64,000 requests take 225–320 s since a change crosses four queue
        // hand-offs on its way to the group commit; 300 s was too close.
        #expect(waitUntil(timeout: 900) { threads.allSatisfy(\.isFinished) }, "clients did not finish")
        let loadEnded = Date()
        // Let the firings during the load reach everyone.
        usleep(1_000_000)
        readers.forEach { $0.finish() }
        _ = waitUntil(timeout: 5) { readers.allSatisfy(\.thread.isFinished) }

        #expect(tally.failures.isEmpty, "\(tally.failures.joined(separator: "\n"))")
        #expect(tally.answered == Self.clients * Self.requestsPerClient)

        // Every firing due while the clients ran, within 50 ms, seen by every reader.
        let during = dueByID.filter { $0.value >= began && $0.value <= loadEnded }
        #expect(during.count >= 5, "the load ended before much fired: \(loadEnded.timeIntervalSince(began)) s")
        var worst = 0.0
        for (index, reader) in readers.enumerated() {
            let fired = reader.firedEvents
            for (id, due) in during {
                guard let event = fired[id] else {
                    Issue.record("reader \(index) missed the firing of \(id) due \(due)")
                    continue
                }
                guard let actual = try? WireTime.parse(event.actual, parameter: "actual", zone: utc) else { continue }
                worst = max(worst, actual.timeIntervalSince(due))
            }
        }
        #expect(worst <= 1.0, "a firing was \(Int(worst * 1000)) ms late")

        // The subscriber that never read was cut off: what was queued, then the end.
        var closed = false
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if case .closed = silent.receive(timeout: 1) { closed = true; break }
        }
        #expect(closed, "the non-reading Watch subscriber is still connected")

        let peak = try #require(Self.peakRSS(daemon.process.processIdentifier))
        print("LoadTests: \(tally.answered) requests in \(String(format: "%.1f", loadEnded.timeIntervalSince(began))) s, \(during.count) firings, worst lateness \(String(format: "%.1f", worst * 1000)) ms, peak RSS \(peak / 1024) MiB")
        #expect(peak < 256 * 1024, "peak RSS \(peak / 1024) MiB")
        #expect(daemon.process.isRunning)
    }
}

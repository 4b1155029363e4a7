// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmViewModels
import Foundation
import Glibc
import Testing

@Suite struct DaemonClientTests {
    @Test func aSocketThatDoesNotExistIsUnreachableAtItsPath() {
        let path = NSTemporaryDirectory() + "no-alarmd-\(UUID().uuidString)/io.alarmd"
        let client = DaemonClient(path: path)
        #expect(throws: DaemonFailure.unreachable(path: path, reason: .system(errno: ENOENT))) { try client.call(ListAlarms.self) }
        #expect(!client.isConnected)
        do throws(DaemonFailure) {
            _ = try client.call(Status.self)
        } catch {
            #expect(error.isConnectionProblem)
            #expect(error.text(in: Languages.english).hasPrefix("cannot reach alarmd at \(path): No such file or directory\n"))
        }
        #expect(StatusBanner(reachability: .unreachable(path: path), status: nil, language: Languages.english)?.problem == .unreachable)
    }

    @Test func aPathTooLongForASocketSaysSo() {
        let path = "/" + String(repeating: "x", count: 200)
        #expect(throws: DaemonFailure.unreachable(path: path, reason: .pathTooLong(limit: 107))) { try DaemonClient(path: path).call(ListAlarms.self) }
        #expect(VarlinkClient.Cause.pathTooLong(limit: 107).text(in: Languages.english) == "the path is longer than 107 bytes, the limit for a Unix socket")
    }

    @Test func theSocketPathFollowsTheEnvironment() {
        #expect(DaemonSocket.path(environment: ["ALARMD_SOCKET": "/b", "XDG_RUNTIME_DIR": "/c"], userID: 7) == "/b")
        #expect(DaemonSocket.path(environment: ["XDG_RUNTIME_DIR": "/c"], userID: 7) == "/c/alarmd/io.alarmd")
        #expect(DaemonSocket.path(environment: [:], userID: 7) == "/run/user/7/alarmd/io.alarmd")
    }

    @Test func aCallGetsItsReplyAndARefusalIsTyped() throws {
        let daemon = try FakeDaemon(replies: [
            [#"{"parameters":{"alarms":[]}}"#],
            [#"{"error":"io.alarmd.InvalidParameter","parameters":{"parameter":"fields.label","message":"fields.label must not be empty, got \"\""}}"#],
        ])
        let client = DaemonClient(path: daemon.path)
        #expect(try client.call(ListAlarms.self).alarms == [])
        // The first connection is closed after its reply (as the daemon
        // closes one idle for IdleTimeout=): the next call finds it closed
        // and connects again, rather than sending into it.
        #expect(daemon.waitForClosed(1))
        do throws(DaemonFailure) {
            _ = try client.call(AddAlarm.self, AddAlarm.Request(fields: AlarmFields()))
            Issue.record("no refusal")
        } catch {
            guard case .refused(let refusal) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(refusal.declared?.name == .invalidParameter)
            #expect(refusal.parameter == "fields.label")
            #expect(refusal.requirementAndValue?.requirement == "must not be empty")
            #expect(AlarmForm(today: 0, language: Languages.english).fieldError(for: refusal)?.field == .label)
        }
    }

    /// A reply that is not its method's (a daemon of another version) is
    /// `lost`, its reason naming the member, like one that is not Varlink.
    @Test func aReplyThatIsNotTheMethodsIsLostNamingTheMember() throws {
        let daemon = try FakeDaemon(replies: [[#"{"parameters":{"alarms":{"id":"x"}}}"#], [#"{"parameters":{"reminders":[]}}"#]])
        let client = DaemonClient(path: daemon.path)
        #expect(throws: DaemonFailure.lost(reason: .malformed(.invalidParameter("alarms", "must be an array of objects, got an object")))) {
            try client.call(ListAlarms.self)
        }
        #expect(daemon.waitForClosed(1))
        #expect(try client.call(ListReminders.self, ListReminders.Request(all: false)).reminders == [])
        // A Watch reply without its event reads as an event with a problem.
        let event = WatchEvent(reply: ["event": 3])
        #expect(event.problem == ItemDecodingError(field: "event", problem: .invalid("must be an object, got a number")))
    }

    @Test func aWatchReadsWhatHasArrivedWithoutWaitingAndThenSeesTheEnd() throws {
        let event = Wire.Event.json(kind: "changed", item: .alarm(Fixture.coreAlarm(0, 7, 30)), scheduled: nil, actual: Fixture.at("2026-03-09T06:00:00Z"),
                                    snoozeCount: 0, detail: "added", zone: .utc)
        let reply = String(decoding: VarlinkReply.parameters(["event": event], continues: true).json.jsonBytes, as: UTF8.self)
        let daemon = try FakeDaemon(replies: [[reply, reply]])
        let watch = try DaemonWatch(path: daemon.path)
        #expect(watch.descriptor >= 0)
        var events: [WatchEvent] = []
        var ended = false
        for _ in 0..<200 where !ended {
            do throws(DaemonFailure) {
                events += try watch.receiveEvents()
            } catch {
                #expect(error == .lost(reason: .closedByPeer))
                ended = true
            }
            if !ended { usleep(5_000) }
        }
        #expect(ended)
        #expect(events.count == 2)
        #expect(events.first?.alarm?.label == "Work")
        #expect(daemon.lock.withLock { daemon.calls.first?.contains("io.alarmd.Watch") } == true)
    }
}

/// A listener that answers each connection with `replies` (framed), then closes it.
final class FakeDaemon: @unchecked Sendable {
    let path: String
    let listener: Int32
    var calls: [String] = []
    var closed = 0
    let lock = NSLock()

    init(replies: [[String]]) throws {
        path = NSTemporaryDirectory() + "fake-\(UUID().uuidString.prefix(8)).sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        let address = try UnixSocketAddress(path)
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        #expect(bound == 0)
        #expect(listen(fd, 8) == 0)
        let listener = fd
        Thread.detachNewThread { [self] in
            for connection in replies {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(fd, &buffer, buffer.count)
                lock.withLock { calls.append(String(decoding: buffer[..<max(0, count)], as: UTF8.self)) }
                for reply in connection {
                    let bytes = Array(reply.utf8) + [0]
                    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                }
                close(fd)
                lock.withLock { closed += 1 }
            }
        }
    }

    /// Waits (up to 10 s) until `count` connections have been closed.
    func waitForClosed(_ count: Int) -> Bool {
        for _ in 0..<1000 {
            if lock.withLock({ closed >= count }) { return true }
            usleep(10_000)
        }
        return false
    }

    deinit {
        close(listener)
        unlink(path)
    }
}

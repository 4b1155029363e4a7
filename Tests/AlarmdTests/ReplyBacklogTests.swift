// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import Foundation
import Glibc
import Testing

/// Clients that send calls and never read the replies: what the daemon
/// holds for them is bounded, everyone else is served meanwhile, and they
/// are closed once their replies have waited the request timeout.
@Suite(.serialized) struct ReplyBacklogTests {
    static let status = #"{"method":"io.alarmd.Status"}"#
    static let list = #"{"method":"io.alarmd.ListReminders"}"#

    /// `POLLRDHUP`, which Glibc's module hides behind _GNU_SOURCE.
    static let pollReadHangUp: Int16 = 0x2000

    /// Whether the daemon has closed `socket`, told without reading from it
    /// (a read would let the daemon send more).
    static func isHungUp(_ socket: RawSocket) -> Bool {
        var poller = pollfd(fd: socket.fd, events: Self.pollReadHangUp, revents: 0)
        return poll(&poller, 1, 0) == 1 && poller.revents & (Int16(POLLHUP) | Self.pollReadHangUp) != 0
    }

    /// `count` reminders whose notes are 16 KiB each (4,000 four-byte
    /// characters, the most a note may hold), added 32 calls at a time.
    static func addReminders(_ count: Int, into daemon: DaemonProcess) throws {
        let notes = String(repeating: "\u{1F600}", count: 4000)
        let client = try RawSocket(path: daemon.socketPath)
        for first in stride(from: 0, to: count, by: 32) {
            let batch = first..<min(count, first + 32)
            let calls = batch.map { #"{"method":"io.alarmd.AddReminder","parameters":{"title":"r\#($0)","notes":"\#(notes)"}}"# }
            #expect(client.send(Array(calls.joined(separator: "\0").utf8) + [0]))
            for _ in batch {
                let reply = try client.reply(timeout: 30)
                guard reply.isParameters else { throw HarnessError(description: "AddReminder: \(reply.text.prefix(300))") }
            }
        }
    }

    /// Four connections each send 64 `ListReminders` of 320 reminders (a
    /// 5 MB reply each) at once and never read. Each connection holds at
    /// most the one reply it was writing when it went over its backlog: the
    /// daemon's resident set stays within 100 MB of what it was (unbounded,
    /// every reply was kept, 1.3 GB for all of them); `Status` on another
    /// connection is answered within 100 ms throughout; and the four are
    /// closed once they have been over their backlog for the request
    /// timeout (6 s here). Reminders with long notes rather than 10,000
    /// alarms: a debug build takes seconds to encode a list of 10,000
    /// alarms, too slow for the unbounded daemon to grow within a test.
    @Test func clientsThatNeverReadTheirRepliesAreBoundedAndClosed() throws {
        let daemon = DaemonProcess(config: "[Control]\nRequestTimeout=6s\nIdleTimeout=1h\n")
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let pid = daemon.process.processIdentifier
        try Self.addReminders(320, into: daemon)
        let reader = try RawSocket(path: daemon.socketPath)
        // One list read whole first: the encoder's own memory is in the baseline.
        #expect(reader.sendMessage(Self.list))
        guard case .message(let listed) = reader.receive(timeout: 30) else { Issue.record("no list"); return }
        #expect(listed.count > 5_000_000, "a list of 320 reminders is \(listed.count) bytes")
        #expect(try reader.call(Self.status).isParameters)
        let baseline = (residentBytes(of: pid) ?? 0)

        let pipelined = [UInt8]((0..<64).flatMap { _ in Array(Self.list.utf8) + [0] })
        let stalled = try (0..<4).map { _ in
            let client = try RawSocket(path: daemon.socketPath)
            var small: Int32 = 4096
            setsockopt(client.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
            #expect(client.send(pipelined))
            return client
        }
        let start = Date()
        var peak = baseline
        var slowest: TimeInterval = 0
        // Until just before the request timeout: long enough for 64 unbounded
        // replies to have been made many times over.
        while Date().timeIntervalSince(start) < 5.5 {
            let asked = Date()
            let answer = try reader.call(Self.status, timeout: 5)
            slowest = max(slowest, Date().timeIntervalSince(asked))
            #expect(answer.isParameters, "\(answer.text.prefix(300))")
            peak = max(peak, (residentBytes(of: pid) ?? 0))
            usleep(100_000)
        }
        #expect(peak - baseline < 100_000_000, "alarmd grew from \(baseline >> 20) MiB to \(peak >> 20) MiB")
        #expect(slowest < 0.1, "Status took \(Int(slowest * 1000)) ms while clients did not read")
        #expect(stalled.allSatisfy { !Self.isHungUp($0) }, "closed before the request timeout")

        // Closed once over their backlog for 6 s; the reader carries on.
        #expect(waitUntil(timeout: 5) { stalled.allSatisfy(Self.isHungUp) }, "still open \(Date().timeIntervalSince(start)) s after")
        #expect(Date().timeIntervalSince(start) >= 5.9)
        #expect(try reader.call(Self.status).isParameters)
        reader.sendMessage(Self.list)
        guard case .message(let again) = reader.receive(timeout: 30) else { Issue.record("no second list"); return }
        #expect(again.count == listed.count)
    }
}

import AlarmProtocol
import Foundation
import Glibc
import Testing

/// The limits that protect the scheduler from clients, set small through the
/// configuration so that the tests see them act.
@Suite struct ControlLimitsTests {
    static let status = #"{"method":"io.alarmd.Status"}"#

    @Test func aSilentConnectionIsClosedAfterTheIdleTimeout() throws {
        let daemon = DaemonProcess(config: "[Control]\nIdleTimeout=1s\n")
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let silent = try RawSocket(path: daemon.socketPath)
        let busy = try RawSocket(path: daemon.socketPath)
        let start = Date()
        // The busy one talks every 0.4 s and stays; the silent one is dropped.
        for _ in 0..<5 {
            #expect(busy.sendMessage(Self.status))
            #expect(busy.receive(timeout: 2).isMessage)
            usleep(400_000)
        }
        let received = silent.receive(timeout: 5)
        #expect(received == .closed(pending: []), "got \(received)")
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(busy.sendMessage(Self.status))
        #expect(busy.receive(timeout: 2).isMessage)
    }

    @Test func connectionsBeyondTheLimitAreToldAndClosed() throws {
        let daemon = DaemonProcess(config: "[Control]\nMaxClients=2\n")
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let first = try RawSocket(path: daemon.socketPath)
        let second = try RawSocket(path: daemon.socketPath)
        for client in [first, second] {
            #expect(client.sendMessage(Self.status))
            #expect(client.receive(timeout: 5).isMessage)
        }
        let third = try RawSocket(path: daemon.socketPath)
        let refusal = try third.reply(timeout: 5)
        guard case .error(let error) = refusal else { Issue.record("third connection got \(refusal)"); return }
        #expect(error.name == "io.alarmd.InvalidRequest")
        #expect(error.description.contains("too many connections (limit 2)"))
        #expect(third.receive(timeout: 5) == .closed(pending: []))
        // Room again once one leaves.
        first.close()
        #expect(waitUntil(timeout: 5) {
            guard let client = try? RawSocket(path: daemon.socketPath), client.sendMessage(Self.status) else { return false }
            if case .parameters? = try? client.reply(timeout: 2) { return true }
            return false
        })
    }

    @Test func aWatchSubscriberThatStopsReadingIsDisconnected() throws {
        let daemon = DaemonProcess(config: "[Control]\nWatchBacklog=1K\nIdleTimeout=1h\n")
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let stalled = try RawSocket(path: daemon.socketPath)
        // A tiny receive buffer on our side, so the kernel holds little for us.
        var small: Int32 = 4096
        setsockopt(stalled.fd, SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        #expect(stalled.sendMessage(#"{"method":"io.alarmd.Watch","more":true}"#))
        let reader = try RawSocket(path: daemon.socketPath)
        #expect(reader.sendMessage(#"{"method":"io.alarmd.Watch","more":true}"#))
        let writer = try RawSocket(path: daemon.socketPath)
        let notes = String(repeating: "n", count: 3000)
        var added = 0
        // Each addition is a `changed` event of a few KiB; stop once the stalled
        // subscriber is gone (checked without reading its events).
        while added < 400 {
            let reply = try writer.call(#"{"method":"io.alarmd.AddReminder","parameters":{"title":"r\#(added)","notes":"\#(notes)"}}"#)
            guard case .parameters = reply else { Issue.record("AddReminder failed: \(reply)"); return }
            added += 1
            _ = reader.receive(timeout: 5)
        }
        // Everything the kernel buffered for the stalled subscriber, then the close.
        var events = 0
        var outcome = stalled.receive(timeout: 5)
        while outcome.isMessage {
            events += 1
            outcome = stalled.receive(timeout: 5)
        }
        #expect(outcome == .closed(pending: []) || { if case .closed = outcome { return true } else { return false } }(), "got \(outcome) after \(events) events")
        #expect(events < added, "the stalled subscriber still got all \(added) events")
        // The daemon keeps serving.
        #expect(try writer.call(Self.status).isParameters)
    }
}

extension RawSocket.Received {
    var isMessage: Bool { if case .message = self { return true } else { return false } }
}

extension VarlinkReply {
    var isParameters: Bool { if case .parameters = self { return true } else { return false } }
}

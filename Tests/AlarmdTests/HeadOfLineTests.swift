// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import Foundation
import Testing

/// A list of every item is built and encoded away from the control queue, so
/// while three clients each list 20,000 alarms, a `Status` on a fourth
/// connection is answered before any of the lists has begun to arrive. (It
/// was answered after them: the control queue built each list in turn.) The
/// check is on the order of the replies, not on a time.
@Suite struct HeadOfLineTests {
    @Test(.timeLimit(.minutes(3)))
    func aStatusIsNotKeptWaitingBehindListsOfEveryAlarm() throws {
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        // Enough that a list takes far longer to build than a Status (the
        // order is what is checked), small enough not to crowd the suite.
        let count = 20_000
        let alarms = (0..<count).map { index in
            #"{"time":"\#(String(format: "%02d:%02d", index / 60 % 24, index % 60))","label":"a\#(index)","days":[],"id":"\#(UUID().uuidString.lowercased())"}"#
        }
        let document = #"{"method":"io.alarmd.Import","parameters":{"document":{"format":"alarmd","version":1,"alarms":["# + alarms.joined(separator: ",") + "],\"reminders\":[]}}}"
        let imported = try RawSocket.call(daemon.socketPath, document, timeout: 120)
        try #require(imported.parameters?["alarms"] == JSONValue(count), "\(imported.text.prefix(300))")

        let listers = try (0..<3).map { _ in try RawSocket(path: daemon.socketPath) }
        for lister in listers { #expect(lister.sendMessage(#"{"method":"io.alarmd.ListAlarms"}"#)) }
        let status = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.Status"}"#, timeout: 60)
        #expect(status.parameters?["alarms"] == JSONValue(count))
        // No list may have started to arrive: they are still being built. (When
        // the control queue built them, all three were built and the first was
        // being written before the Status was even accepted.)
        for (index, lister) in listers.enumerated() {
            #expect(lister.receive(timeout: 0.01) == .timedOut(pending: []), "list \(index) had started before the Status was answered")
        }
        // Each list then arrives whole (framing only: decoding megabytes of
        // JSON in a debug build would cost the suite more than the daemon).
        for lister in listers {
            guard case .message(let bytes) = lister.receive(timeout: 120) else { Issue.record("a list never arrived"); continue }
            #expect(bytes.starts(with: Array(#"{"parameters":{"alarms":["#.utf8)), "\(String(decoding: bytes.prefix(80), as: UTF8.self))")
            #expect(bytes.count > count * 100)
            lister.close()
        }
    }
}

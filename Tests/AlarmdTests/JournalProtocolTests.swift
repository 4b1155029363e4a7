// SPDX-License-Identifier: Apache-2.0
import Foundation
@testable import SystemCalls
import Testing

/// alarmd writes the journal by its native protocol, without libsystemd:
/// what the real journald stores is what was sent, a value with newlines
/// whole, and an entry too long for one datagram through a sealed memfd.
@Suite struct JournalProtocolTests {
    @Test func aValueWithANewlineTravelsWithItsLength() {
        let entry = Journal.entry([("MESSAGE", "one\ntwo"), ("PRIORITY", "6")])
        #expect(entry == Array("MESSAGE\n".utf8) + [7, 0, 0, 0, 0, 0, 0, 0] + Array("one\ntwo\nPRIORITY=6\n".utf8))
    }

    @Test(.enabled(if: JournalFixture.isAvailable, "\(JournalFixture.unavailableReason ?? "")"))
    func journaldStoresShortLongAndMultiLineEntriesAsSent() throws {
        let identifier = "alarmd-test-" + UUID().uuidString.prefix(8).lowercased()
        let journal = Journal(identifier: identifier)
        let long = String(repeating: "鬧鐘 alarm ", count: 40_000)
        journal.send("two\nlines", priority: .notice, fields: [("ALARMD_TEST", "multi-line")])
        journal.send(long, priority: .info, fields: [("ALARMD_TEST", "long")])
        var entries: [[String: String]] = []
        _ = waitUntil(timeout: 10) {
            entries = JournalFixture.query(["SYSLOG_IDENTIFIER=\(identifier)"])
            return entries.count >= 2
        }
        let multiLine = try #require(entries.first { $0["ALARMD_TEST"] == "multi-line" }, "journald has \(entries.count) entries")
        #expect(multiLine["MESSAGE"] == "two\nlines" && multiLine["PRIORITY"] == "5")
        let stored = try #require(entries.first { $0["ALARMD_TEST"] == "long" }, "the \(long.utf8.count)-byte entry did not arrive")
        #expect(stored["MESSAGE"] == long)
    }
}

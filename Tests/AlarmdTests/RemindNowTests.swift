// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `alarmctl remind add X --in now` rings: its instant is read by alarmctl
/// and reaches the daemon a moment later, already past, which the daemon
/// rings at once rather than leaving it overdue for good.
@Suite struct RemindNowTests {
    @Test func everyReminderAddedForNowRings() throws {
        let daemon = try AlarmctlTests.startDaemon()
        defer { daemon.stop() }
        var ids: [String] = []
        for index in 0..<20 {
            let added = EverydayUseTests.item(try Alarmctl.json(["remind", "add", "Now \(index)", "--in", "now"], daemon), "reminder")
            ids.append(try #require(added["id"] as? String, "\(added)"))
        }
        func fired() throws -> Set<String> {
            let events = try Alarmctl.json(["history", "--kind", "fired"], daemon)["events"] as? [[String: Any]] ?? []
            return Set(events.compactMap { $0["id"] as? String })
        }
        _ = try waitUntil(timeout: 10) { try Set(ids).isSubset(of: fired()) }
        let rang = try fired()
        let history = try Alarmctl.ok(["history"], daemon)
        #expect(Set(ids).isSubset(of: rang), "\(ids.filter { !rang.contains($0) }.count) of 20 never rang; history: \(history)")
        let ringing = try Alarmctl.json(["status"], daemon)["ringing"] as? [String] ?? []
        #expect(Set(ringing) == Set(ids), "\(ringing)")
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// A `TZ` that names no zone alarmctl can read is said on standard error, as
/// the daemon says it in its journal, before the zone it uses instead.
@Suite struct UnknownZoneTests {
    @Test func anUnknownTZIsSaidAndTheFallbackNamed() throws {
        let result = try BinaryRunner.run("alarmctl", ["preview", "7:05pm", "--from", "2026-01-01T00:00:00Z", "--count", "1"], environment: ["TZ": "Mars/Olympus"])
        #expect(result.status == 0)
        #expect(result.standardError.hasPrefix("alarmctl: warning: TZ=\"Mars/Olympus\" is not a known time zone; using "), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "said once: \(result.standardError)")
        #expect(result.standardOutput.hasPrefix("2026-01-01 Thu 19:05 "), "\(result.standardOutput)")
    }

    @Test(arguments: ["UTC", "Asia/Taipei", ""])
    func aKnownOrEmptyTZIsQuiet(tz: String) throws {
        let result = try BinaryRunner.run("alarmctl", ["preview", "7:05pm", "--from", "2026-01-01T00:00:00Z", "--count", "1"], environment: ["TZ": tz])
        #expect(result.status == 0)
        #expect(result.standardError == "", "TZ=\(tz): \(result.standardError)")
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// The daemon layer stays readable a file at a time: no file of
/// `AlarmDaemon` is longer than 500 lines. One that grows past it is split
/// by what it does (as `Scheduler+Commits.swift` or `Daemon+Sync.swift` are).
@Suite("Daemon file length")
struct DaemonFileLengthTests {
    static let limit = 500

    @Test func noDaemonFileIsLongerThanFiveHundredLines() throws {
        let daemon = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/AlarmDaemon")
        let files = FileManager.default.enumerator(atPath: daemon.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20, "the daemon's sources were not found at \(daemon.path)")
        var long: [String] = []
        for file in files {
            let text = try String(contentsOf: daemon.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
            if lines > Self.limit { long.append("\(file): \(lines) lines") }
        }
        #expect(long.isEmpty, "over \(Self.limit) lines: \(long.sorted())")
    }
}

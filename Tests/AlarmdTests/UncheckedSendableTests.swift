// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `@unchecked Sendable` is a promise the compiler cannot check. Every one
/// in a production target is listed here with why it is needed; a new one,
/// or one that is gone, fails the test, so the list only shrinks and only
/// on purpose.
@Suite("Unchecked Sendable")
struct UncheckedSendableTests {
    /// Type name → why the compiler cannot see that it is safe.
    static let allowed: [String: String] = [
        "QueueBound": "the box that asserts its queue on every access: the one place a queue is trusted",
        "WakeHelper": "alarmd-wake's state, used on its one queue only (the helper links none of the daemon's modules, QueueBound's among them)",
        "Interruptible": "a connection in use on the checking thread; sqlite3_interrupt is the one call another thread may make on it",
        "OwnLocale": "a locale_t, a C pointer never changed after newlocale(3), which any thread may pass to uselocale(3)",
    ]

    @Test func noProductionTargetGainsAnUncheckedSendable() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        var found: [String: String] = [:]
        let files = FileManager.default.enumerator(atPath: sources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: #/(?:class|struct|enum)\s+(\w+)[^{\n]*@unchecked Sendable/#) {
                found[String(match.output.1)] = file
            }
        }
        let unexpected = Set(found.keys).subtracting(Self.allowed.keys)
        let gone = Set(Self.allowed.keys).subtracting(found.keys)
        #expect(unexpected.isEmpty, "new @unchecked Sendable: \(unexpected.sorted().map { "\($0) in \(found[$0]!)" })")
        #expect(gone.isEmpty, "no longer @unchecked Sendable, take it off the list: \(gone.sorted())")
        #expect(found.count == Self.allowed.count)
        #expect(Self.allowed.count <= 5, "at most five promises the compiler cannot check")
    }
}

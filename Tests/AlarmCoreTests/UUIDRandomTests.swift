// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

@Suite("Random UUIDs")
struct UUIDRandomTests {
    /// Each is a version 4, variant 10 UUID, reads back from its text, and
    /// none of ten thousand repeats (a stuck or zeroed generator would).
    @Test func randomUUIDsAreVersionFourAndDistinct() throws {
        var seen = Set<UUID>()
        for _ in 0..<10_000 {
            let id = UUID.random()
            let text = id.uuidString
            #expect(Array(text)[14] == "4", "\(text)")
            #expect("89AB".contains(Array(text)[19]), "\(text)")
            #expect(UUID(canonical: text) == id)
            seen.insert(id)
        }
        #expect(seen.count == 10_000)
    }
}

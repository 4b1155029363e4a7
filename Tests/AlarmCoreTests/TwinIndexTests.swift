// SPDX-License-Identifier: Apache-2.0
@testable import AlarmCore
import AlarmTestSupport
import Testing

/// The twin index against a plain multiset: random inserts and removals,
/// with few distinct hashes (so runs are long, wrap around the end of the
/// buckets and hold one hash many times) and many.
@Suite struct TwinIndexTests {
    @Test(arguments: [UInt32(5), 1 << 20])
    func matchesAMultisetUnderRandomOperations(hashes: UInt32) {
        var generator = SplitMix64(seed: UInt64(hashes))
        var index = TwinIndex()
        var entries: [(hash: UInt32, slot: Int32)] = []
        for step in 0..<6_000 {
            if !entries.isEmpty, Int.random(in: 0..<3, using: &generator) == 0 {
                let removed = entries.remove(at: Int.random(in: 0..<entries.count, using: &generator))
                index.remove(removed.hash, slot: removed.slot)
            } else {
                let entry = (hash: UInt32.random(in: 0..<hashes, using: &generator) &* 0x9E37_79B9, slot: Int32(step))
                index.insert(entry.hash, slot: entry.slot)
                entries.append(entry)
            }
            #expect(index.count == entries.count)
            let probe = entries.isEmpty ? 0 : entries[Int.random(in: 0..<entries.count, using: &generator)].hash
            var visited: [Int32] = []
            #expect(index.first(probe) { visited.append($0); return false } == nil)
            #expect(visited.sorted() == entries.filter { $0.hash == probe }.map(\.slot).sorted(), "step \(step)")
        }
        // Removing what is not there changes nothing.
        index.remove(12345, slot: -7)
        #expect(index.count == entries.count)
    }
}

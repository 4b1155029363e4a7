// SPDX-License-Identifier: Apache-2.0
@testable import AlarmCore
import Foundation
import Testing

/// The id → slot map against a `Dictionary`, through growth, replacements and
/// removals (whose backward shifts must keep every other id findable).
@Suite struct SlotIndexTests {
    static func id(_ high: UInt64, _ low: UInt64) -> UUID {
        var bytes = (high.bigEndian, low.bigEndian)
        return withUnsafeBytes(of: &bytes) { UUID(uuid: $0.load(as: uuid_t.self)) }
    }

    /// Random ids, and ids that differ only in their last byte (an import may
    /// carry ids like that): both must behave exactly like a dictionary.
    @Test(arguments: ["random", "clustered"])
    func matchesADictionary(kind: String) {
        var generator = SplitMix64(seed: kind == "random" ? 11 : 12)
        let ids: [UUID] = (0..<3_000).map { index in
            kind == "random" ? Self.id(generator.next(), generator.next()) : Self.id(0xABCD_0000_0000_4000, 0x8000_0000_0000_0000 | UInt64(index))
        }
        var index = SlotIndex()
        var reference: [UUID: Int32] = [:]
        for step in 0..<40_000 {
            let id = ids[Int(generator.next() % UInt64(ids.count))]
            if generator.next() % 3 == 0 {
                #expect(index.removeValue(forKey: id) == reference.removeValue(forKey: id), "step \(step)")
            } else {
                let slot = Int32(step)
                let existing = index.insertIfAbsent(id, slot: slot)
                #expect(existing == reference[id], "step \(step)")
                if existing == nil { reference[id] = slot }
            }
            #expect(index.count == reference.count)
            if step % 1_000 == 0 {
                for id in ids { #expect(index[id] == reference[id], "step \(step), id \(id)") }
            }
        }
        for id in ids { #expect(index[id] == reference[id]) }
        for id in ids { index.removeValue(forKey: id) }
        #expect(index.count == 0)
        #expect(index[ids[0]] == nil)
    }

    @Test func reservingLeavesEverythingInPlace() {
        var index = SlotIndex()
        let ids = (0..<100).map { Self.id(UInt64($0), 7) }
        for (slot, id) in ids.enumerated() { #expect(index.insertIfAbsent(id, slot: Int32(slot)) == nil) }
        index.reserveCapacity(100_000)
        for (slot, id) in ids.enumerated() { #expect(index[id] == Int32(slot)) }
        #expect(index.count == 100)
    }
}

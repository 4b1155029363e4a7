// SPDX-License-Identifier: Apache-2.0
@testable import AlarmCore
// Re-exported for the whole target: SplitMix64, which several of its files
// draw from, comes with the shared test helpers.
@_exported import AlarmTestSupport
import Foundation
import Testing

@Suite("Deadline queue")
struct DeadlineQueueTests {
    /// Random inserts, moves and removals, checked after every step against a
    /// plain dictionary: the first entry is always the minimum, and popping
    /// everything yields the dictionary sorted.
    @Test func matchesASortedReferenceUnderRandomOperations() {
        var generator = SplitMix64(seed: 42)
        let slots = Array(Int32(0)..<64)
        var queue = DeadlineQueue()
        var reference: [Int32: Date] = [:]
        for _ in 0..<5_000 {
            let id = slots.randomElement(using: &generator)!
            if Int.random(in: 0..<4, using: &generator) == 0 {
                queue.remove(id)
                reference[id] = nil
            } else {
                let deadline = Date(timeIntervalSince1970: Double(Int.random(in: 0..<1_000, using: &generator)))
                queue.set(id, to: deadline)
                reference[id] = deadline
            }
            #expect(queue.count == reference.count)
            #expect(queue.first?.deadline == reference.values.min())
        }
        let expected = reference.values.sorted()
        #expect(queue.earliest(10).map(\.deadline) == Array(expected.prefix(10)))
        var popped: [Date] = []
        while let entry = queue.popDue(at: .distantFuture) {
            #expect(reference[entry.slot] == entry.deadline)
            popped.append(entry.deadline)
        }
        #expect(popped == expected)
    }

    @Test func bulkBuildKeepsTheLastDeadlinePerSlotAndPopsOnlyWhatIsDue() {
        let a: Int32 = 7, b: Int32 = 2
        var queue = DeadlineQueue([
            .init(slot: a, deadline: Date(timeIntervalSince1970: 50)),
            .init(slot: b, deadline: Date(timeIntervalSince1970: 20)),
            .init(slot: a, deadline: Date(timeIntervalSince1970: 10)),
        ])
        #expect(queue.count == 2)
        #expect(queue.deadline(for: a) == Date(timeIntervalSince1970: 10))
        #expect(queue.popDue(at: Date(timeIntervalSince1970: 5)) == nil)
        #expect(queue.popDue(at: Date(timeIntervalSince1970: 15))?.slot == a)
        #expect(queue.popDue(at: Date(timeIntervalSince1970: 15)) == nil)
        queue.set(b, to: nil)
        #expect(queue.isEmpty)
    }

    /// The ordered walk over a heap full of ties (a million alarms share
    /// 1,440 minutes) yields every entry once, in order.
    @Test func theOrderedWalkHandlesManyTies() {
        let entries = (0..<2_000).map { DeadlineQueue.Entry(slot: Int32($0), deadline: Date(timeIntervalSince1970: Double($0 % 7))) }
        let queue = DeadlineQueue(entries.shuffled())
        let walked = Array(queue.ascending())
        #expect(walked.map(\.deadline) == entries.map(\.deadline).sorted())
        #expect(Set(walked.map(\.slot)).count == entries.count)
        #expect(queue.earliest(3).map(\.deadline) == Array(repeating: Date(timeIntervalSince1970: 0), count: 3))
    }
}

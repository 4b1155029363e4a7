// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Foundation
import Testing

@Suite("New item ids")
struct UUIDMadeAtTests {
    /// The first four hex digits of an id made at `instant`: its Unix
    /// millisecond modulo 65,536.
    static func slot(_ instant: Date) -> String {
        let milliseconds = Int64((instant.timeIntervalSince1970 * 1000).rounded(.down))
        return String(format: "%04X", Int(((milliseconds % 65_536) + 65_536) % 65_536))
    }

    /// Each is a version 8, variant 10 UUID that begins with its instant's
    /// millisecond slot, reads back from its text, and none of ten thousand
    /// made at the same instant repeats (a stuck or zeroed generator would).
    @Test func idsAreVersionEightStampedAndDistinct() throws {
        let instant = Date(timeIntervalSince1970: 1_796_428_800.1239)
        var seen = Set<UUID>()
        for _ in 0..<10_000 {
            let id = UUID(madeAt: instant)
            let text = id.uuidString
            #expect(text.hasPrefix(Self.slot(instant)), "\(text)")
            #expect(Array(text)[14] == "8", "\(text)")
            #expect("89AB".contains(Array(text)[19]), "\(text)")
            #expect(UUID(canonical: text) == id)
            seen.insert(id)
        }
        #expect(seen.count == 10_000)
    }

    /// Ids made a millisecond or more apart, within one turn of the slot,
    /// sort (byte by byte, as SQLite compares blob keys) in the order they
    /// were made: a burst of adds goes to one place in each index.
    @Test func idsOfOneTurnSortInTheOrderMade() {
        let turn: Int64 = 1_796_428_800_000 / 65_536 * 65_536
        let ids = (0..<5_000).map { UUID(madeAt: Date(timeIntervalSince1970: (Double(turn + 13 * Int64($0)) + 0.5) / 1000)) }
        let bytes = ids.map { id in withUnsafeBytes(of: id.uuid) { Array($0) } }
        #expect(zip(bytes, bytes.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
    }

    /// Items made at different moments differ in their first digits, which
    /// tables show: a clock reading taken a minute or a day later is as
    /// likely in any slot. Over 2,000 instants up to ten minutes apart, about
    /// as many share their first four digits as random ids would (some 30).
    @Test func itemsMadeApartDifferInTheirFirstDigits() {
        var generator = SplitMix64(seed: 3)
        var instant = Date(timeIntervalSince1970: 1_796_428_800)
        var prefixes: [String: Int] = [:]
        for _ in 0..<2_000 {
            instant = instant.addingTimeInterval(Double(generator.next() % 600_000) / 1000)
            prefixes[String(UUID(madeAt: instant).uuidString.prefix(4)), default: 0] += 1
        }
        #expect(prefixes.count >= 1_950)
    }

    /// An instant before 1970, far ahead or not a number is a slot too, never a trap.
    @Test func anyInstantHasASlot() {
        for instant in [Date(timeIntervalSince1970: -86_400.0005), Date(timeIntervalSince1970: 1e15), Date(timeIntervalSince1970: -1e300),
                        Date(timeIntervalSince1970: .nan), Date(timeIntervalSince1970: .infinity)] {
            let text = UUID(madeAt: instant).uuidString
            #expect(Array(text)[14] == "8")
            if instant.timeIntervalSince1970.magnitude < 1e15 { #expect(text.hasPrefix(Self.slot(instant)), "\(text)") }
        }
    }

    /// An item made without an id gets one stamped with its `created`.
    @Test func newItemsAreStampedWithTheirCreation() throws {
        let created = Date(timeIntervalSince1970: 1_796_428_800.5)
        let alarm = Alarm(time: try TimeOfDay(hour: 7, minute: 30), created: created)
        let reminder = Reminder(title: "Milk", created: created)
        for id in [alarm.id, reminder.id] {
            #expect(id.uuidString.hasPrefix(Self.slot(created)) && Array(id.uuidString)[14] == "8")
        }
    }
}

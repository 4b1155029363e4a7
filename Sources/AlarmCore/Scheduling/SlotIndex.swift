// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// The id → slot map of ``ItemTable``: open addressing with linear probing
/// over one flat array of buckets, each an id's two halves and its slot.
///
/// `Dictionary<UUID, Int32>` runs SipHash, seeded per process, over each 16-byte
/// key; for a million ids at start-up that hashing and its resizes were the
/// largest single cost of filling the table. Here a key is mixed with a
/// multiply-xorshift finalizer, and a removal shifts later entries back instead
/// of leaving tombstones, so lookups never slow down as items come and go.
///
/// A bucket keeps the id next to its slot: in a table of millions, each bucket
/// a probe visits is a cache miss, and with ids and slots in separate arrays a
/// probe and its insert touched three or four cache lines instead of one or two.
///
/// The mix is not keyed: ids chosen to collide would make lookups linear. Only
/// the daemon's own user can add items, and each add then costs them, so that
/// is a way to slow one's own daemon, not someone else's.
struct SlotIndex: Sendable {
    private struct Bucket {
        var high: UInt64
        var low: UInt64
        /// The slot; `-1` marks an empty bucket.
        var slot: Int32

        static let empty = Bucket(high: 0, low: 0, slot: -1)
    }

    private var buckets: [Bucket] = []
    private var mask = -1
    private(set) var count = 0

    init() {}

    /// Room for `count` ids without growing (at most 3/4 of the buckets used).
    mutating func reserveCapacity(_ count: Int) {
        let needed = Self.bucketCount(for: count)
        if needed > buckets.count { rehash(to: needed) }
    }

    subscript(id: UUID) -> Int32? {
        guard count > 0 else { return nil }
        let (bucket, found) = probe(id)
        return found ? buckets[bucket].slot : nil
    }

    /// The bucket holding `id`, or the empty one ending its run.
    private func probe(_ id: UUID) -> (bucket: Int, found: Bool) {
        let (h, l) = Self.halves(id)
        var bucket = Self.mix(h, l) & mask
        while buckets[bucket].slot >= 0 {
            if buckets[bucket].high == h && buckets[bucket].low == l { return (bucket, true) }
            bucket = (bucket + 1) & mask
        }
        return (bucket, false)
    }

    /// The slot `id` has; if it has none, it gets `slot` and the result is
    /// `nil`. One probe either way.
    mutating func insertIfAbsent(_ id: UUID, slot: Int32) -> Int32? {
        precondition(slot >= 0, "slots are never negative")
        if Self.bucketCount(for: count + 1) > buckets.count { rehash(to: Self.bucketCount(for: count + 1)) }
        let (bucket, found) = probe(id)
        if found { return buckets[bucket].slot }
        let (h, l) = Self.halves(id)
        buckets[bucket] = Bucket(high: h, low: l, slot: slot)
        count += 1
        return nil
    }

    /// Removes `id` and returns its slot, if it had one.
    @discardableResult
    mutating func removeValue(forKey id: UUID) -> Int32? {
        guard count > 0 else { return nil }
        var (hole, found) = probe(id)
        guard found else { return nil }
        let removed = buckets[hole].slot
        // Backward shift: pull each later entry of the run into the hole
        // unless its home bucket lies cyclically after the hole.
        var next = (hole + 1) & mask
        while buckets[next].slot >= 0 {
            let home = Self.mix(buckets[next].high, buckets[next].low) & mask
            if (next - home) & mask >= (next - hole) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = .empty
        count -= 1
        return removed
    }

    private mutating func rehash(to size: Int) {
        let old = buckets
        buckets = [Bucket](repeating: .empty, count: size)
        mask = size - 1
        count = 0
        for entry in old where entry.slot >= 0 {
            var bucket = Self.mix(entry.high, entry.low) & mask
            while buckets[bucket].slot >= 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = entry
            count += 1
        }
    }

    /// Buckets for `count` entries: a power of two, at most 3/4 used.
    static func bucketCount(for count: Int) -> Int {
        var buckets = 16
        while buckets * 3 / 4 < count { buckets *= 2 }
        return buckets
    }

    private static func halves(_ id: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: id.uuid) { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
    }

    /// Both halves through a 64-bit finalizer (MurmurHash3's fmix64), so ids
    /// that share most bytes still spread over the buckets.
    private static func mix(_ high: UInt64, _ low: UInt64) -> Int {
        var x = high ^ (low &* 0x9E37_79B9_7F4A_7C15)
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return Int(truncatingIfNeeded: x)
    }
}

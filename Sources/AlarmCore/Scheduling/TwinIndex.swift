// SPDX-License-Identifier: Apache-2.0

/// The twin hash → slot map of ``ItemTable``: which alarms may be twins of
/// another (``Alarm/isTwin(of:)``), found with one probe however many
/// alarms share a minute, where a scan of the alarms at the minute made each
/// add cost as much as there were alarms at it.
///
/// Open addressing with linear probing over one flat array of buckets, and
/// removal by backward shift, as ``SlotIndex``. A hash may be in several
/// buckets: twins kept on purpose (`force`, an import) and unrelated alarms
/// whose hashes meet. The hashes are ``Hasher``'s, seeded per process, so
/// no one can choose alarms that meet.
struct TwinIndex: Sendable {
    private struct Bucket {
        var hash: UInt32
        /// The slot; `-1` marks an empty bucket.
        var slot: Int32

        static let empty = Bucket(hash: 0, slot: -1)
    }

    private var buckets: [Bucket] = []
    private var mask = -1
    private(set) var count = 0

    init() {}

    mutating func insert(_ hash: UInt32, slot: Int32) {
        precondition(slot >= 0, "slots are never negative")
        if SlotIndex.bucketCount(for: count + 1) > buckets.count { rehash(to: SlotIndex.bucketCount(for: count + 1)) }
        var bucket = home(hash)
        while buckets[bucket].slot >= 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = Bucket(hash: hash, slot: slot)
        count += 1
    }

    /// Removes `slot`'s entry under `hash`, if there is one.
    mutating func remove(_ hash: UInt32, slot: Int32) {
        guard count > 0 else { return }
        var hole = home(hash)
        while buckets[hole].slot >= 0, buckets[hole].hash != hash || buckets[hole].slot != slot { hole = (hole + 1) & mask }
        guard buckets[hole].slot >= 0 else { return }
        // Backward shift: pull each later entry of the run into the hole
        // unless its home bucket lies cyclically after the hole.
        var next = (hole + 1) & mask
        while buckets[next].slot >= 0 {
            if (next - home(buckets[next].hash)) & mask >= (next - hole) & mask {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = .empty
        count -= 1
    }

    /// The first slot under `hash` for which `matches` holds.
    func first(_ hash: UInt32, where matches: (Int32) -> Bool) -> Int32? {
        guard count > 0 else { return nil }
        var bucket = home(hash)
        while buckets[bucket].slot >= 0 {
            if buckets[bucket].hash == hash, matches(buckets[bucket].slot) { return buckets[bucket].slot }
            bucket = (bucket + 1) & mask
        }
        return nil
    }

    private func home(_ hash: UInt32) -> Int { Int(hash) & mask }

    private mutating func rehash(to size: Int) {
        let old = buckets
        buckets = [Bucket](repeating: .empty, count: size)
        mask = size - 1
        for entry in old where entry.slot >= 0 {
            var bucket = home(entry.hash)
            while buckets[bucket].slot >= 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = entry
        }
    }
}

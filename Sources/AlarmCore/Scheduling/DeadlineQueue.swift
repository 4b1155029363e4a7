import Foundation

/// A min-heap of deadlines keyed by item id, with O(log n) insert, update and
/// removal, and O(1) access to the earliest deadline.
///
/// The scheduler keeps every enabled item here and arms a single timer for
/// `first`; a position index makes changing or dropping one item cheap without a
/// scan, which matters with a million alarms.
public struct DeadlineQueue: Sendable {
    public struct Entry: Hashable, Sendable {
        public let id: UUID
        public let deadline: Date

        public init(id: UUID, deadline: Date) {
            self.id = id
            self.deadline = deadline
        }
    }

    private var heap: [Entry] = []
    private var positions: [UUID: Int] = [:]

    public init() {}

    /// Builds the queue from many entries at once in O(n) (Floyd's heapify).
    public init<S: Sequence>(_ entries: S) where S.Element == Entry {
        var latest: [UUID: Entry] = [:]
        for entry in entries { latest[entry.id] = entry }
        heap = Array(latest.values)
        positions.reserveCapacity(heap.count)
        for (index, entry) in heap.enumerated() { positions[entry.id] = index }
        var index = heap.count / 2 - 1
        while index >= 0 {
            siftDown(index)
            index -= 1
        }
    }

    public var count: Int { heap.count }
    public var isEmpty: Bool { heap.isEmpty }
    /// The earliest deadline.
    public var first: Entry? { heap.first }

    public func deadline(for id: UUID) -> Date? { positions[id].map { heap[$0].deadline } }

    /// Inserts `id` or moves it to `deadline`; `nil` removes it.
    public mutating func set(_ id: UUID, to deadline: Date?) {
        guard let deadline else { remove(id); return }
        let entry = Entry(id: id, deadline: deadline)
        if let index = positions[id] {
            let old = heap[index].deadline
            heap[index] = entry
            if deadline < old { siftUp(index) } else { siftDown(index) }
        } else {
            heap.append(entry)
            positions[id] = heap.count - 1
            siftUp(heap.count - 1)
        }
    }

    public mutating func remove(_ id: UUID) {
        guard let index = positions.removeValue(forKey: id) else { return }
        let last = heap.removeLast()
        guard index < heap.count else { return }
        heap[index] = last
        positions[last.id] = index
        siftUp(index)
        siftDown(positions[last.id]!)
    }

    /// Removes and returns the earliest entry if it is due at `instant`.
    public mutating func popDue(at instant: Date) -> Entry? {
        guard let first = heap.first, first.deadline <= instant else { return nil }
        remove(first.id)
        return first
    }

    /// The `count` earliest entries in order, without changing the queue.
    public func earliest(_ count: Int) -> [Entry] { Array(ascending().prefix(count)) }

    /// The entries in deadline order, produced lazily: taking the first k costs
    /// O(k log k), whatever the size of the queue.
    public func ascending() -> Ascending { Ascending(heap: heap) }

    /// Walks the heap in order with a small frontier of candidate positions.
    public struct Ascending: Sequence, IteratorProtocol {
        private let heap: [Entry]
        private var frontier: [(deadline: Date, index: Int)] = []

        init(heap: [Entry]) {
            self.heap = heap
            if !heap.isEmpty { frontier = [(heap[0].deadline, 0)] }
        }

        public mutating func next() -> Entry? {
            guard let smallest = frontier.indices.min(by: { frontier[$0].deadline < frontier[$1].deadline }) else { return nil }
            let index = frontier.remove(at: smallest).index
            for child in [2 * index + 1, 2 * index + 2] where child < heap.count {
                frontier.append((heap[child].deadline, child))
            }
            return heap[index]
        }
    }

    private mutating func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard heap[index].deadline < heap[parent].deadline else { break }
            swapAt(index, parent)
            index = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1
            let right = left + 1
            var smallest = index
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            if smallest == index { return }
            swapAt(index, smallest)
            index = smallest
        }
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        positions[heap[a].id] = a
        positions[heap[b].id] = b
    }
}

// SPDX-License-Identifier: Apache-2.0
/// The one splice that turns a list of ids into another: the common start and
/// end stay, the part between is replaced. A list view that applies it redraws
/// only those rows and keeps its scroll position; an item added, removed
/// or moved is one splice (a row changed in place is refilled, not spliced).
public struct IDSplice: Equatable, Sendable {
    /// Where the differing part starts, in both lists.
    public let index: Int
    /// How many of the old ids it removes there.
    public let removing: Int
    /// The new ids it puts in their place.
    public let inserting: [String]

    public init(index: Int, removing: Int, inserting: [String]) {
        self.index = index
        self.removing = removing
        self.inserting = inserting
    }

    /// The splice from `old` to `new`; `nil` when they are equal. Linear in
    /// the lists' lengths.
    public static func between(_ old: [String], _ new: [String]) -> IDSplice? {
        var start = 0
        while start < old.count, start < new.count, old[start] == new[start] { start += 1 }
        var end = 0
        while end < old.count - start, end < new.count - start, old[old.count - 1 - end] == new[new.count - 1 - end] { end += 1 }
        let removing = old.count - start - end
        let inserting = Array(new[start..<(new.count - end)])
        guard removing > 0 || !inserting.isEmpty else { return nil }
        return IDSplice(index: start, removing: removing, inserting: inserting)
    }
}

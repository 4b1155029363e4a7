// SPDX-License-Identifier: Apache-2.0
/// How a list changed, for a list model to follow with the fewest changes
/// (GTK's `items-changed`): remove the item at `removed`, then insert one
/// at `inserted` (an index in the list as it is after the removal). The
/// same index in both is an item changed in place.
public enum ListChange: Equatable, Sendable {
    /// Nothing shown changed.
    case unchanged
    case splice(removed: Int?, inserted: Int?)
    /// The change could not be followed (an event that does not read):
    /// fetch the whole list again.
    case reload
}

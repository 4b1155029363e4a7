// SPDX-License-Identifier: Apache-2.0
/// The bytes of unfinished requests that all connections together may make
/// the daemon hold.
///
/// Each connection alone is bounded by the message limits, but 256 of them
/// each holding most of a 1 MiB request would be 256 MiB. So the bytes
/// buffered for requests not yet complete are counted here, and a read that
/// would take the total past `limit` costs its connection an error and the
/// connection. Requests that arrive whole in one read (nearly all) are never
/// counted. One `Import` at a time, once its opening bytes show it is one, is
/// held outside the budget, bounded by its own limit, so a large import still
/// works however full the budget is; a second is counted like any request.
/// Used on the control server's queue only.
final class RequestBudget {
    let limit: Int
    private(set) var used = 0
    /// The connection whose import is held outside the budget.
    private var importer: ObjectIdentifier?

    init(limit: Int) { self.limit = limit }

    /// Moves `connection`'s charge from `charged` bytes to what it holds now;
    /// returns the new charge, or `nil` (leaving the old one) when that would
    /// exceed the budget.
    func recharge(_ connection: ObjectIdentifier, from charged: Int, pending: Int, isImport: Bool) -> Int? {
        if isImport, importer == nil || importer == connection {
            importer = connection
            used -= charged
            return 0
        }
        if importer == connection { importer = nil }
        guard used - charged + pending <= limit else { return nil }
        used += pending - charged
        return pending
    }

    /// A connection that closes gives back what it held.
    func release(_ connection: ObjectIdentifier, charged: Int) {
        used -= charged
        if importer == connection { importer = nil }
    }
}

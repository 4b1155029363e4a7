// SPDX-License-Identifier: Apache-2.0
/// The bytes of replies and events queued for clients that have not read
/// them yet, all connections together.
///
/// Each connection alone is bounded: it stops taking calls while more than
/// ``ControlServer/Limits/maxReplyBacklog`` of its replies wait, and is
/// closed when they have not all gone within the request timeout. But every
/// connection may still hold the one reply it was making when it went over,
/// and a list of every item is megabytes. So the replies that hold every
/// item (``ControlServer/bulkReads``) start only while the total here is
/// within `limit`; those asked for meanwhile wait, and start as the total
/// falls back (``onRoom``). Used on the control server's queue only.
final class ReplyBudget {
    let limit: Int
    private(set) var queued = 0
    /// Runs on each fall of `queued` from over `limit` to within it.
    var onRoom: (() -> Void)?

    init(limit: Int) { self.limit = limit }

    var isOver: Bool { queued > limit }

    /// A connection that held `old` bytes unsent now holds `new`.
    func recharge(from old: Int, to new: Int) {
        let wasOver = isOver
        queued += new - old
        if wasOver, !isOver { onRoom?() }
    }
}

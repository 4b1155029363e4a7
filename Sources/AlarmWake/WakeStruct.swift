// SPDX-License-Identifier: Apache-2.0
import VarlinkCore

/// A method's parameters or reply in `io.alarmd.Wake`, as typed Swift values:
/// read from a JSON object through ``WakeMembers`` (bounded, every failure an
/// `InvalidParameter` naming the member) and written into one. The helper
/// reads parameters and writes replies, alarmd writes parameters and reads
/// replies, both through these.
///
/// Each reads its members through ``WakeMembers/allowOnly(_:)`` first: in a
/// call that refuses members it does not declare (a caller's typo or a
/// claimed `uid` must not pass unnoticed); in a reply it leaves them unread,
/// so a helper that adds a member to a reply does not break an alarmd that
/// does not know it.
public protocol WakeStruct: Hashable, Sendable {
    /// Every member, in the interface definition's order.
    static var fields: [WakeField] { get }
    init(_ members: WakeMembers) throws(WakeError)
    var json: JSONObject { get }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// An item the wire carries in lists (`ListAlarms`, `ListReminders`,
/// `MoveReminder`'s reply).
public protocol WireItem {
    init(wire object: JSONObject) throws(ItemDecodingError)
}

extension AlarmItem: WireItem {}
extension ReminderItem: WireItem {}

extension WireItem {
    /// The items of a reply's array, in order. One that does not read is
    /// left out of the list rather than stopping it: the rest still show,
    /// and the daemon keeps it as it is.
    public static func list(_ objects: [JSONObject]) -> [Self] {
        objects.compactMap { try? Self(wire: $0) }
    }

    /// The one item of a reply's member (`alarm`, `reminder`).
    public static func one(_ object: JSONObject) -> Self? {
        try? Self(wire: object)
    }
}

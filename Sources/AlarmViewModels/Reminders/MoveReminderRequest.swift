// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol

/// Where a reminder is to go: what Move up / Move down and a drop send.
public struct MoveReminderRequest: Equatable, Sendable {
    public let id: String
    /// The 0-based position among all reminders.
    public let position: Int

    public init(id: String, position: Int) {
        self.id = id
        self.position = position
    }

    /// The `MoveReminder` call.
    public var request: MoveReminder.Request { MoveReminder.Request(id: id, position: position) }
}

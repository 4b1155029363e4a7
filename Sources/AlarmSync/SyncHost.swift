// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// What a sync round needs from the process that keeps the items: in
/// `alarmd-sync` that is alarmd, reached over the channel (``ParentChannel``).
/// Each call returns once the change is stored, or throws why it was not.
package protocol SyncHost {
    /// Stores items read from the server, merged by id; known items keep
    /// what the calendar cannot carry (commands, a reminder's place).
    func merge(alarms: [Alarm], reminders: [Reminder]) throws(SyncHostError)
    /// Removes items the server says are gone, in one change.
    func remove(_ ids: [UUID], kind: ItemKind) throws(SyncHostError)
    /// A line for the journal.
    func log(_ line: SyncLogLine)
    /// The round is about to read `href`'s data.
    func reading(_ href: String)
}

/// Why the host did not carry out a request.
package struct SyncHostError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}

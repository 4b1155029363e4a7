// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// What one sync round did, as `Status` and `alarmctl sync` show it.
public struct SyncReport: Sendable, Hashable {
    public var lastRound: Date?
    /// `nil` after a round that went through.
    public var error: String?
    public var pulled = 0, pushed = 0, deletedHere = 0, deletedThere = 0, conflicts = 0
    /// Local changes not on the server yet (as of the last round).
    public var pending = 0
    /// Whether the round failed because the server refused the credentials:
    /// retrying before the next interval will not help.
    public var unauthorized = false
    /// Removals the server's listing implies that wait for a second round to
    /// confirm them (more than half of a collection at once).
    public var deletionsHeld = 0
    public var server = ""

    public init(server: String = "") { self.server = server }

    /// Whether the round changed anything on either side.
    public var changedAnything: Bool { pulled + pushed + deletedHere + deletedThere > 0 }
}

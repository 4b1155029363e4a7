// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// Stable journal `MESSAGE_ID`s, one per kind of entry, generated once and never
/// changed: `journalctl MESSAGE_ID=…` and the catalog (`systemd/alarmd.catalog`)
/// depend on them.
public enum MessageID {
    public static let fired = "7bad90afa51843e2918574dcf3196838"
    public static let snoozed = "7da47a6701cd49ce8c01625218ecb279"
    public static let dismissed = "a31085f31e7c438986157512be6db3ea"
    public static let timedOut = "6d881771596d4af2bb7086350d5176b1"
    public static let skipped = "2e26ab98372b45aab8ab90df99ca0523"
    public static let missed = "0da56a4b98ac4ff3882b5ac7cf2d2e63"
    public static let completed = "d1c7fccd0723475abc49b2aee9e527d7"
    public static let changed = "c4b9a563c1f54e3d90c0d60b52f8027a"
    public static let started = "17d501f7af2a457e9ddde6ca23260f05"
    public static let stopping = "7b54a077980e4a8ea399e3a2b077222c"
    public static let reloaded = "8c0e489467e54993bc202f93536051d2"
    public static let clockChanged = "577f0b7882ab4743b14792f87a62ac8b"
    public static let peerRefused = "1630abadbed941dbba83ec4b9a84cebd"
    public static let storeCorrupt = "c5b308187c1848058d3b8c1bd93db07f"
    public static let wakeArmed = "388078c826b748fb922ef49e13271d84"
    public static let wakeUnavailable = "e0de7b7e812c4c4fa36b5971f8d84481"
    public static let suspending = "7fce09c623014f79a9e60ecd38914da6"
    public static let resumed = "e992d3efa528441f9bd2da0bd08cf8cc"
    public static let mayNotBeHeard = "03877b355b7546029c6ad83487f04147"
    public static let escalated = "f1e90837340f47649a77fb5200dead14"
    public static let notice = "f2848bdb21c9435992f0bd9699baddbe"
    /// CalDAV sync failed (the server away, a password refused, an item the
    /// server holds that alarmd cannot keep).
    public static let syncFailed = "f4d4f6c6d4f249e7b964da07c3e5f493"
    /// An item changed here and on the server; the losing copy is in the entry.
    public static let syncConflict = "8606f5eb63714d6f98ae193edfcb9962"

    public static func forEvent(_ kind: EventKind) -> String {
        switch kind {
        case .fired: return fired
        case .snoozed: return snoozed
        case .dismissed: return dismissed
        case .timedOut: return timedOut
        case .skipped: return skipped
        case .missed: return missed
        case .completed: return completed
        case .changed: return changed
        case .escalated: return escalated
        case .notice: return notice
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

extension DaemonConfig {
    /// Where reminders (and, optionally, alarms) are shared through a CalDAV
    /// server, and how often it is asked for changes.
    public struct SyncSettings: Hashable, Sendable {
        /// A task collection (`VTODO`s), `http://` or `https://`.
        public var url = ""
        /// An event collection for alarms; empty keeps alarms on this machine.
        public var alarmsURL = ""
        public var user = ""
        /// A file holding the password (mode 0600, owned by the user); empty
        /// reads systemd's credential `alarmd-sync` instead.
        public var passwordFile = ""
        public var interval: TimeInterval = 300

        public init() {}

        public var isEnabled: Bool { !url.isEmpty }
    }
}

// SPDX-License-Identifier: Apache-2.0

extension WakeInterface {
    /// `SetWake(at: ?string) -> ()`: sets the caller's wake-up to `at`,
    /// replacing any before it; with no `at` (absent or null), clears it.
    public enum SetWake: WakeMethod {
        public static let name = "SetWake"

        /// `at` is `nil` (and left out, not null) to clear the wake-up.
        public typealias Parameters = WakeAt

        public typealias Reply = WakeNoMembers
    }
}

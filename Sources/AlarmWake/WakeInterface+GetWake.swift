// SPDX-License-Identifier: Apache-2.0

extension WakeInterface {
    /// `GetWake() -> (at: ?string)`: the caller's wake-up, if one is set.
    public enum GetWake: WakeMethod {
        public static let name = "GetWake"

        public typealias Parameters = WakeNoMembers

        /// `at` is `nil` (and left out) when none is set.
        public typealias Reply = WakeAt
    }
}

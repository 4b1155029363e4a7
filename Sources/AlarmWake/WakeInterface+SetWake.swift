// SPDX-License-Identifier: Apache-2.0
import VarlinkCore

extension WakeInterface {
    /// `SetWake(at: ?string) -> ()`: sets the caller's wake-up to `at`,
    /// replacing any before it; with no `at` (absent or null), clears it.
    public enum SetWake: WakeMethod {
        public static let name = "SetWake"

        public struct Parameters: WakeStruct {
            public static let at = WakeField.optional("at", .instant)
            public static let fields = [at]

            /// `nil` clears the wake-up.
            public var at: WakeInstant?

            public init(at: WakeInstant?) { self.at = at }

            public init(_ members: WakeMembers) throws(WakeError) {
                try members.allowOnly(Self.fields)
                at = try members.instant(Self.at)
            }

            /// `at` left out, not null, when clearing.
            public var json: JSONObject {
                var object = JSONObject()
                object[Self.at.name] = at.map { .string($0.rfc3339) }
                return object
            }
        }

        public typealias Reply = WakeNoMembers
    }
}

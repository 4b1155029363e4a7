// SPDX-License-Identifier: Apache-2.0
import VarlinkCore

extension WakeInterface {
    /// `GetWake() -> (at: ?string)`: the caller's wake-up, if one is set.
    public enum GetWake: WakeMethod {
        public static let name = "GetWake"

        public typealias Parameters = WakeNoMembers

        public struct Reply: WakeStruct {
            public static let at = WakeField.optional("at", .instant)
            public static let fields = [at]

            /// `nil` when none is set.
            public var at: WakeInstant?

            public init(at: WakeInstant?) { self.at = at }

            public init(_ members: WakeMembers) throws(WakeError) {
                try members.allowOnly(Self.fields)
                at = try members.instant(Self.at)
            }

            /// `at` left out when none is set.
            public var json: JSONObject {
                var object = JSONObject()
                object[Self.at.name] = at.map { .string($0.rfc3339) }
                return object
            }
        }
    }
}

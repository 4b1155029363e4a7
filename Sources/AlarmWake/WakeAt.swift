// SPDX-License-Identifier: Apache-2.0
import VarlinkCore

/// `(at: ?string)`: a wake-up instant or none; ``WakeInterface/SetWake``'s
/// parameters and ``WakeInterface/GetWake``'s reply.
public struct WakeAt: WakeStruct {
    public static let at = WakeField.optional("at", .instant)
    public static let fields = [at]

    /// `nil` for no wake-up: SetWake clears it; GetWake has none set.
    public var at: WakeInstant?

    public init(at: WakeInstant?) { self.at = at }

    public init(_ members: WakeMembers) throws(WakeError) {
        try members.allowOnly(Self.fields)
        at = try members.instant(Self.at)
    }

    /// `at` left out, not null, when there is none.
    public var json: JSONObject {
        var object = JSONObject()
        object[Self.at.name] = at.map { .string($0.rfc3339) }
        return object
    }
}

// SPDX-License-Identifier: Apache-2.0
import VarlinkCore

/// `()`: a method's parameters when it takes none, or its reply when it
/// answers with none. In a call it refuses any member.
public struct WakeNoMembers: WakeStruct {
    public static let fields: [WakeField] = []

    public init() {}

    public init(_ members: WakeMembers) throws(WakeError) { try members.allowOnly(Self.fields) }

    public var json: JSONObject { [:] }
}

// SPDX-License-Identifier: Apache-2.0
extension JSONObject {
    /// An object of the given members, in order; each field at most once.
    public init(_ members: KeyValuePairs<WireField, JSONValue>) {
        self.init()
        for (field, value) in members { self[field.name] = value }
    }
}

// SPDX-License-Identifier: Apache-2.0
/// A JSON value. Objects keep their members in order, so replies print in the
/// order the interface documents them and tests can compare text.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public var stringValue: String? { if case .string(let value) = self { return value } else { return nil } }
    public var boolValue: Bool? { if case .bool(let value) = self { return value } else { return nil } }
    public var objectValue: JSONObject? { if case .object(let value) = self { return value } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { return value } else { return nil } }
    public var isNull: Bool { self == .null }

    /// The number as an `Int`, when it is integral and exactly representable.
    public var intValue: Int? {
        guard case .number(let number) = self, number.rounded() == number, abs(number) <= 9_007_199_254_740_992 else { return nil }
        return Int(number)
    }

    /// The JSON type's name, for error messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON object with ordered, unique keys.
public struct JSONObject: Hashable, Sendable, ExpressibleByDictionaryLiteral, Sequence {
    // Members in order, found by a linear search: protocol objects have a
    // dozen keys or so, where comparing short strings beats hashing them (an
    // Import of 100,000 alarms is 1.4 million members). Large objects get an
    // index as well.
    private var members: [(key: String, value: JSONValue)] = []
    private var index: [String: Int]?
    private static let indexThreshold = 24

    public init() {}

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        for (key, value) in elements { self[key] = value }
    }

    public var keys: [String] { members.map(\.key) }

    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return members.firstIndex { $0.key == key }
    }

    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { members[$0].value } }
        set {
            if let newValue {
                if let existing = position(of: key) {
                    members[existing].value = newValue
                } else {
                    members.append((key, newValue))
                    if index != nil {
                        index?[key] = members.count - 1
                    } else if members.count > Self.indexThreshold {
                        index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($0.element.key, $0.offset) })
                    }
                }
            } else if let existing = position(of: key) {
                members.remove(at: existing)
                if index != nil { index = Dictionary(uniqueKeysWithValues: members.enumerated().map { ($0.element.key, $0.offset) }) }
            }
        }
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        members.makeIterator()
    }

    /// Equal when they have the same members, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.count == rhs.count && lhs.members.allSatisfy { rhs[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, to agree with ==.
        var combined = 0
        for member in members {
            var one = Hasher()
            one.combine(member.key)
            one.combine(member.value)
            combined ^= one.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(_ value: Int) { self = .number(Double(value)) }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// A member type as the interface definition writes it.
public indirect enum WireType: Hashable, Sendable {
    case bool, int, string, object
    case array(WireType)
    /// A type the interface defines (`Alarm`, `Phase`).
    case named(String)

    /// The type in the interface definition's notation: `[]string`, `Alarm`.
    public var idl: String {
        switch self {
        case .bool: return "bool"
        case .int: return "int"
        case .string: return "string"
        case .object: return "object"
        case .array(let element): return "[]" + element.idl
        case .named(let name): return name
        }
    }
}

/// One member of an interface type, or of a method's parameters or reply:
/// its wire name, written only here, and its type. Encoders, decoders and the
/// check against the interface definition all go through these.
public struct WireField: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let type: WireType
    public let optional: Bool

    public init(_ name: String, _ type: WireType, optional: Bool = false) {
        self.name = name
        self.type = type
        self.optional = optional
    }

    public static func optional(_ name: String, _ type: WireType) -> WireField { WireField(name, type, optional: true) }

    /// The same member, required.
    public var required: WireField { WireField(name, type) }

    /// `name: ?type`, as in the interface definition.
    public var description: String { "\(name): \(optional ? "?" : "")\(type.idl)" }
}

/// A struct of the interface: a type it defines, or a method's parameters or reply.
public protocol WireStruct {
    /// Every member, in the interface definition's order.
    static var fields: [WireField] { get }
}

/// A method's parameters: read from a call (checked, every failure an
/// `InvalidParameter` naming the member) and written into one.
public protocol WireRequest: WireStruct, Sendable {
    init(_ parameters: Parameters) throws(VarlinkError)
    var json: JSONObject { get }
}

/// A method's reply: written by the daemon (``json``) and read by alarmctl
/// and the app (``init(_:)``), so neither names a member by hand.
///
/// Read like a request, with the same typed errors: every failure is an
/// `InvalidParameter` naming the member (`alarms[2]`, `wake.method`), a
/// number is read only within a range (``counts`` for counts), and nothing
/// a reply holds can make the reader trap. Unlike a request, a member the
/// reply does not declare is left unread: a daemon that adds one does not
/// break an older client. A member an older daemon left out, which clients
/// have always done without, is an optional property; its ``WireField``
/// still says what the interface declares.
public protocol WireReply: WireStruct, Sendable {
    init(_ parameters: Parameters) throws(VarlinkError)
    var json: JSONObject { get }
}

/// A parameterless call.
public struct NoMembers: WireRequest {
    public static let fields: [WireField] = []
    public init() {}
    public init(_ parameters: Parameters) throws(VarlinkError) { try parameters.allowOnly(Self.fields) }
    public var json: JSONObject { [:] }
}

/// An `io.alarmd` method: its name, its parameters and its reply.
public protocol VarlinkMethod {
    associatedtype Request: WireRequest
    associatedtype Reply: WireReply
    /// `AddAlarm`, without the interface; the type's own name, stored (not
    /// `String(describing:)`, whose reflection cost more than a whole `Status`
    /// call when the daemon dispatched on it). InterfaceTypesTests checks
    /// each against the IDL.
    static var name: String { get }
}

extension VarlinkMethod {
    /// The interface's own name for a call: `io.alarmd.AddAlarm`.
    public static var qualifiedName: String { InterfaceDefinition.name + "." + name }
}

extension JSONObject {
    /// The member a field names.
    public subscript(field: WireField) -> JSONValue? {
        get { self[field.name] }
        set { self[field.name] = newValue }
    }
}

extension Parameters {
    /// Fails on members the struct does not declare.
    public func allowOnly(_ fields: [WireField]) throws(VarlinkError) {
        for key in object.keys where !fields.contains(where: { $0.name == key }) {
            throw .invalidParameter(path + key, "is not a parameter of this call (known: \(fields.map(\.name).sorted().joined(separator: ", ")))")
        }
    }

    public func string(_ field: WireField) throws(VarlinkError) -> String? { try string(field.name) }
    public func requiredString(_ field: WireField) throws(VarlinkError) -> String { try requiredString(field.name) }
    public func bool(_ field: WireField) throws(VarlinkError) -> Bool? { try bool(field.name) }
    public func int(_ field: WireField, in range: ClosedRange<Int>) throws(VarlinkError) -> Int? { try int(field.name, in: range) }
    public func stringArray(_ field: WireField) throws(VarlinkError) -> [String]? { try stringArray(field.name) }
    public func object(_ field: WireField) throws(VarlinkError) -> Parameters? { try object(field.name) }
    public func validated<T>(_ field: WireField, _ body: () throws(ValidationError) -> T) throws(VarlinkError) -> T { try validated(field.name, body) }

}
extension WireStruct {
    /// What a count the daemon sends (items, snoozes, changes) is read
    /// within: far beyond any real one, and exact in JSON and in `Int`.
    public static var counts: ClosedRange<Int> { 0...Int(Int32.max) }

    /// An object of this struct's members; a member it does not declare is a bug.
    public static func json(_ members: KeyValuePairs<WireField, JSONValue>) -> JSONObject {
        assert(members.allSatisfy { member in fields.contains(member.key) }, "\(Self.self) has no such member")
        return JSONObject(members)
    }
}

extension Parameters {
    public func requiredBool(_ field: WireField) throws(VarlinkError) -> Bool {
        guard let value = try bool(field) else { throw .invalidParameter(path + field.name, "is required") }
        return value
    }

    public func requiredInt(_ field: WireField, in range: ClosedRange<Int>) throws(VarlinkError) -> Int {
        guard let value = try int(field, in: range) else { throw .invalidParameter(path + field.name, "is required") }
        return value
    }

    public func requiredStringArray(_ field: WireField) throws(VarlinkError) -> [String] {
        guard let value = try stringArray(field) else { throw .invalidParameter(path + field.name, "is required") }
        return value
    }

    /// A nested object, its members named `field.…` in errors.
    public func requiredObject(_ field: WireField) throws(VarlinkError) -> Parameters {
        guard let value = try object(field) else { throw .invalidParameter(path + field.name, "is required") }
        return value
    }

    /// A nested object read by `read` (a `Wake`, a `Firing`), its members
    /// named `field.…` in errors; `nil` when absent or null.
    public func object<T>(_ field: WireField, as read: (Parameters) throws(VarlinkError) -> T) throws(VarlinkError) -> T? {
        guard let nested = try object(field) else { return nil }
        return try read(nested)
    }

    public func requiredObject<T>(_ field: WireField, as read: (Parameters) throws(VarlinkError) -> T) throws(VarlinkError) -> T {
        guard let value = try object(field, as: read) else { throw .invalidParameter(path + field.name, "is required") }
        return value
    }

    /// An array of objects, each read by `read` and named `field[i].…` in errors.
    public func requiredObjectArray<T>(_ field: WireField, as read: (Parameters) throws(VarlinkError) -> T) throws(VarlinkError) -> [T] {
        guard let objects = try objectArray(field.name) else { throw .invalidParameter(path + field.name, "is required") }
        var values: [T] = []
        values.reserveCapacity(objects.count)
        for object in objects { values.append(try read(object)) }
        return values
    }

    /// A string that names one of `E`'s cases (a `Phase`, an import's `change`).
    public func required<E: RawRepresentable & CaseIterable>(_ field: WireField, as type: E.Type) throws(VarlinkError) -> E where E.RawValue == String {
        let text = try requiredString(field)
        guard let value = E(rawValue: text) else {
            let names = E.allCases.map(\.rawValue)
            let known = names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
            throw .invalidParameter(path + field.name, "must be \(known), got \(ValidationError.quoted(text))")
        }
        return value
    }
}

// SPDX-License-Identifier: Apache-2.0
/// A call from a client: `{"method": "...", "parameters": {...}, "more": …, "oneway": …}`.
public struct VarlinkCall: Hashable, Sendable {
    public var method: String
    public var parameters: JSONObject
    /// The client accepts several replies (`continues: true` until the last).
    public var more: Bool
    /// The client wants no reply at all.
    public var oneway: Bool

    public init(method: String, parameters: JSONObject = [:], more: Bool = false, oneway: Bool = false) {
        self.method = method
        self.parameters = parameters
        self.more = more
        self.oneway = oneway
    }

    /// The interface part of `method` (`io.alarmd` of `io.alarmd.ListAlarms`).
    public var interface: String {
        guard let dot = method.lastIndex(of: ".") else { return "" }
        return String(method[..<dot])
    }

    /// The member part of `method` (`ListAlarms`).
    public var member: String {
        guard let dot = method.lastIndex(of: ".") else { return method }
        return String(method[method.index(after: dot)...])
    }

    /// Reads a call from one framed message, or says precisely what is wrong.
    public init(message bytes: [UInt8]) throws(VarlinkError) {
        let value: JSONValue
        do throws(JSONError) { value = try JSONParser.parse(bytes) } catch {
            throw .invalidRequest("the message is not valid JSON: \(error)")
        }
        guard case .object(let object) = value else { throw .invalidRequest("the message must be a JSON object, got \(value.typeName)") }
        guard let methodValue = object["method"] else { throw .invalidRequest("the message has no \"method\"") }
        // A byte search: `String.contains` on a string goes through Foundation's slower `range(of:)`.
        guard case .string(let method) = methodValue, method.utf8.contains(UInt8(ascii: ".")), !method.hasPrefix("."), !method.hasSuffix(".") else {
            throw .invalidRequest("\"method\" must be a string like \"io.alarmd.ListAlarms\"")
        }
        var parameters = JSONObject()
        if let raw = object["parameters"], !raw.isNull {
            guard case .object(let parsed) = raw else { throw .invalidParameter("parameters", "must be an object, got \(raw.typeName)") }
            parameters = parsed
        }
        func flag(_ name: String) throws(VarlinkError) -> Bool {
            guard let raw = object[name], !raw.isNull else { return false }
            guard case .bool(let value) = raw else { throw .invalidRequest("\"\(name)\" must be a boolean, got \(raw.typeName)") }
            return value
        }
        self.init(method: method, parameters: parameters, more: try flag("more"), oneway: try flag("oneway"))
    }

    public var json: JSONValue {
        var object: JSONObject = ["method": .string(method)]
        if !parameters.isEmpty { object["parameters"] = .object(parameters) }
        if more { object["more"] = true }
        if oneway { object["oneway"] = true }
        return .object(object)
    }
}

/// A reply: parameters, or a named error with its parameters.
public enum VarlinkReply: Hashable, Sendable {
    case parameters(JSONObject, continues: Bool)
    case error(VarlinkError)

    public var json: JSONValue {
        switch self {
        case .parameters(let parameters, let continues):
            var object: JSONObject = ["parameters": .object(parameters)]
            if continues { object["continues"] = true }
            return .object(object)
        case .error(let error):
            return .object(["error": .string(error.name), "parameters": .object(error.parameters)])
        }
    }

    /// Reads a reply from one framed message (the client side).
    public init(message bytes: [UInt8]) throws(VarlinkError) {
        let value: JSONValue
        do throws(JSONError) { value = try JSONParser.parse(bytes) } catch { throw .invalidRequest("the reply is not valid JSON: \(error)") }
        guard case .object(let object) = value else { throw .invalidRequest("the reply is not an object") }
        let parameters = object["parameters"]?.objectValue ?? [:]
        if case .string(let name)? = object["error"] {
            self = .error(VarlinkError(name: name, parameters: parameters))
        } else {
            self = .parameters(parameters, continues: object["continues"]?.boolValue ?? false)
        }
    }
}

/// A Varlink error: a qualified name and parameters. The errors alarmd sends
/// are the standard `org.varlink.service` ones and those of `io.alarmd`.
public struct VarlinkError: Error, Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let parameters: JSONObject

    public init(name: String, parameters: JSONObject = [:]) {
        self.name = name
        self.parameters = parameters
    }

    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.MethodNotFound", parameters: ["method": .string(method)])
    }
    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError(name: "org.varlink.service.InterfaceNotFound", parameters: ["interface": .string(interface)])
    }
    public static func expectedMore() -> VarlinkError { VarlinkError(name: "org.varlink.service.ExpectedMore") }
    public static func permissionDenied() -> VarlinkError { VarlinkError(name: "org.varlink.service.PermissionDenied") }
    // The two `io.alarmd` errors this module finds in a message itself. The
    // interface's list of errors, `InterfaceError` in AlarmProtocol, is above
    // this module, so their names are written here as well; InterfaceErrorTests
    // checks that both read back as that list's cases.

    /// `io.alarmd.InvalidParameter`: `parameter` names the field, `message` says what it must be.
    public static func invalidParameter(_ parameter: String, _ message: String) -> VarlinkError {
        // A member named "" (JSON allows it) must still read as a sentence.
        let subject = parameter.isEmpty ? "the parameter named \"\"" : parameter
        return VarlinkError(name: "io.alarmd.InvalidParameter", parameters: ["parameter": .string(parameter), "message": .string("\(subject) \(message)")])
    }
    /// The message itself is unusable (not JSON, not an object, no method).
    public static func invalidRequest(_ message: String) -> VarlinkError {
        VarlinkError(name: "io.alarmd.InvalidRequest", parameters: ["message": .string(message)])
    }

    /// A human sentence: the `message` parameter when there is one.
    public var description: String {
        if let message = parameters["message"]?.stringValue { return message }
        let details = parameters.map { "\($0.key)=\($0.value.jsonText)" }.joined(separator: ", ")
        return details.isEmpty ? name : "\(name) (\(details))"
    }
}

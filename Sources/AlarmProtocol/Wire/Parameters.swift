// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// Typed access to a call's parameters, throwing `io.alarmd.InvalidParameter`
/// naming the parameter (with its path, like `fields.time`) and what it must be.
public struct Parameters: Sendable {
    public let object: JSONObject
    /// Prefix for names in errors (`fields.`, `document.alarms[2].`).
    public let path: String

    public init(_ object: JSONObject, path: String = "") {
        self.object = object
        self.path = path
    }

    /// Fails on members the method does not know, so a typo is not silently ignored.
    public func allowOnly(_ names: Set<String>) throws(VarlinkError) {
        for key in object.keys where !names.contains(key) {
            throw .invalidParameter(path + key, "is not a parameter of this call (known: \(names.sorted().joined(separator: ", ")))")
        }
    }

    private func present(_ name: String) -> JSONValue? {
        guard let value = object[name], !value.isNull else { return nil }
        return value
    }

    public func string(_ name: String) throws(VarlinkError) -> String? {
        guard let value = present(name) else { return nil }
        guard case .string(let text) = value else { throw .invalidParameter(path + name, "must be a string, got \(value.typeName)") }
        return text
    }

    public func requiredString(_ name: String) throws(VarlinkError) -> String {
        guard let text = try string(name) else { throw .invalidParameter(path + name, "is required") }
        return text
    }

    public func bool(_ name: String) throws(VarlinkError) -> Bool? {
        guard let value = present(name) else { return nil }
        guard case .bool(let flag) = value else { throw .invalidParameter(path + name, "must be true or false, got \(value.typeName)") }
        return flag
    }

    public func int(_ name: String, in range: ClosedRange<Int>) throws(VarlinkError) -> Int? {
        guard let value = present(name) else { return nil }
        guard let number = value.intValue else { throw .invalidParameter(path + name, "must be a whole number, got \(value.jsonText)") }
        guard range.contains(number) else { throw .invalidParameter(path + name, "must be \(range.lowerBound)–\(range.upperBound), got \(number)") }
        return number
    }

    public func stringArray(_ name: String) throws(VarlinkError) -> [String]? {
        guard let value = present(name) else { return nil }
        guard case .array(let elements) = value else { throw .invalidParameter(path + name, "must be an array of strings, got \(value.typeName)") }
        var strings: [String] = []
        for element in elements {
            guard case .string(let text) = element else { throw .invalidParameter(path + name, "must be an array of strings, got an element that is \(element.typeName)") }
            strings.append(text)
        }
        return strings
    }

    public func intArray(_ name: String) throws(VarlinkError) -> [Int]? {
        guard let value = present(name) else { return nil }
        guard case .array(let elements) = value else { throw .invalidParameter(path + name, "must be an array of whole numbers, got \(value.typeName)") }
        var numbers: [Int] = []
        for element in elements {
            guard let number = element.intValue else { throw .invalidParameter(path + name, "must be an array of whole numbers, got \(element.jsonText)") }
            numbers.append(number)
        }
        return numbers
    }

    /// An array of objects, each read under `name[i].`.
    public func objectArray(_ name: String) throws(VarlinkError) -> [Parameters]? {
        guard let value = present(name) else { return nil }
        guard case .array(let elements) = value else { throw .invalidParameter(path + name, "must be an array of objects, got \(value.typeName)") }
        var objects: [Parameters] = []
        for (index, element) in elements.enumerated() {
            guard case .object(let nested) = element else { throw .invalidParameter(path + name + "[\(index)]", "must be an object, got \(element.typeName)") }
            objects.append(Parameters(nested, path: path + name + "[\(index)]."))
        }
        return objects
    }

    public func object(_ name: String) throws(VarlinkError) -> Parameters? {
        guard let value = present(name) else { return nil }
        guard case .object(let nested) = value else { throw .invalidParameter(path + name, "must be an object, got \(value.typeName)") }
        return Parameters(nested, path: path + name + ".")
    }

    /// Runs a core validation, reporting its failure under this parameter's path.
    public func validated<T>(_ name: String, _ body: () throws(ValidationError) -> T) throws(VarlinkError) -> T {
        do throws(ValidationError) { return try body() } catch {
            throw .invalidParameter(path + name, "\(error.requirement), got \(error.value)")
        }
    }
}

extension VarlinkError {
    /// A core validation failure as `InvalidParameter`, its field under `path`.
    public static func invalid(_ error: ValidationError, path: String = "") -> VarlinkError {
        InterfaceError.invalid(error, path: path).varlinkError
    }
}

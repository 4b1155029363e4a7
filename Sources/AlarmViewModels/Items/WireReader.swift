// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials

/// Typed, checked reads of an object from the daemon, every failure an
/// ``ItemDecodingError`` naming the member. Strict on types: a reply that
/// does not match the interface is a bug to report, not to paper over.
struct WireReader {
    let object: JSONObject
    /// Prefix for member names in errors (`snooze.`).
    let path: String

    init(_ object: JSONObject, path: String = "") {
        self.object = object
        self.path = path
    }

    private func present(_ field: WireField) -> JSONValue? {
        guard let value = object[field], !value.isNull else { return nil }
        return value
    }

    func fail(_ field: WireField, _ problem: ItemDecodingError.Problem) -> ItemDecodingError {
        ItemDecodingError(field: path + field.name, problem: problem)
    }

    private func wrong(_ field: WireField, _ expected: String, _ value: JSONValue) -> ItemDecodingError {
        fail(field, .wrongType(expected: expected, found: value.typeName))
    }

    func optionalString(_ field: WireField) throws(ItemDecodingError) -> String? {
        guard let value = present(field) else { return nil }
        guard case .string(let text) = value else { throw wrong(field, "string", value) }
        return text
    }

    func string(_ field: WireField) throws(ItemDecodingError) -> String {
        guard let text = try optionalString(field) else { throw fail(field, .missing) }
        return text
    }

    func optionalBool(_ field: WireField) throws(ItemDecodingError) -> Bool? {
        guard let value = present(field) else { return nil }
        guard case .bool(let flag) = value else { throw wrong(field, "bool", value) }
        return flag
    }

    func bool(_ field: WireField) throws(ItemDecodingError) -> Bool {
        guard let flag = try optionalBool(field) else { throw fail(field, .missing) }
        return flag
    }

    func optionalInt(_ field: WireField) throws(ItemDecodingError) -> Int? {
        guard let value = present(field) else { return nil }
        guard let number = value.intValue else { throw wrong(field, "whole number", value) }
        return number
    }

    func int(_ field: WireField) throws(ItemDecodingError) -> Int {
        guard let number = try optionalInt(field) else { throw fail(field, .missing) }
        return number
    }

    func optionalObject(_ field: WireField) throws(ItemDecodingError) -> JSONObject? {
        guard let value = present(field) else { return nil }
        guard case .object(let nested) = value else { throw wrong(field, "object", value) }
        return nested
    }

    func strings(_ field: WireField) throws(ItemDecodingError) -> [String]? {
        guard let value = present(field) else { return nil }
        guard case .array(let elements) = value else { throw wrong(field, "array of strings", value) }
        var result: [String] = []
        for element in elements {
            guard case .string(let text) = element else { throw wrong(field, "array of strings", element) }
            result.append(text)
        }
        return result
    }

    func ints(_ field: WireField) throws(ItemDecodingError) -> [Int]? {
        guard let value = present(field) else { return nil }
        guard case .array(let elements) = value else { throw wrong(field, "array of whole numbers", value) }
        var result: [Int] = []
        for element in elements {
            guard let number = element.intValue else { throw wrong(field, "array of whole numbers", element) }
            result.append(number)
        }
        return result
    }

    /// An item id: a UUID, kept as the daemon writes it (lowercase).
    func id(_ field: WireField) throws(ItemDecodingError) -> String {
        let text = try string(field)
        guard UUID(canonical: text) != nil else { throw fail(field, .invalid("not a UUID: \(ValidationError.quoted(text))")) }
        return text.lowercased()
    }

    /// An instant (RFC 3339 with its offset).
    func optionalInstant(_ field: WireField) throws(ItemDecodingError) -> Date? {
        guard let text = try optionalString(field) else { return nil }
        do throws(ValidationError) { return try InstantParser.parse(text, rules: Zone.utc.rules) } catch {
            throw fail(field, .invalid(error.description))
        }
    }

    /// A local date, `YYYY-MM-DD`, as a day number.
    func optionalDay(_ field: WireField) throws(ItemDecodingError) -> Int64? {
        guard let text = try optionalString(field) else { return nil }
        guard let day = CivilTime.dayNumber(isoDate: text) else { throw fail(field, .invalid("not a date YYYY-MM-DD: \(ValidationError.quoted(text))")) }
        return day
    }

    func phase(_ field: WireField) throws(ItemDecodingError) -> ItemPhase? {
        guard let text = try optionalString(field) else { return nil }
        guard let phase = ItemPhase(rawValue: text) else { throw fail(field, .invalid("unknown phase \(ValidationError.quoted(text))")) }
        return phase
    }

    /// A `Rule`, checked as the daemon checks one.
    func rule(_ field: WireField) throws(ItemDecodingError) -> RecurrenceRule? {
        guard let nested = try optionalObject(field), !nested.isEmpty else { return nil }
        do throws(VarlinkError) { return try Wire.Rule.parse(Parameters(nested, path: path + field.name + ".")) } catch {
            throw fail(field, .invalid(error.description))
        }
    }
}

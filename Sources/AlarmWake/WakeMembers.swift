// SPDX-License-Identifier: Apache-2.0
import VarlinkCore

/// The one reader of `io.alarmd.Wake` objects: a call's parameters (in the
/// helper, from any local user) and a reply's or an error's (in alarmd, from
/// the helper), each member by its ``WakeField``.
///
/// Bounded, because the helper is privileged and every user can reach it: an
/// instant is read only up to ``maxInstantBytes``, a number only within
/// ``intRange``, and a failure quotes at most ``maxQuotedScalars`` of what
/// was sent. Every failure is `InvalidParameter` naming the member and what
/// it must be; nothing a message holds can make the reader trap.
public struct WakeMembers: Sendable {
    /// Where the object came from, which decides what a member no struct
    /// declares means.
    public enum Source: Sendable {
        /// A call's parameters: an unknown member is refused.
        case call
        /// A reply's or an error's parameters: an unknown member is left unread.
        case reply
    }

    /// Far more than the longest instant the helper reads
    /// (`9999-12-31T23:59:59.999999999+00:00`, 35 bytes).
    public static let maxInstantBytes = 64
    /// What an `int` member may hold: the interface's one, a rate limit, is
    /// far inside it, and every value in it is exact in JSON and in `Int`.
    public static let intRange = 0...Int(Int32.max)
    /// How much of a refused value a message quotes back.
    public static let maxQuotedScalars = 64

    public let object: JSONObject
    public let source: Source

    public init(_ object: JSONObject, from source: Source) {
        self.object = object
        self.source = source
    }

    /// In a call, refuses a member none of `fields` names.
    public func allowOnly(_ fields: [WakeField]) throws(WakeError) {
        guard source == .call else { return }
        for key in object.keys where !fields.contains(where: { $0.name == key }) {
            throw .invalidParameter(parameter: Self.clipped(key), message: "\(Self.quoted(key)) is not a parameter of this method")
        }
    }

    /// The member `field` names; absent and `null` are both `nil`.
    private func present(_ field: WakeField) -> JSONValue? {
        guard let value = object[field.name], !value.isNull else { return nil }
        return value
    }

    private func required<T>(_ field: WakeField, _ value: T?) throws(WakeError) -> T {
        guard let value else { throw .invalidParameter(parameter: field.name, message: "\(field.name) is required") }
        return value
    }

    public func string(_ field: WakeField) throws(WakeError) -> String? {
        guard let value = present(field) else { return nil }
        guard case .string(let text) = value else {
            throw .invalidParameter(parameter: field.name, message: "\(field.name) must be a string, got \(Self.shown(value))")
        }
        return text
    }

    public func requiredString(_ field: WakeField) throws(WakeError) -> String { try required(field, try string(field)) }

    /// An RFC 3339 instant with an offset (a local time would depend on the
    /// helper's zone, which is not the caller's).
    public func instant(_ field: WakeField) throws(WakeError) -> WakeInstant? {
        guard let value = present(field) else { return nil }
        guard case .string(let text) = value else {
            throw .invalidParameter(parameter: field.name, message: "\(field.name) must be a string (an RFC 3339 instant) or null, got \(Self.shown(value))")
        }
        guard text.utf8.count <= Self.maxInstantBytes else {
            throw .invalidParameter(parameter: field.name, message: "\(field.name) \(WakeInstant.Invalid.form.requirement), got \(Self.quoted(text))")
        }
        do throws(WakeInstant.Invalid) { return try WakeInstant(rfc3339: text) } catch {
            throw .invalidParameter(parameter: field.name, message: "\(field.name) \(error.requirement), got \(Self.quoted(text))")
        }
    }

    public func requiredInstant(_ field: WakeField) throws(WakeError) -> WakeInstant { try required(field, try instant(field)) }

    public func int(_ field: WakeField) throws(WakeError) -> Int? {
        guard let value = present(field) else { return nil }
        guard let number = value.intValue, Self.intRange.contains(number) else {
            throw .invalidParameter(parameter: field.name,
                                    message: "\(field.name) must be a whole number within \(Self.intRange.lowerBound)–\(Self.intRange.upperBound), got \(Self.shown(value))")
        }
        return number
    }

    public func requiredInt(_ field: WakeField) throws(WakeError) -> Int { try required(field, try int(field)) }

    /// `text` as a JSON string, cut to ``maxQuotedScalars``.
    static func quoted(_ text: String) -> String { JSONValue.string(clipped(text)).jsonText }

    static func clipped(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.prefix(maxQuotedScalars))
        return String(scalars)
    }

    /// A refused value for a message: a string quoted and cut, a scalar as
    /// JSON, an array or object by its type alone.
    static func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .array, .object: return value.typeName
        case .null, .bool, .number: return value.jsonText
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// The errors `io.alarmd` declares, as typed values: what the daemon sends
/// (``varlinkError``) and what alarmctl and the app read back
/// (``init(_:)``). ``Name`` lists the interface's error names, each once,
/// with their parameters; InterfaceErrorTests checks the list against the
/// definition in both directions.
///
/// VarlinkCore, below this module, builds `InvalidParameter` and
/// `InvalidRequest` itself (``VarlinkError/invalidParameter(_:_:)``,
/// ``VarlinkError/invalidRequest(_:)``) for the failures it finds in a
/// message; InterfaceErrorTests checks those read back as these cases.
public enum InterfaceError: Hashable, Sendable {
    /// No item has `id` (or an id starting with it).
    case noSuchItem(id: String, message: String)
    /// The id prefix or name `id` matches several items, whose full ids are
    /// `matches` and whose labels or titles are `titles`, in the same order
    /// (empty from a daemon that does not send them).
    case ambiguousId(id: String, matches: [String], titles: [String], message: String)
    /// `AddAlarm` without `force`: the alarm `id` is just like the one asked
    /// for, and nothing was added.
    case duplicateAlarm(id: String, message: String)
    /// `parameter` (a path such as `fields.time`) is missing or wrong;
    /// `message` starts with it and says what it must be.
    case invalidParameter(parameter: String, message: String)
    /// The message could not be read as a Varlink call.
    case invalidRequest(message: String)
    /// The item is not ringing; without an id, none or several are (their ids in `ringing`).
    case notRinging(message: String, ringing: [String])
    /// The item `id` may not be snoozed now.
    case snoozeNotAllowed(id: String, message: String)
    /// The database could not be written; nothing was changed.
    case storeFailure(message: String)

    /// The interface's error names, each with its parameters.
    public enum Name: String, VarlinkErrorName {
        case noSuchItem = "NoSuchItem"
        case ambiguousId = "AmbiguousId"
        case duplicateAlarm = "DuplicateAlarm"
        case invalidParameter = "InvalidParameter"
        case invalidRequest = "InvalidRequest"
        case notRinging = "NotRinging"
        case snoozeNotAllowed = "SnoozeNotAllowed"
        case storeFailure = "StoreFailure"

        public static var interfaceName: String { InterfaceDefinition.name }

        /// Its parameters, in the definition's order.
        public var fields: [WireField] {
            switch self {
            case .noSuchItem: [Field.id, Field.message]
            case .ambiguousId: [Field.id, Field.matches, Field.titles, Field.message]
            case .duplicateAlarm: [Field.id, Field.message]
            case .invalidParameter: [Field.parameter, Field.message]
            case .invalidRequest: [Field.message]
            case .notRinging: [Field.message, Field.ringing]
            case .snoozeNotAllowed: [Field.id, Field.message]
            case .storeFailure: [Field.message]
            }
        }
    }

    /// The errors' parameters.
    public enum Field {
        public static let id = WireField("id", .string), message = WireField("message", .string)
        public static let matches = WireField("matches", .array(.string)), ringing = WireField("ringing", .array(.string))
        public static let parameter = WireField("parameter", .string), titles = WireField.optional("titles", .array(.string))
    }

    public var name: Name {
        switch self {
        case .noSuchItem: .noSuchItem
        case .ambiguousId: .ambiguousId
        case .duplicateAlarm: .duplicateAlarm
        case .invalidParameter: .invalidParameter
        case .invalidRequest: .invalidRequest
        case .notRinging: .notRinging
        case .snoozeNotAllowed: .snoozeNotAllowed
        case .storeFailure: .storeFailure
        }
    }

    /// The daemon's sentence, in English: every error it sends has one; a
    /// received error without it reads as "".
    public var message: String {
        switch self {
        case .noSuchItem(_, let message), .ambiguousId(_, _, _, let message), .duplicateAlarm(_, let message), .invalidParameter(_, let message), .invalidRequest(let message),
             .notRinging(let message, _), .snoozeNotAllowed(_, let message), .storeFailure(let message):
            message
        }
    }

    /// The error as it goes on the wire, its members in the definition's order.
    public var varlinkError: VarlinkError {
        func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
        let parameters: JSONObject
        switch self {
        case .noSuchItem(let id, let message), .duplicateAlarm(let id, let message):
            parameters = JSONObject([Field.id: .string(id), Field.message: .string(message)])
        case .ambiguousId(let id, let matches, let titles, let message):
            parameters = JSONObject([Field.id: .string(id), Field.matches: strings(matches), Field.titles: strings(titles), Field.message: .string(message)])
        case .invalidParameter(let parameter, let message):
            parameters = JSONObject([Field.parameter: .string(parameter), Field.message: .string(message)])
        case .invalidRequest(let message):
            parameters = JSONObject([Field.message: .string(message)])
        case .notRinging(let message, let ringing):
            parameters = JSONObject([Field.message: .string(message), Field.ringing: strings(ringing)])
        case .snoozeNotAllowed(let id, let message):
            parameters = JSONObject([Field.id: .string(id), Field.message: .string(message)])
        case .storeFailure(let message):
            parameters = JSONObject([Field.message: .string(message)])
        }
        return VarlinkError(name: name.qualified, parameters: parameters)
    }

    /// `InvalidParameter` for `parameter`, worded as every failure of a
    /// call's parameters is: the parameter's path, then `requirement`
    /// (`id must be a UUID or …`).
    public static func invalidParameter(_ parameter: String, _ requirement: String) -> InterfaceError {
        .invalidParameter(parameter: parameter, message: VarlinkError.invalidParameter(parameter, requirement).description)
    }

    /// A core validation failure as `InvalidParameter`, its field under `path`.
    public static func invalid(_ error: ValidationError, path: String = "") -> InterfaceError {
        .invalidParameter(path + error.field, "\(error.requirement), got \(error.value)")
    }

    // MARK: - Reading

    /// How much of a text member is read, in UTF-8 bytes: far more than
    /// any sentence alarmd writes (a few hundred bytes), far less than a reply may hold.
    public static let maxTextBytes = 16 << 10
    /// How many elements of a list member are read: far more than the items
    /// one id prefix matches or that ring at once.
    public static let maxListCount = 1000

    /// Reads an error of `io.alarmd` by its name; `nil` for any other error
    /// (`org.varlink.service.MethodNotFound`, a name the interface does not declare).
    ///
    /// Each member is read by its ``Field`` and within bounds: text up to
    /// ``maxTextBytes``, lists up to ``maxListCount`` elements. A member
    /// that is absent or of another type reads as empty ("" or []), and a
    /// list's elements that are not strings are left out, so that a client
    /// still says what it can of an error that lacks a member.
    public init?(_ error: VarlinkError) {
        guard let name = Name(qualified: error.name) else { return nil }
        let parameters = error.parameters
        func text(_ field: WireField) -> String { Self.clipped(parameters[field]?.stringValue ?? "") }
        func list(_ field: WireField) -> [String] {
            (parameters[field]?.arrayValue ?? []).lazy.compactMap(\.stringValue).prefix(Self.maxListCount).map(Self.clipped)
        }
        switch name {
        case .noSuchItem: self = .noSuchItem(id: text(Field.id), message: text(Field.message))
        case .ambiguousId: self = .ambiguousId(id: text(Field.id), matches: list(Field.matches), titles: list(Field.titles), message: text(Field.message))
        case .duplicateAlarm: self = .duplicateAlarm(id: text(Field.id), message: text(Field.message))
        case .invalidParameter: self = .invalidParameter(parameter: text(Field.parameter), message: text(Field.message))
        case .invalidRequest: self = .invalidRequest(message: text(Field.message))
        case .notRinging: self = .notRinging(message: text(Field.message), ringing: list(Field.ringing))
        case .snoozeNotAllowed: self = .snoozeNotAllowed(id: text(Field.id), message: text(Field.message))
        case .storeFailure: self = .storeFailure(message: text(Field.message))
        }
    }

    /// `text` cut to its first ``maxTextBytes`` bytes, at a scalar's boundary.
    static func clipped(_ text: String) -> String {
        guard text.utf8.count > maxTextBytes else { return text }
        var scalars = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            bytes += UTF8.width(scalar)
            guard bytes <= maxTextBytes else { break }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}

// SPDX-License-Identifier: Apache-2.0
import VarlinkCore

/// The errors `io.alarmd.Wake` declares, as typed values: what the helper
/// throws and sends, and what alarmd reads back (as
/// ``WakeCallFailure/refused(_:)``). ``Name`` lists the interface's error
/// names, each once, with their parameters; WakeInterfaceTests checks the
/// list against the definition.
public enum WakeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A member is not what the method takes, or the message is not a call
    /// of the interface at all. `message` names the parameter and what it must be.
    case invalidParameter(parameter: String, message: String)
    /// `at` is not after `now`: the machine is awake, there is nothing to wake it for.
    case inThePast(at: WakeInstant, now: WakeInstant)
    /// `at` is after `latest`, which is ``WakeSlots/maxAhead`` seconds after the helper's clock.
    case tooFarAhead(at: WakeInstant, latest: WakeInstant)
    /// More than `limit` changes in one second from this user; nothing was changed.
    case tooManyChanges(limit: Int)

    /// The interface's error names, each with its parameters.
    public enum Name: String, VarlinkErrorName {
        case invalidParameter = "InvalidParameter"
        case inThePast = "InThePast"
        case tooFarAhead = "TooFarAhead"
        case tooManyChanges = "TooManyChanges"

        public static var interfaceName: String { WakeInterface.name }

        /// Its parameters, in the definition's order.
        public var fields: [WakeField] {
            switch self {
            case .invalidParameter: [Field.parameter, Field.message]
            case .inThePast: [Field.at, Field.now]
            case .tooFarAhead: [Field.at, Field.latest]
            case .tooManyChanges: [Field.limit]
            }
        }
    }

    /// The errors' parameters.
    public enum Field {
        public static let parameter = WakeField("parameter", .string), message = WakeField("message", .string)
        public static let at = WakeField("at", .instant), now = WakeField("now", .instant), latest = WakeField("latest", .instant)
        public static let limit = WakeField("limit", .int)
    }

    public var name: Name {
        switch self {
        case .invalidParameter: .invalidParameter
        case .inThePast: .inThePast
        case .tooFarAhead: .tooFarAhead
        case .tooManyChanges: .tooManyChanges
        }
    }

    /// The error as it goes on the wire.
    public var varlinkError: VarlinkError {
        let parameters: JSONObject
        switch self {
        case .invalidParameter(let parameter, let message):
            parameters = [Field.parameter.name: .string(parameter), Field.message.name: .string(message)]
        case .inThePast(let at, let now):
            parameters = [Field.at.name: .string(at.rfc3339), Field.now.name: .string(now.rfc3339)]
        case .tooFarAhead(let at, let latest):
            parameters = [Field.at.name: .string(at.rfc3339), Field.latest.name: .string(latest.rfc3339)]
        case .tooManyChanges(let limit):
            parameters = [Field.limit.name: JSONValue(limit)]
        }
        return VarlinkError(name: name.qualified, parameters: parameters)
    }

    /// Reads the error `name` from its parameters; throws `InvalidParameter`
    /// for parameters that are not that error's.
    public init(_ name: Name, _ members: WakeMembers) throws(WakeError) {
        try members.allowOnly(name.fields)
        switch name {
        case .invalidParameter:
            self = .invalidParameter(parameter: try members.requiredString(Field.parameter), message: try members.requiredString(Field.message))
        case .inThePast:
            self = .inThePast(at: try members.requiredInstant(Field.at), now: try members.requiredInstant(Field.now))
        case .tooFarAhead:
            self = .tooFarAhead(at: try members.requiredInstant(Field.at), latest: try members.requiredInstant(Field.latest))
        case .tooManyChanges:
            self = .tooManyChanges(limit: try members.requiredInt(Field.limit))
        }
    }

    /// The error that says why ``WakeSlots`` refused a change.
    public init(_ refusal: WakeSlots.Refusal) {
        switch refusal {
        case .inThePast(let at, let now): self = .inThePast(at: at, now: now)
        case .tooFarAhead(let at, let latest): self = .tooFarAhead(at: at, latest: latest)
        case .tooManyChanges(let limit): self = .tooManyChanges(limit: limit)
        }
    }

    /// A message that is not a call at all (not JSON, not an object, no
    /// method): `InvalidParameter` for the whole message, saying why.
    public static func unusable(_ error: VarlinkError) -> WakeError {
        .invalidParameter(parameter: "message", message: error.description)
    }

    /// A message over the helper's limit; the helper closes the connection after it.
    public static func oversize(_ error: VarlinkFramer.Oversize) -> WakeError {
        .invalidParameter(parameter: "message", message: "a message may be at most \(error.limit) bytes")
    }

    /// A sentence for people, with the instants in RFC 3339.
    public var description: String {
        switch self {
        case .invalidParameter(_, let message): message
        case .inThePast(let at, let now): "\(at.rfc3339) is not after now (\(now.rfc3339))"
        case .tooFarAhead(let at, let latest): "\(at.rfc3339) is after \(latest.rfc3339), the latest a wake-up may be"
        case .tooManyChanges(let limit): "more than \(limit) changes in one second"
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// An error the daemon answered a call with: it was reached and said no.
public struct DaemonRefusal: Equatable, Sendable {
    /// The error's qualified name, `io.alarmd.InvalidParameter`.
    public let name: String
    /// The error as `io.alarmd` declares it; `nil` for one it does not
    /// (`org.varlink.service.MethodNotFound`).
    public let declared: InterfaceError?
    /// For `InvalidParameter`, the parameter's path (`fields.label`,
    /// `fields.rule.byDay[0].ordinal`); `nil` for other errors.
    public let parameter: String?
    /// The daemon's own sentence (English, naming the field and the value),
    /// or one made from the error's parameters.
    public let message: String
    /// The error as it came.
    public let error: VarlinkError

    /// Reads the parts of `error` a client acts on.
    public init(_ error: VarlinkError) {
        self.error = error
        name = error.name
        declared = InterfaceError(error)
        if case .invalidParameter(let parameter, _)? = declared { self.parameter = parameter } else { parameter = nil }
        message = error.description
    }

    /// For `InvalidParameter` messages of the form `PARAMETER REQUIREMENT,
    /// got VALUE`: the requirement (`must be 1–60`) and the value (`61`),
    /// so a form can say them next to its own field; `nil` otherwise.
    public var requirementAndValue: (requirement: String, value: String)? {
        guard let parameter, message.hasPrefix(parameter + " ") else { return nil }
        let rest = message.dropFirst(parameter.count + 1)
        guard let got = rest.ranges(of: ", got ").last else { return nil }
        return (String(rest[..<got.lowerBound]), String(rest[got.upperBound...]))
    }

    /// The refusal for a person, in `l`'s language where the catalog has the
    /// words: an item gone, nothing ringing, a save that failed; the
    /// daemon's sentence for the rest, its requirement translated when the
    /// catalog knows it.
    public func text(in l: some Localization) -> String {
        switch declared {
        case .noSuchItem?: return l.L("It no longer exists: it was removed elsewhere.")
        case .notRinging?: return l.L("nothing is ringing")
        case .snoozeNotAllowed?: return l.L("It may not be snoozed now.")
        case .duplicateAlarm?: return l.L("You already have an alarm at this time with this repeat and label.")
        case .storeFailure?: return l.L("alarmd could not save the change; nothing was changed")
        default:
            guard let parameter, let parts = requirementAndValue else { return message }
            return l.Lf("%1$s %2$s, got %3$s", parameter, Self.requirement(parts.requirement, in: l), parts.value)
        }
    }

    /// A requirement in the reader's language: the catalog's, or made again
    /// from one of the core's templates when it has a number in it.
    static func requirement(_ english: String, in l: some Localization) -> String {
        let translated = l.L(english)
        if translated != english { return translated }
        for template in ValidationError.templates {
            if let arguments = MessageFormat.match(english, template: template) { return MessageFormat.fill(l.L(template), arguments) }
        }
        return english
    }
}

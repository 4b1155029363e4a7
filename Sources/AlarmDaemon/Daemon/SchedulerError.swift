// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore

/// Why the scheduler refused a request; each case maps to one error of the
/// `io.alarmd` interface.
public enum SchedulerError: Error, Equatable, CustomStringConvertible {
    /// No item has this id or prefix.
    case noSuchItem(String)
    /// Empty, or longer than any id or name.
    case badID(String)
    /// The id prefix or name matches several items (their ids and titles).
    case ambiguous(String, [Candidate])
    /// A command without an id needs exactly one ringing item; these ring
    /// ("id title"), or with nothing ringing, are snoozed (`snoozed`: a
    /// dismiss takes the one snoozed item then).
    case ringingCount([String], snoozed: Bool = false)
    case invalid(ValidationError)
    case ring(RingError)
    case store(StoreError)

    /// One of the items an ambiguous id or name matches.
    public struct Candidate: Equatable, Sendable {
        public let id: String
        public let title: String
        /// `item` by its full id, in lowercase, and its label or title.
        public init(_ item: Item) {
            (id, title) = (item.id.lowercasedText, item.title)
        }
    }

    public var description: String {
        switch self {
        case .noSuchItem(let id): return "no alarm or reminder with id or name \(ValidationError.quoted(id))"
        case .badID(let id): return "id must be an id, a prefix of at least 4 of its hexadecimal digits, or a name, got \(ValidationError.quoted(id))"
        case .ambiguous(let id, let matches):
            return "\(ValidationError.quoted(id)) matches several items: "
                + matches.map { "\($0.id) \(ValidationError.quoted($0.title))" }.joined(separator: ", ")
        case .ringingCount(let ringing, let snoozed):
            if ringing.isEmpty { return snoozed ? N_("nothing is ringing or snoozed") : N_("nothing is ringing") }
            return (snoozed ? "nothing is ringing and several items are snoozed, name one: " : "several items are ringing, name one: ")
                + ringing.joined(separator: "; ")
        case .invalid(let error): return error.description
        case .ring(let error): return error.description
        case .store(let error): return error.description
        }
    }
}

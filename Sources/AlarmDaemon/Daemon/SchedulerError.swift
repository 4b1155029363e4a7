// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmStore

/// Why the scheduler refused a request; each case maps to one error of the
/// `io.alarmd` interface.
public enum SchedulerError: Error, Equatable, CustomStringConvertible {
    /// No item has this id or prefix.
    case noSuchItem(String)
    /// Not a UUID or a prefix of at least 4 hexadecimal digits.
    case badID(String)
    /// The prefix matches several items (their ids).
    case ambiguous(String, [String])
    /// A command without an id needs exactly one ringing item; these ring ("id title").
    case ringingCount([String])
    case invalid(ValidationError)
    case ring(RingError)
    case store(StoreError)

    public var description: String {
        switch self {
        case .noSuchItem(let id): return "no alarm or reminder with id \(ValidationError.quoted(id))"
        case .badID(let id): return "id must be a UUID or a prefix of at least 4 hexadecimal digits, got \(ValidationError.quoted(id))"
        case .ambiguous(let id, let matches): return "id \(ValidationError.quoted(id)) matches several items: \(matches.joined(separator: ", "))"
        case .ringingCount(let ringing):
            return ringing.isEmpty ? "nothing is ringing" : "several items are ringing, name one: \(ringing.joined(separator: "; "))"
        case .invalid(let error): return error.description
        case .ring(let error): return error.description
        case .store(let error): return error.description
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// One `Watch` reply: something happened to an item, with the item as it
/// is after it (without live state).
public struct WatchEvent: Equatable, Sendable {
    /// `fired`, `snoozed`, `changed`, …; `nil` for a kind this client does
    /// not know (a newer daemon), which ``rawKind`` keeps.
    public let kind: EventKind?
    public let rawKind: String
    /// The item's id, lowercase.
    public let id: String
    /// `alarm` or `reminder`; `nil` for another.
    public let itemKind: ItemKind?
    public let title: String
    /// `added`, `updated`, `removed`, `moved to 3` for `changed`; free text otherwise.
    public let detail: String
    /// Snoozes taken for the occurrence the event belongs to.
    public let snoozeCount: Int
    /// The alarm after the event, for an alarm's event that carried one that reads.
    public let alarm: AlarmItem?
    /// The reminder after the event, likewise.
    public let reminder: ReminderItem?
    /// Why the event or its item could not be read; the list reloads then.
    public let problem: ItemDecodingError?

    /// Reads a `Watch` reply's parameters (`{"event": Event}`); anything
    /// malformed is kept as a ``problem``, never thrown: one bad event must
    /// not end the subscription.
    public init(reply: JSONObject) {
        do throws(VarlinkError) {
            self.init(try Watch.Reply(Parameters(reply)))
        } catch {
            self.init(event: [:], problem: ItemDecodingError(error))
        }
    }

    /// Reads a typed `Watch` reply's event; see ``init(reply:)``.
    public init(_ reply: Watch.Reply) {
        self.init(event: reply.event, problem: nil)
    }

    private init(event object: JSONObject, problem: ItemDecodingError?) {
        var problem = problem
        let reader = WireReader(object, path: "event.")
        func read<T>(_ body: () throws(ItemDecodingError) -> T?) -> T? {
            do throws(ItemDecodingError) { return try body() } catch {
                if problem == nil { problem = error }
                return nil
            }
        }
        rawKind = read { () throws(ItemDecodingError) in try reader.string(Wire.Event.kind) } ?? ""
        kind = EventKind(rawValue: rawKind)
        id = (read { () throws(ItemDecodingError) in try reader.string(Wire.Event.id) } ?? "").lowercased()
        itemKind = read { () throws(ItemDecodingError) in try reader.optionalString(Wire.Event.itemKind) }.flatMap(ItemKind.init(rawValue:))
        title = read { () throws(ItemDecodingError) in try reader.optionalString(Wire.Event.title) } ?? ""
        detail = read { () throws(ItemDecodingError) in try reader.optionalString(Wire.Event.detail) } ?? ""
        snoozeCount = read { () throws(ItemDecodingError) in try reader.optionalInt(Wire.Event.snoozeCount) } ?? 0
        alarm = read { () throws(ItemDecodingError) in
            try reader.optionalObject(Wire.Event.alarm).map { (nested: JSONObject) throws(ItemDecodingError) in try AlarmItem(wire: nested) }
        }
        reminder = read { () throws(ItemDecodingError) in
            try reader.optionalObject(Wire.Event.reminder).map { (nested: JSONObject) throws(ItemDecodingError) in try ReminderItem(wire: nested) }
        }
        self.problem = problem
    }

    /// A `changed` event that removed its item.
    public var isRemoval: Bool { kind == .changed && detail == "removed" }
}

extension ItemDecodingError {
    /// A reply's decoder's refusal (`InvalidParameter` naming the member,
    /// `event`) as the same member's problem.
    init(_ error: VarlinkError) {
        let field = error.parameters["parameter"]?.stringValue ?? ""
        var message = error.description
        if message.hasPrefix(field + " ") { message.removeFirst(field.count + 1) }
        self.init(field: field, problem: .invalid(message))
    }
}

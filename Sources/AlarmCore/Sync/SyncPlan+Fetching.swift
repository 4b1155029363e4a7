// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Fetching: what becomes of each item read from the server in a round, one
/// item at a time, from the copy read, the copy here and the last round's
/// record of it.
extension SyncPlan {
    /// One item as read from the server: the item, the `UID` it has there
    /// (kept as it is, even when it is another program's), and the href and
    /// ETag it was read at.
    public struct Fetched: Hashable, Sendable {
        public var item: Item
        public var uid: String
        public var href: String
        public var etag: String
    }

    /// The item of `kind` in the calendar `text` read at `href`: its first
    /// `VEVENT` for an alarm, `VTODO` for a reminder. `nil` when it holds
    /// none (an event among to-dos, where one calendar holds both: the
    /// other kind's pass reads it, or no one does); throws what alarmd
    /// cannot keep, which stays on the server untouched. Its `UID` is the
    /// item's id written out when it has none of its own.
    public static func read(_ text: String, href: String, etag: String, kind: ItemKind,
                            settings: ICalendarItems.Settings) throws(ICalendarError) -> Fetched? {
        guard let component = try ICalendarComponent.parse(text, maxBytes: ICalendarItems.maxBytes).first?.components
            .first(where: { $0.name == (kind == .alarm ? "VEVENT" : "VTODO") }) else { return nil }
        let item = try ICalendarItems.item(component, settings: settings)
        return Fetched(item: item, uid: component["UID"]?.text ?? item.id.lowercasedText, href: href, etag: etag)
    }

    /// What becomes of one item read from the server.
    public enum FetchDecision: Hashable, Sendable {
        /// The same as here (a write read back, or both sides made the same
        /// change): the record is kept, and the item is not stored again,
        /// which would restart its ringing state.
        case same(Record)
        /// New there, changed there only, or changed there after it was
        /// removed here: the item is stored here (merged by id) and the
        /// record kept.
        case take(Item, Record)
        /// Changed on both sides since the last round: the newer copy wins
        /// (``SyncPlan/resolve(local:remote:)``) and is kept as `keep` says;
        /// `loser` is the other copy, for the worker to log whole, so that
        /// nothing is lost silently.
        case conflict(winner: Winner, loser: Item, keep: Keep)

        /// How the winner of a conflict is kept.
        public enum Keep: Hashable, Sendable {
            /// The server's copy won: stored here, as ``FetchDecision/take(_:_:)``.
            case take(Item, Record)
            /// This machine's copy won: sent back over the server's (`If-Match`
            /// the ETag just read).
            case send(Send)
        }

        /// The item it is about.
        public var id: UUID {
            switch self {
            case .same(let record): record.id
            case .take(let item, _), .conflict(_, _, .take(let item, _)): item.id
            case .conflict(_, _, .send(let send)): send.item.id
            }
        }

        /// The record to keep this round; `nil` for a copy to send, whose record
        /// follows the server's answer.
        public var record: Record? {
            switch self {
            case .same(let record), .take(_, let record), .conflict(_, _, .take(_, let record)): record
            case .conflict(_, _, .send): nil
            }
        }

        /// The copy to store here, if any.
        public var taken: Item? {
            switch self {
            case .take(let item, _), .conflict(_, _, .take(let item, _)): item
            case .same, .conflict(_, _, .send): nil
            }
        }

        /// The copy to send there, if any (a conflict won here).
        public var send: Send? {
            if case .conflict(_, _, .send(let send)) = self { return send }
            return nil
        }
    }

    /// What becomes of `fetched`, from `mine` (the copy here, if any) and
    /// `record` (the last round's record of the item, if any):
    /// - nothing here: taken;
    /// - the same content as here (``sameContent(_:_:)``): recorded only,
    ///   with the stamp of the copy here, which is the one the store has;
    /// - different, and unchanged here since `record`: taken;
    /// - different and changed here too (or no record, so it cannot be told
    ///   when it changed): a conflict.
    /// A copy taken keeps what the calendar cannot carry from the copy here
    /// (``keepingPrecision(_:of:)``), and its record the stamp of the
    /// server's `updated`.
    public static func decide(fetched: Fetched, mine: Item?, record: Record?) -> FetchDecision {
        let theirs = fetched.item
        let recorded = Record(id: theirs.id, uid: fetched.uid, href: fetched.href, etag: fetched.etag, stamp: stamp(theirs.updated))
        guard let mine else { return .take(theirs, recorded) }
        if sameContent(mine, theirs) {
            return .same(Record(id: theirs.id, uid: fetched.uid, href: fetched.href, etag: fetched.etag, stamp: stamp(mine.updated)))
        }
        let taken = keepingPrecision(theirs, of: mine)
        let changedHere = record.map { stamp(mine.updated) != $0.stamp } ?? true
        guard changedHere else { return .take(taken, recorded) }
        switch resolve(local: mine.updated, remote: theirs.updated) {
        case .local:
            return .conflict(winner: .local, loser: theirs,
                             keep: .send(Send(item: mine, uid: fetched.uid, href: fetched.href, etag: fetched.etag)))
        case .remote:
            return .conflict(winner: .remote, loser: mine, keep: .take(taken, recorded))
        }
    }

    /// Whether two copies say the same in what sync carries: commands and
    /// the list place stay here, `updated` is not content, and iCalendar
    /// keeps times to the second.
    static func sameContent(_ a: Item, _ b: Item) -> Bool {
        func carried(_ item: Item) -> Item {
            switch item {
            case .alarm(var alarm):
                alarm.command = []
                alarm.escalateCommand = []
                alarm.updated = .distantPast
                alarm.created = seconds(alarm.created)
                return .alarm(alarm)
            case .reminder(var reminder):
                reminder.command = []
                reminder.updated = .distantPast
                reminder.position = 0
                reminder.created = seconds(reminder.created)
                reminder.due = reminder.due.map(seconds)
                return .reminder(reminder)
            }
        }
        return carried(a) == carried(b)
    }

    /// `remote` with what the calendar cannot carry taken from `mine`, the
    /// copy here: times the calendar keeps to the second keep their
    /// fraction when they are the same second.
    static func keepingPrecision(_ remote: Item, of mine: Item?) -> Item {
        guard let mine else { return remote }
        switch (remote, mine) {
        case (.alarm(var alarm), .alarm(let known)):
            if seconds(alarm.created) == seconds(known.created) { alarm.created = known.created }
            return .alarm(alarm)
        case (.reminder(var reminder), .reminder(let known)):
            if seconds(reminder.created) == seconds(known.created) { reminder.created = known.created }
            if let due = reminder.due, let knownDue = known.due, seconds(due) == seconds(knownDue) { reminder.due = knownDue }
            return .reminder(reminder)
        default:
            return remote
        }
    }

    private static func seconds(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
}

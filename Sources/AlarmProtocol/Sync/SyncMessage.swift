// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import FoundationEssentials

/// What alarmd and its sync process, `alarmd-sync`, say to each other over
/// their socketpair: one JSON object per message, NUL-framed as Varlink
/// frames its messages, with a single member naming the message.
///
/// alarmd starts the process, sends ``start`` once, then one ``round`` at a
/// time with a snapshot of the items; the process answers with requests
/// (``merge``, ``remove``), each answered by an ``answer`` before it goes on,
/// and ends the round with ``done``. ``log`` and ``reading`` may come at any
/// time. The process is not trusted: alarmd reads what it sends with the same
/// bounded parsers and the same validation as a client's `Import`.
public enum SyncMessage: Sendable, Hashable {
    // alarmd → alarmd-sync
    /// Who to sync with and as whom; the password travels only here.
    case start(SyncStart)
    /// Sync now. `items` is an export document (``ExportDocument``) of
    /// every item, in `zone`; reminders' all-day times are `allDayAt`.
    case round(id: Int, zone: String, allDayAt: TimeOfDay, items: JSONValue)
    /// The answer to the request `id`: `nil` when it was carried out, else why not.
    case answer(id: Int, error: String?)
    /// Leave after the round in flight, if any.
    case stop

    // alarmd-sync → alarmd
    /// Store these items (an export document), merged by id; known items keep their commands.
    case merge(id: Int, items: JSONValue)
    /// Remove these items, removed on the server.
    case remove(id: Int, kind: ItemKind, ids: [UUID])
    /// A line for the journal.
    case log(SyncLogLine)
    /// The process is about to read `href`'s data: if it dies now, that item is why.
    case reading(href: String)
    /// The round `id` is over.
    case done(id: Int, report: SyncReport)

    /// The largest message either side takes: a round's snapshot or a merge
    /// of a whole collection, as large as the largest `Import`.
    public static let maxSize = VarlinkFramer.defaultMaxLargeSize

    public var json: JSONValue {
        let (name, body): (String, JSONValue) = switch self {
        case .start(let start): ("start", start.json)
        case .round(let id, let zone, let allDayAt, let items):
            ("round", .object(["id": JSONValue(id), "zone": .string(zone), "allDayAt": .string(allDayAt.description), "items": items]))
        case .answer(let id, let error): ("answer", .object(["id": JSONValue(id), "error": error.map(JSONValue.string) ?? .null]))
        case .stop: ("stop", .object([:]))
        case .merge(let id, let items): ("merge", .object(["id": JSONValue(id), "items": items]))
        case .remove(let id, let kind, let ids):
            ("remove", .object(["id": JSONValue(id), "kind": .string(kind.rawValue), "ids": .array(ids.map { .string($0.lowercasedText) })]))
        case .log(let line): ("log", line.json)
        case .reading(let href): ("reading", .object(["href": .string(href)]))
        case .done(let id, let report): ("done", .object(["id": JSONValue(id), "report": report.json]))
        }
        var object = JSONObject()
        object[name] = body
        return .object(object)
    }

    /// One framed message, as read by ``VarlinkFramer``: its JSON, then its
    /// members, each checked for type and range; an error names the member.
    public init(frame: [UInt8]) throws(VarlinkError) {
        let value: JSONValue
        do throws(JSONError) { value = try JSONParser.parse(frame) } catch { throw .invalidParameter("message", error.description) }
        guard case .object(let object) = value, object.count == 1, let (name, body) = object.first(where: { _ in true }),
              case .object(let members) = body else {
            throw .invalidParameter("message", "must be an object with one member, an object")
        }
        let p = Parameters(members, path: name + ".")
        func id() throws(VarlinkError) -> Int {
            guard let id = try p.int("id", in: 0...Int(Int32.max)) else { throw .invalidParameter(name + ".id", "is required") }
            return id
        }
        func document() throws(VarlinkError) -> JSONValue {
            guard let items = members["items"], case .object = items else { throw .invalidParameter(name + ".items", "must be an object") }
            return items
        }
        switch name {
        case "start": self = .start(try SyncStart(p))
        case "round":
            let text = try p.requiredString("allDayAt")
            let allDayAt = try p.validated("allDayAt") { () throws(ValidationError) in try TimeOfDay.parse(text, field: "allDayAt") }
            self = .round(id: try id(), zone: try p.requiredString("zone"), allDayAt: allDayAt, items: try document())
        case "answer": self = .answer(id: try id(), error: try p.string("error"))
        case "stop": self = .stop
        case "merge": self = .merge(id: try id(), items: try document())
        case "remove":
            let kindText = try p.requiredString("kind")
            guard let kind = ItemKind(rawValue: kindText) else { throw .invalidParameter(name + ".kind", "must be alarm or reminder, got \(kindText)") }
            var ids: [UUID] = []
            for text in try p.stringArray("ids") ?? [] {
                guard let id = UUID(uuidString: text) else { throw .invalidParameter(name + ".ids", "must hold item ids, got \(text)") }
                ids.append(id)
            }
            self = .remove(id: try id(), kind: kind, ids: ids)
        case "log": self = .log(try SyncLogLine(p))
        case "reading": self = .reading(href: try p.requiredString("href"))
        case "done":
            guard let report = try p.object("report") else { throw .invalidParameter(name + ".report", "is required") }
            self = .done(id: try id(), report: try SyncReport(report))
        default: throw .invalidParameter("message", "\(name) is not a sync message")
        }
    }
}

/// The settings ``SyncMessage/start(_:)`` carries.
public struct SyncStart: Sendable, Hashable {
    public var settings: DaemonConfig.SyncSettings
    public var password: String
    /// Where the process keeps `sync.sqlite3` (its own state: hrefs, ETags, tokens).
    public var stateDirectory: String

    public init(settings: DaemonConfig.SyncSettings, password: String, stateDirectory: String) {
        self.settings = settings
        self.password = password
        self.stateDirectory = stateDirectory
    }

    var json: JSONValue {
        .object(["url": .string(settings.url), "alarmsURL": .string(settings.alarmsURL), "user": .string(settings.user),
                 "password": .string(password), "stateDirectory": .string(stateDirectory)])
    }

    init(_ p: Parameters) throws(VarlinkError) {
        settings = DaemonConfig.SyncSettings()
        settings.url = try p.requiredString("url")
        settings.alarmsURL = try p.string("alarmsURL") ?? ""
        settings.user = try p.string("user") ?? ""
        password = try p.requiredString("password")
        stateDirectory = try p.requiredString("stateDirectory")
    }
}

/// A journal line from the sync process: alarmd writes it with its own
/// identity, the message cut to ``maxBytes``, at most notice priority's
/// urgency from the process's word alone (it cannot raise an alert).
public struct SyncLogLine: Sendable, Hashable {
    public enum Kind: String, Sendable {
        /// Something worth knowing (a round that changed things).
        case info
        /// An item or write the server or alarmd refused, or a round that failed.
        case warning
        /// A conflict: both sides changed one item; the losing copy is in `loser`.
        case conflict
    }

    public var kind: Kind
    public var message: String
    /// The item a conflict or refusal is about.
    public var itemID: UUID?
    /// A conflict's losing copy (iCalendar text).
    public var loser: String?
    /// What failed, for `ALARMD_SYNC_ERROR`.
    public var error: String?

    public static let maxBytes = 64 << 10

    public init(_ kind: Kind, _ message: String, itemID: UUID? = nil, loser: String? = nil, error: String? = nil) {
        self.kind = kind
        self.message = message
        self.itemID = itemID
        self.loser = loser
        self.error = error
    }

    var json: JSONValue {
        .object(["kind": .string(kind.rawValue), "message": .string(message), "itemID": itemID.map { .string($0.lowercasedText) } ?? .null,
                 "loser": loser.map(JSONValue.string) ?? .null, "error": error.map(JSONValue.string) ?? .null])
    }

    init(_ p: Parameters) throws(VarlinkError) {
        let kindText = try p.requiredString("kind")
        guard let kind = Kind(rawValue: kindText) else { throw .invalidParameter(p.path + "kind", "must be info, warning or conflict, got \(kindText)") }
        self.kind = kind
        message = Self.cut(try p.requiredString("message"))
        itemID = try p.string("itemID").flatMap { UUID(uuidString: $0) }
        loser = try p.string("loser").map(Self.cut)
        error = try p.string("error").map(Self.cut)
    }

    /// At most ``maxBytes`` of UTF-8, cut at a character.
    static func cut(_ text: String) -> String {
        guard text.utf8.count > maxBytes else { return text }
        var result = ""
        var bytes = 0
        for character in text {
            bytes += character.utf8.count
            guard bytes <= maxBytes - 3 else { break }
            result.append(character)
        }
        return result + "…"
    }
}

extension SyncReport {
    var json: JSONValue {
        .object(["lastRound": lastRound.map { .number($0.timeIntervalSince1970) } ?? .null, "error": error.map(JSONValue.string) ?? .null,
                 "pulled": JSONValue(pulled), "pushed": JSONValue(pushed), "deletedHere": JSONValue(deletedHere),
                 "deletedThere": JSONValue(deletedThere), "conflicts": JSONValue(conflicts), "pending": JSONValue(pending),
                 "unauthorized": .bool(unauthorized), "deletionsHeld": JSONValue(deletionsHeld), "server": .string(server)])
    }

    init(_ p: Parameters) throws(VarlinkError) {
        self.init()
        let count = 0...Int(Int32.max)
        if case .number(let seconds)? = p.object["lastRound"], seconds.isFinite { lastRound = Date(timeIntervalSince1970: seconds) }
        error = try p.string("error").map(SyncLogLine.cut)
        pulled = try p.int("pulled", in: count) ?? 0
        pushed = try p.int("pushed", in: count) ?? 0
        deletedHere = try p.int("deletedHere", in: count) ?? 0
        deletedThere = try p.int("deletedThere", in: count) ?? 0
        conflicts = try p.int("conflicts", in: count) ?? 0
        pending = try p.int("pending", in: count) ?? 0
        unauthorized = try p.bool("unauthorized") ?? false
        deletionsHeld = try p.int("deletionsHeld", in: count) ?? 0
        server = SyncLogLine.cut(try p.string("server") ?? "")
    }
}

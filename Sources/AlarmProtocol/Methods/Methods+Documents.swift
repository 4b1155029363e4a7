// SPDX-License-Identifier: Apache-2.0
import AlarmCore

// MARK: - Export, import, sync

public enum Export: VarlinkMethod {
    public static let name = "Export"
    public struct Request: WireRequest {
        public static let timers = WireField.optional("timers", .bool)
        public static let fields = [timers]
        /// Whether running timers go in too; they are left out unless asked.
        public var timers: Bool
        public init(timers: Bool = false) { self.timers = timers }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            timers = try parameters.bool(Self.timers) ?? false
        }
        public var json: JSONObject { timers ? Self.json([Self.timers: true]) : [:] }
    }
    public struct Reply: WireReply {
        public static let document = WireField("document", .object)
        public static let fields = [document]
        /// The document (``ExportDocument``), which `Import` takes back as it is.
        public var document: JSONObject
        public init(document: JSONObject) { self.document = document }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            document = try parameters.requiredObject(Self.document).object
        }
        public var json: JSONObject { Self.json([Self.document: .object(document)]) }
    }
}

public enum Import: VarlinkMethod {
    public static let name = "Import"
    public struct Request: WireRequest {
        public static let document = WireField("document", .object), mode = WireField.optional("mode", .string)
        public static let dryRun = WireField.optional("dryRun", .bool)
        public static let fields = [document, mode, dryRun]
        /// The document, its members named `document.…` in errors.
        public var document: Parameters
        /// Merge by id, or replace everything (the default, as before merging existed).
        public var merge: Bool
        public var dryRun: Bool
        public init(document: JSONObject, merge: Bool = false, dryRun: Bool = false) {
            self.document = Parameters(document, path: Self.document.name + ".")
            self.merge = merge
            self.dryRun = dryRun
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            guard let document = try parameters.object(Self.document) else { throw .invalidParameter(Self.document.name, "is required") }
            self.document = document
            switch try parameters.string(Self.mode) {
            case nil, "replace": merge = false
            case "merge": merge = true
            case let other?: throw .invalidParameter(Self.mode.name, "must be merge or replace, got \(ValidationError.quoted(other))")
            }
            dryRun = try parameters.bool(Self.dryRun) ?? false
        }
        public var json: JSONObject {
            var object = Self.json([Self.document: .object(document.object)])
            if merge { object[Self.mode] = "merge" }
            if dryRun { object[Self.dryRun] = true }
            return object
        }
    }
    public struct Reply: WireReply {
        public static let alarms = WireField("alarms", .int), reminders = WireField("reminders", .int)
        public static let added = WireField("added", .int), updated = WireField("updated", .int), removed = WireField("removed", .int)
        public static let changes = WireField("changes", .array(.named("ImportChange")))
        public static let fields = [alarms, reminders, added, updated, removed, changes]

        /// The document's alarms and reminders.
        public var alarms: Int
        public var reminders: Int
        /// How many items the import adds, updates and removes.
        public var added: Int
        public var updated: Int
        public var removed: Int
        /// Each item changed, for a merge or a dry run; empty for a replace done.
        public var changes: [ImportChange]

        public init(alarms: Int, reminders: Int, added: Int, updated: Int, removed: Int, changes: [ImportChange]) {
            self.alarms = alarms
            self.reminders = reminders
            self.added = added
            self.updated = updated
            self.removed = removed
            self.changes = changes
        }

        public init(_ parameters: Parameters) throws(VarlinkError) {
            alarms = try parameters.requiredInt(Self.alarms, in: Self.counts)
            reminders = try parameters.requiredInt(Self.reminders, in: Self.counts)
            added = try parameters.requiredInt(Self.added, in: Self.counts)
            updated = try parameters.requiredInt(Self.updated, in: Self.counts)
            removed = try parameters.requiredInt(Self.removed, in: Self.counts)
            changes = try parameters.requiredObjectArray(Self.changes, as: ImportChange.init(_:))
        }

        public var json: JSONObject {
            Self.json([Self.alarms: JSONValue(alarms), Self.reminders: JSONValue(reminders), Self.added: JSONValue(added), Self.updated: JSONValue(updated),
                       Self.removed: JSONValue(removed), Self.changes: .array(changes.map(\.json))])
        }
    }
}

/// Every alarm and reminder as one iCalendar (RFC 5545) calendar: alarms as
/// recurring `VEVENT`s, reminders as `VTODO`s (see `ICalendarItems`).
public enum ExportCalendar: VarlinkMethod {
    public static let name = "ExportCalendar"
    public typealias Request = NoMembers
    public struct Reply: WireReply {
        public static let calendar = WireField("calendar", .string)
        public static let fields = [calendar]
        /// The iCalendar text, CRLF line ends and all.
        public var calendar: String
        public init(calendar: String) { self.calendar = calendar }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            calendar = try parameters.requiredString(Self.calendar)
        }
        public var json: JSONObject { Self.json([Self.calendar: .string(calendar)]) }
    }
}

/// Takes in an iCalendar text, merged by `UID`: new items added, known ones
/// updated, nothing else touched. All or nothing; the reply is `Import`'s.
public enum ImportCalendar: VarlinkMethod {
    public static let name = "ImportCalendar"
    public struct Request: WireRequest {
        public static let calendar = WireField("calendar", .string), dryRun = WireField.optional("dryRun", .bool)
        public static let fields = [calendar, dryRun]
        public var calendar: String
        public var dryRun: Bool
        public init(calendar: String, dryRun: Bool = false) {
            self.calendar = calendar
            self.dryRun = dryRun
        }
        public init(_ parameters: Parameters) throws(VarlinkError) {
            try parameters.allowOnly(Self.fields)
            calendar = try parameters.requiredString(Self.calendar)
            dryRun = try parameters.bool(Self.dryRun) ?? false
        }
        public var json: JSONObject {
            var object = Self.json([Self.calendar: .string(calendar)])
            if dryRun { object[Self.dryRun] = true }
            return object
        }
    }
    public typealias Reply = Import.Reply
}

/// A CalDAV sync round now (`[Sync]` in alarmd.conf), and what it moved.
/// A round that failed says why in `error`; nothing is lost, and the changes
/// wait here for the next.
public enum Sync: VarlinkMethod {
    public static let name = "Sync"
    public typealias Request = NoMembers
    public struct Reply: WireReply {
        public static let state = WireField("state", .named("SyncState"))
        public static let received = WireField("received", .int), sent = WireField("sent", .int)
        public static let removedHere = WireField("removedHere", .int), removedThere = WireField("removedThere", .int)
        public static let conflicts = WireField("conflicts", .int)
        public static let fields = [state, received, sent, removedHere, removedThere, conflicts]

        /// Sync as the round left it; `state.error` says why a round failed.
        public var state: Wire.SyncState
        /// Items received from the server and sent to it.
        public var received: Int
        public var sent: Int
        /// Items removed here (gone from the server) and there (gone from here).
        public var removedHere: Int
        public var removedThere: Int
        /// Items changed on both sides, each resolved to the newer copy.
        public var conflicts: Int

        public init(state: Wire.SyncState, received: Int = 0, sent: Int = 0, removedHere: Int = 0, removedThere: Int = 0, conflicts: Int = 0) {
            self.state = state
            self.received = received
            self.sent = sent
            self.removedHere = removedHere
            self.removedThere = removedThere
            self.conflicts = conflicts
        }

        public init(_ parameters: Parameters) throws(VarlinkError) {
            state = try parameters.requiredObject(Self.state, as: Wire.SyncState.init(_:))
            received = try parameters.requiredInt(Self.received, in: Self.counts)
            sent = try parameters.requiredInt(Self.sent, in: Self.counts)
            removedHere = try parameters.requiredInt(Self.removedHere, in: Self.counts)
            removedThere = try parameters.requiredInt(Self.removedThere, in: Self.counts)
            conflicts = try parameters.requiredInt(Self.conflicts, in: Self.counts)
        }

        public var json: JSONObject {
            Self.json([Self.state: state.json, Self.received: JSONValue(received), Self.sent: JSONValue(sent), Self.removedHere: JSONValue(removedHere),
                       Self.removedThere: JSONValue(removedThere), Self.conflicts: JSONValue(conflicts)])
        }
    }
}

/// `ImportChange`: what an import does to one item.
public struct ImportChange: WireStruct, Sendable, Equatable {
    public static let change = WireField("change", .string), id = WireField("id", .string), itemKind = WireField("itemKind", .string)
    public static let title = WireField("title", .string)
    public static let fields = [change, id, itemKind, title]

    /// What happens to the item.
    public enum Change: String, CaseIterable, Sendable {
        case added, updated, removed
    }

    public var change: Change
    /// The item's full id, lowercase.
    public var id: String
    public var itemKind: ItemKind
    /// Its label or title (the document's for added and updated items).
    public var title: String

    public init(change: Change, id: String, itemKind: ItemKind, title: String) {
        self.change = change
        self.id = id
        self.itemKind = itemKind
        self.title = title
    }

    public init(_ parameters: Parameters) throws(VarlinkError) {
        change = try parameters.required(Self.change, as: Change.self)
        id = try parameters.requiredString(Self.id)
        itemKind = try parameters.required(Self.itemKind, as: ItemKind.self)
        title = try parameters.requiredString(Self.title)
    }

    public var json: JSONValue {
        .object(JSONObject([Self.change: .string(change.rawValue), Self.id: .string(id), Self.itemKind: .string(itemKind.rawValue), Self.title: .string(title)]))
    }
}

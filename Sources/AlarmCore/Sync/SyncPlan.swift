import FoundationEssentials

/// What one sync round with a CalDAV collection does, decided from three
/// views: the items here, what the last round left (``Record``s: which
/// href and ETag each item had, and its `updated` then), and the
/// collection's listing now (href → ETag). Pure: the sync worker does the
/// HTTP and applies the decisions.
///
/// The rules, for a well-mannered client (RFC 4791 §8, and RFC 6578 where
/// it is used):
/// - changed here only → pushed (`If-Match` the ETag last seen, so nothing
///   changed meanwhile is overwritten blindly); new here → created
///   (`If-None-Match: *`);
/// - changed there only → fetched and applied here;
/// - changed on both sides since the last round → fetched, and the newer
///   `LAST-MODIFIED` wins (``resolve(local:remote:)``); the losing copy is
///   logged whole by the worker, so nothing is lost silently;
/// - removed here and unchanged there → deleted there; removed there and
///   unchanged here → removed here; removed on one side and changed on the
///   other → the change wins (recreated), as losing an edit is worse than
///   keeping a to-do.
public struct SyncPlan: Hashable, Sendable {
    /// What the last round knew of one item.
    public struct Record: Hashable, Sendable {
        public var id: UUID
        /// The `UID` the server knows it by: the id, or another program's
        /// own (`4711@tasks.org`), which must stay as it is.
        public var uid: String
        public var href: String
        public var etag: String
        /// The item's `updated` when it was last sent or received, in
        /// microseconds since the epoch (the store's precision).
        public var stamp: Int64

        public init(id: UUID, uid: String, href: String, etag: String, stamp: Int64) {
            self.id = id
            self.uid = uid
            self.href = href
            self.etag = etag
            self.stamp = stamp
        }
    }

    /// Hrefs to read (new or changed there).
    public var fetch: [String] = []
    /// Items to create there.
    public var create: [UUID] = []
    /// Items to send over their record's copy (`If-Match`).
    public var update: [Record] = []
    /// Records of items removed here, to delete there (`If-Match`).
    public var deleteRemote: [Record] = []
    /// Items removed there, to remove here.
    public var deleteLocal: [UUID] = []
    /// Records to drop without anything else (gone on both sides).
    public var forget: [Record] = []

    public init() {}

    /// `local`: each item here with its stamp; `records`: the last round's;
    /// `remote`: the collection's listing (href → ETag).
    public static func plan(local: [UUID: Int64], records: [Record], remote: [String: String]) -> SyncPlan {
        var plan = SyncPlan()
        var recorded: Set<UUID> = []
        var recordedHrefs: Set<String> = []
        for record in records.sorted(by: { $0.href < $1.href }) {
            recorded.insert(record.id)
            recordedHrefs.insert(record.href)
            let stamp = local[record.id]
            let changedHere = stamp != nil && stamp != record.stamp
            switch (stamp, remote[record.href]) {
            case (nil, nil):
                plan.forget.append(record)
            case (nil, let etag?):
                // Removed here: deleted there, unless it changed there meanwhile.
                if etag == record.etag { plan.deleteRemote.append(record) } else { plan.fetch.append(record.href) }
            case (_?, nil):
                // Removed there: removed here, unless it changed here meanwhile.
                if changedHere {
                    plan.forget.append(record)
                    plan.create.append(record.id)
                } else {
                    plan.deleteLocal.append(record.id)
                }
            case (_?, let etag?):
                if etag != record.etag {
                    plan.fetch.append(record.href)  // changed there (and maybe here): resolved once read
                } else if changedHere {
                    plan.update.append(record)
                }
            }
        }
        for (href, _) in remote.sorted(by: { $0.key < $1.key }) where !recordedHrefs.contains(href) { plan.fetch.append(href) }
        for (id, _) in local.sorted(by: { $0.key.uuidString < $1.key.uuidString }) where !recorded.contains(id) { plan.create.append(id) }
        return plan
    }

    /// Of an item changed on both sides, which copy wins: the newer
    /// `updated` (`LAST-MODIFIED`); at a tie, the server's, which every other
    /// device already sees.
    public enum Winner: Hashable, Sendable { case local, remote }

    public static func resolve(local: Date, remote: Date) -> Winner {
        local > remote ? .local : .remote
    }

    public var isEmpty: Bool { self == SyncPlan() }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// What one sync round with a CalDAV collection does, decided from three
/// views: the items here, what the last round left (``Record``s: which
/// href and ETag each item had, and its `updated` then), and the
/// collection's listing now (href → ETag). Pure: the sync worker does the
/// HTTP and applies the decisions. What becomes of each item read from the
/// server is ``decide(fetched:mine:record:)``'s (SyncPlan+Fetching.swift),
/// and what is sent there is ``sends(local:records:decisions:href:)``'s
/// (SyncPlan+Sending.swift).
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
///   keeping a to-do;
/// - more than half of a collection removed there at once waits for the
///   next round to say the same (``holdingMassDeletions(records:heldLastRound:)``);
/// - an href found unkeepable is not read again until its ETag changes
///   (``ignoring(_:remote:)``).
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

    /// The stamp a record keeps of an item's `updated`: microseconds since
    /// the epoch, the store's precision, so that a copy read back from the
    /// store compares equal to the one recorded.
    public static func stamp(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }

    /// This plan without the reads of hrefs already found unkeepable
    /// (another program's item alarmd cannot keep, or an item of the other
    /// kind where one calendar holds both): `known` maps each such href to
    /// the ETag it had then, and one is read again only once `remote` lists
    /// it with another ETag. Their records stay, and so do they in the
    /// listing, so they are not taken for items removed there.
    public func ignoring(_ known: [String: String], remote: [String: String]) -> SyncPlan {
        var plan = self
        plan.fetch.removeAll { href in known[href].map { $0 == remote[href] } ?? false }
        return plan
    }

    /// This plan with its removals here held back when they are many: more
    /// than half of the `records` count at once is more often a listing
    /// that went wrong (a server restored from an old backup, a collection
    /// emptied by mistake) than a person's doing, so such removals go ahead
    /// only when the round after says the same, that is when
    /// `heldLastRound` is the very same set. Returns the plan to carry out
    /// and the removals held this round, to pass back as `heldLastRound`
    /// next round; `nil` when none are held. (More than half of the
    /// records is never none of them, so an empty set is never held.)
    public func holdingMassDeletions(records: Int, heldLastRound: Set<UUID>?) -> (plan: SyncPlan, held: Set<UUID>?) {
        let deletions = Set(deleteLocal)
        guard deletions.count * 2 > records, heldLastRound != deletions else { return (self, nil) }
        var plan = self
        plan.deleteLocal = []
        return (plan, deletions)
    }
}

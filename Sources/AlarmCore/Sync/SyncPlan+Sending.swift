// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Sending: which items a round writes to the server, under which `UID`, at
/// which href, and over which ETag.
extension SyncPlan {
    /// One write there: `item` as a calendar with `uid`, at `href`, over the
    /// copy with `etag` (`If-Match`), or new when `etag` is `nil`
    /// (`If-None-Match: *`, so nothing there is overwritten).
    public struct Send: Hashable, Sendable {
        public var item: Item
        public var uid: String
        public var href: String
        public var etag: String?

        public init(item: Item, uid: String, href: String, etag: String?) {
            self.item = item
            self.uid = uid
            self.href = href
            self.etag = etag
        }
    }

    /// What to send there, in this order:
    /// - the items to create, new, at `href(id)`, except those read from the
    ///   server this round (in `decisions`: they are there already, maybe
    ///   under another name); one whose record was dropped (removed there
    ///   but changed here) keeps that record's `UID`, which may be another
    ///   program's, and any other is sent under its id;
    /// - the items to update, over their record's href and ETag;
    /// - the conflicts won here, over the copy just read.
    /// An item missing from `local` is not sent.
    public func sends(local: [UUID: Item], records: [Record], decisions: [FetchDecision], href: (UUID) -> String) -> [Send] {
        let read = Set(decisions.map(\.id))
        let uids = Dictionary(records.map { ($0.id, $0.uid) }, uniquingKeysWith: { first, _ in first })
        var sends: [Send] = create.filter { !read.contains($0) }.compactMap { id in
            local[id].map { Send(item: $0, uid: uids[id] ?? id.lowercasedText, href: href(id), etag: nil) }
        }
        sends += update.compactMap { record in local[record.id].map { Send(item: $0, uid: record.uid, href: record.href, etag: record.etag) } }
        sends += decisions.compactMap(\.send)
        return sends
    }
}

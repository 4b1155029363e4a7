// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmStore
import FoundationEssentials

/// Two-way sync of reminders (and, when `[Sync] AlarmsURL=` is set, alarms)
/// with CalDAV collections: one round at a time, blocking, in `alarmd-sync`.
/// Decisions are ``SyncPlan``'s; this carries them out over HTTP and through
/// the ``SyncHost``. Its own state (hrefs, ETags, tokens) is `sync.sqlite3`.
///
/// What the server says is believed only as far as it is understood: a
/// listing that cannot be read fails the round and changes nothing; an item
/// is removed here only when the server says it is gone (a sync-token `404`,
/// or its absence from a complete listing); and when one round would remove
/// more than half of a collection's items here, the removals wait until the
/// next round's listing says the same.
package final class SyncEngine {
    private let settings: DaemonConfig.SyncSettings
    private let http: HTTPClient
    private let state: SyncStateStore
    private let host: SyncHost
    /// Per collection, hrefs (with the ETag they had) of items this pass
    /// does not keep: not read again until they change (``SyncPlan/ignoring(_:remote:)``).
    private var ignored: [String: [String: String]] = [:]
    /// Per collection, the removals a round held back (see the type's comment).
    private var heldDeletions: [String: Set<UUID>] = [:]

    package enum StartFailure: Error, CustomStringConvertible {
        case http
        case state(String)

        package var description: String {
            switch self {
            case .http: "libcurl could not start"
            case .state(let problem): problem
            }
        }
    }

    package init(settings: DaemonConfig.SyncSettings, password: String, stateDirectory: String, host: SyncHost) throws(StartFailure) {
        guard let http = HTTPClient(user: settings.user, password: password) else { throw .http }
        do { state = try SyncStateStore(path: stateDirectory + "/sync.sqlite3") } catch { throw .state("\(error)") }
        self.http = http
        self.settings = settings
        self.host = host
    }

    /// One round over every configured collection, from the items here as
    /// `local` has them.
    package func round(local: (alarms: [Alarm], reminders: [Reminder]), calendar: ICalendarItems.Settings) -> SyncReport {
        var report = SyncReport(server: settings.url)
        // An item a multiget left out (another origin, over its size) is said once a round.
        let host = host
        func collection(_ url: String) -> CalDAVCollection {
            CalDAVCollection(url: url, http: http) { skipped in
                host.log(SyncLogLine(.warning, "Sync: \(skipped) on the server is not read", error: skipped.description))
            }
        }
        var collections: [(CalDAVCollection, ItemKind)] = [(collection(settings.url), .reminder)]
        if !settings.alarmsURL.isEmpty { collections.append((collection(settings.alarmsURL), .alarm)) }
        var snapshot = local
        for (collection, kind) in collections {
            do throws(CalDAVCollection.Failure) {
                try sync(collection, kind: kind, local: &snapshot, calendar: calendar, report: &report)
            } catch {
                report.error = error.description
                report.unauthorized = error.unauthorized
                break
            }
        }
        report.lastRound = Date()
        report.pending = pendingCount(collections, snapshot)
        return report
    }

    /// The items of `kind` that sync.
    private static func items(_ kind: ItemKind, of snapshot: (alarms: [Alarm], reminders: [Reminder])) -> [UUID: Item] {
        var items: [UUID: Item] = [:]
        switch kind {
        case .alarm: for alarm in snapshot.alarms { items[alarm.id] = .alarm(alarm) }
        // A timer counts down on this machine only.
        case .reminder: for reminder in snapshot.reminders where !reminder.isTimer { items[reminder.id] = .reminder(reminder) }
        }
        return items
    }

    /// The sync state's key for a collection: its kind and address, so that
    /// alarms and reminders never share records even on one server.
    static func stateKey(_ collection: CalDAVCollection, _ kind: ItemKind) -> String { kind.rawValue + " " + collection.url }

    /// One collection's round: the listing, ``SyncPlan``'s decisions, and
    /// carrying them out (reads, stores here, writes and removals there),
    /// then the state, all in one change.
    private func sync(_ collection: CalDAVCollection, kind: ItemKind, local snapshot: inout (alarms: [Alarm], reminders: [Reminder]),
                      calendar: ICalendarItems.Settings, report: inout SyncReport) throws(CalDAVCollection.Failure) {
        let key = Self.stateKey(collection, kind)
        let records: [SyncPlan.Record]
        let lastToken: String?
        do {
            records = try state.records(collection: key)
            lastToken = try state.token(collection: key)
        } catch { throw CalDAVCollection.Failure(description: "the sync state: \(error)") }
        let (remote, token) = try listing(collection, records: records, since: lastToken)
        let local = Self.items(kind, of: snapshot)
        let (plan, held) = SyncPlan.plan(local: local.mapValues { SyncPlan.stamp($0.updated) }, records: records, remote: remote)
            .ignoring(ignored[key] ?? [:], remote: remote)
            .holdingMassDeletions(records: records.count, heldLastRound: heldDeletions[key])
        heldDeletions[key] = held
        if let held {
            host.log(SyncLogLine(.warning, "Sync: the server's listing of \(collection.url) lacks \(held.count) of the \(records.count) items it had; they are removed here only if the next round says the same",
                                 error: "\(held.count) removals held"))
            report.deletionsHeld += held.count
        }
        guard !plan.isEmpty else {
            if token != lastToken { try saveState(key, save: [], remove: [], token: token) }
            return
        }
        let decisions = try read(plan.fetch, from: collection, key: key, kind: kind, remote: remote, local: local, records: records,
                                 calendar: calendar, report: &report)
        var saves = decisions.compactMap(\.record)
        try merge(decisions.compactMap(\.taken), into: &snapshot, report: &report)
        try remove(plan.deleteLocal, kind: kind, from: &snapshot, report: &report)
        var removes = plan.deleteLocal + plan.forget.map(\.id)
        for send in plan.sends(local: local, records: records, decisions: decisions, href: collection.href(for:)) {
            if let record = try put(send, to: collection, calendar: calendar) {
                saves.append(record)
                report.pushed += 1
            }
        }
        removes += try delete(plan.deleteRemote, from: collection, report: &report)
        try saveState(key, save: saves, remove: removes, token: token)
    }

    /// What is there now: from the changes since `lastToken` where the
    /// server keeps them (RFC 6578), applied to the last round's `records`,
    /// else from a full listing.
    private func listing(_ collection: CalDAVCollection, records: [SyncPlan.Record],
                         since lastToken: String?) throws(CalDAVCollection.Failure) -> (listing: [String: String], token: String?) {
        host.reading(collection.url)
        guard let lastToken, let delta = try collection.changes(since: lastToken) else { return try collection.list() }
        var remote = Dictionary(records.map { ($0.href, $0.etag) }, uniquingKeysWith: { first, _ in first })
        for (href, etag) in delta.changed { remote[href] = etag }
        for href in delta.removed { remote[href] = nil }
        return (remote, delta.token)
    }

    /// Reads `hrefs` and decides each (``SyncPlan/decide(fetched:mine:record:)``),
    /// in href order. What cannot be kept here is said (another kind is not
    /// the concern of this pass) and remembered with its ETag in `ignored`;
    /// a conflict is counted and its losing copy logged whole.
    private func read(_ hrefs: [String], from collection: CalDAVCollection, key: String, kind: ItemKind, remote: [String: String],
                      local: [UUID: Item], records: [SyncPlan.Record], calendar: ICalendarItems.Settings,
                      report: inout SyncReport) throws(CalDAVCollection.Failure) -> [SyncPlan.FetchDecision] {
        let recordByID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var decisions: [SyncPlan.FetchDecision] = []
        host.reading(collection.url)
        for (href, text) in try collection.fetch(hrefs).sorted(by: { $0.key < $1.key }) {
            host.reading(href)
            let etag = text.etag ?? remote[href] ?? ""
            let fetched: SyncPlan.Fetched?
            do throws(ICalendarError) { fetched = try SyncPlan.read(text.text, href: href, etag: etag, kind: kind, settings: calendar) } catch {
                host.log(SyncLogLine(.warning, "Sync: \(href) on the server is not kept here: \(error)", error: "\(href): \(error)"))
                fetched = nil
            }
            guard let fetched else {
                ignored[key, default: [:]][href] = etag
                continue
            }
            let mine = local[fetched.item.id]
            let decision = SyncPlan.decide(fetched: fetched, mine: mine, record: recordByID[fetched.item.id])
            if case .conflict(let winner, let loser, _) = decision, let mine {
                report.conflicts += 1
                // LF line ends: the journal keeps a message with CRs as bytes, not text.
                let text = ICalendarItems.calendar(for: loser, uid: fetched.uid, settings: calendar).replacing("\r\n", with: "\n")
                host.log(SyncLogLine(.conflict, "Sync conflict: \(EventText.subject(mine)) changed here and on the server; kept the newer copy (\(winner == .local ? "this machine's" : "the server's")); the other follows:\n\(text)",
                                     itemID: fetched.item.id, loser: text))
            }
            decisions.append(decision)
        }
        return decisions
    }

    /// Stores `items` read from the server here, in one change, and in `snapshot`.
    private func merge(_ items: [Item], into snapshot: inout (alarms: [Alarm], reminders: [Reminder]),
                       report: inout SyncReport) throws(CalDAVCollection.Failure) {
        guard !items.isEmpty else { return }
        var alarms: [Alarm] = [], reminders: [Reminder] = []
        for item in items {
            switch item {
            case .alarm(let alarm): alarms.append(alarm)
            case .reminder(let reminder): reminders.append(reminder)
            }
        }
        do throws(SyncHostError) { try host.merge(alarms: alarms, reminders: reminders) } catch {
            throw CalDAVCollection.Failure(description: "cannot store what the server sent (\(items.map { EventText.subject($0) }.prefix(3).joined(separator: ", "))…): \(error)")
        }
        report.pulled += items.count
        Self.apply(items, to: &snapshot)
    }

    /// Removes here what the server removed, all in one change, and from `snapshot`.
    private func remove(_ ids: [UUID], kind: ItemKind, from snapshot: inout (alarms: [Alarm], reminders: [Reminder]),
                        report: inout SyncReport) throws(CalDAVCollection.Failure) {
        guard !ids.isEmpty else { return }
        do throws(SyncHostError) { try host.remove(ids, kind: kind) } catch {
            throw CalDAVCollection.Failure(description: "cannot remove what the server removed: \(error)")
        }
        report.deletedHere += ids.count
        let gone = Set(ids)
        snapshot.alarms.removeAll { gone.contains($0.id) }
        snapshot.reminders.removeAll { gone.contains($0.id) }
    }

    /// Deletes there what was removed here, each over the ETag last seen:
    /// one request each, and no waiting between them. Returns the ids whose
    /// records go; one changed there meanwhile keeps its record, and the
    /// next round reads it.
    private func delete(_ records: [SyncPlan.Record], from collection: CalDAVCollection,
                        report: inout SyncReport) throws(CalDAVCollection.Failure) -> [UUID] {
        var deleted: [UUID] = []
        for record in records {
            switch try collection.delete(record.href, etag: record.etag) {
            case .stored:
                deleted.append(record.id)
                report.deletedThere += 1
            case .changedThere:
                break
            case .refused(let status):
                refused("removing \(record.href)", status: status, href: record.href)
            }
        }
        return deleted
    }

    /// Writes `send` there; the record to keep when the server stored it,
    /// `nil` when it changed there meanwhile (the next round reads it and
    /// resolves) or refused it.
    private func put(_ send: SyncPlan.Send, to collection: CalDAVCollection,
                     calendar: ICalendarItems.Settings) throws(CalDAVCollection.Failure) -> SyncPlan.Record? {
        switch try collection.put(send.href, ICalendarItems.calendar(for: send.item, uid: send.uid, settings: calendar), etag: send.etag) {
        case .stored(let etag):
            // Without an ETag in the reply it is asked for: a record
            // without one would take the item for changed there.
            var known = etag ?? ""
            if etag == nil { known = try collection.etag(of: send.href) ?? "" }
            return SyncPlan.Record(id: send.item.id, uid: send.uid, href: send.href, etag: known, stamp: SyncPlan.stamp(send.item.updated))
        case .changedThere:
            return nil
        case .refused(let status):
            refused("sending \(EventText.subject(send.item)) to \(send.href)", status: status, href: send.href)
            return nil
        }
    }

    /// `snapshot` with `items` stored over it, as the host now has them.
    private static func apply(_ items: [Item], to snapshot: inout (alarms: [Alarm], reminders: [Reminder])) {
        for item in items {
            switch item {
            case .alarm(let alarm):
                if let index = snapshot.alarms.firstIndex(where: { $0.id == alarm.id }) { snapshot.alarms[index] = alarm } else { snapshot.alarms.append(alarm) }
            case .reminder(let reminder):
                if let index = snapshot.reminders.firstIndex(where: { $0.id == reminder.id }) { snapshot.reminders[index] = reminder } else { snapshot.reminders.append(reminder) }
            }
        }
    }

    /// A write the server refused (a 4xx other than 401 and 412): said once,
    /// and the rest of the round goes on; the item stays here.
    private func refused(_ what: String, status: Int, href: String) {
        host.log(SyncLogLine(.warning, "Sync: the server refused \(what) (HTTP \(status)); it stays here", error: "HTTP \(status) for \(href)"))
    }

    private func saveState(_ key: String, save: [SyncPlan.Record], remove: [UUID], token: String?) throws(CalDAVCollection.Failure) {
        do { try state.apply(collection: key, save: save, remove: remove, token: token) } catch {
            throw CalDAVCollection.Failure(description: "the sync state: \(error)")
        }
    }

    /// Local changes the server does not have: items changed or new since
    /// their record, and records of items removed here.
    private func pendingCount(_ collections: [(CalDAVCollection, ItemKind)], _ snapshot: (alarms: [Alarm], reminders: [Reminder])) -> Int {
        var count = 0
        for (collection, kind) in collections {
            guard let records = try? state.records(collection: Self.stateKey(collection, kind)) else { continue }
            let local = Self.items(kind, of: snapshot)
            let byID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            count += local.values.filter { item in byID[item.id].map { $0.stamp != SyncPlan.stamp(item.updated) } ?? true }.count
            count += records.filter { local[$0.id] == nil }.count
        }
        return count
    }
}

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
    /// Hrefs (with the ETag they had) of items alarmd cannot keep, and of
    /// writes the server refused: not read or sent again until they change.
    private var ignored: [String: String] = [:]
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

    /// Whether two copies say the same in what sync carries: commands and
    /// the list place stay here, and iCalendar keeps times to the second.
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

    private static func seconds(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }

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

    /// The stamp a record keeps: `updated` in microseconds.
    static func stamp(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }

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

    private func sync(_ collection: CalDAVCollection, kind: ItemKind, local snapshot: inout (alarms: [Alarm], reminders: [Reminder]),
                      calendar: ICalendarItems.Settings, report: inout SyncReport) throws(CalDAVCollection.Failure) {
        let key = Self.stateKey(collection, kind)
        let records: [SyncPlan.Record]
        let lastToken: String?
        do {
            records = try state.records(collection: key)
            lastToken = try state.token(collection: key)
        } catch { throw CalDAVCollection.Failure(description: "the sync state: \(error)") }
        // What is there now: from the changes since the last token where the
        // server keeps them (RFC 6578), else from a full listing.
        var remote: [String: String]
        let token: String?
        host.reading(collection.url)
        if let lastToken, let delta = try collection.changes(since: lastToken) {
            remote = Dictionary(records.map { ($0.href, $0.etag) }, uniquingKeysWith: { first, _ in first })
            for (href, etag) in delta.changed { remote[href] = etag }
            for href in delta.removed { remote[href] = nil }
            token = delta.token
        } else {
            (remote, token) = try collection.list()
        }
        let local = Self.items(kind, of: snapshot)
        var plan = SyncPlan.plan(local: local.mapValues { Self.stamp($0.updated) }, records: records, remote: remote)
        // Items alarmd cannot keep, already said: not read again until they
        // change. (They stay in the listing, so their records are not taken
        // for items removed there.)
        plan.fetch.removeAll { ignored[key + " " + $0] != nil && ignored[key + " " + $0] == remote[$0] }
        // Many removals at once wait for the next round to say the same.
        let deletions = Set(plan.deleteLocal)
        // (More than half of the records is never none of them.)
        if deletions.count * 2 > records.count, heldDeletions[key] != deletions {
            heldDeletions[key] = deletions
            host.log(SyncLogLine(.warning, "Sync: the server's listing of \(collection.url) lacks \(deletions.count) of the \(records.count) items it had; they are removed here only if the next round says the same",
                                 error: "\(deletions.count) removals held"))
            report.deletionsHeld += deletions.count
            plan.deleteLocal = []
        } else {
            heldDeletions[key] = nil
        }
        guard !plan.isEmpty else {
            if token != lastToken { try saveState(key, save: [], remove: [], token: token) }
            return
        }
        let recordByID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var saves: [SyncPlan.Record] = []
        var removes: [UUID] = []
        var merged: [Item] = []
        var localWins: [(item: Item, uid: String, href: String, etag: String)] = []

        // Read what is new or changed there, and decide each.
        host.reading(collection.url)
        for (href, fetched) in try collection.fetch(plan.fetch).sorted(by: { $0.key < $1.key }) {
            host.reading(href)
            let etag = fetched.etag ?? remote[href] ?? ""
            let item: Item
            let uid: String
            do throws(ICalendarError) {
                guard let component = try ICalendarComponent.parse(fetched.text, maxBytes: ICalendarItems.maxBytes).first?.components
                    .first(where: { $0.name == (kind == .alarm ? "VEVENT" : "VTODO") }) else {
                    // Another kind (an event among to-dos, where one calendar
                    // holds both): the other pass's, or no one's.
                    ignored[key + " " + href] = etag
                    continue
                }
                item = try ICalendarItems.item(component, settings: calendar)
                uid = component["UID"]?.text ?? item.id.uuidString.lowercased()
            } catch {
                // Another program's item alarmd cannot keep stays on the server untouched.
                host.log(SyncLogLine(.warning, "Sync: \(href) on the server is not kept here: \(error)", error: "\(href): \(error)"))
                ignored[key + " " + href] = etag
                continue
            }
            plan.create.removeAll { $0 == item.id }
            let mine = local[item.id]
            if let mine, Self.sameContent(mine, item) {
                // The same as here (a write read back, or both sides made the
                // same change): recorded, not stored again, which would restart
                // its ringing state.
                saves.append(SyncPlan.Record(id: item.id, uid: uid, href: href, etag: etag, stamp: Self.stamp(mine.updated)))
                continue
            }
            if let mine {
                let changedHere = recordByID[item.id].map { Self.stamp(mine.updated) != $0.stamp } ?? true
                if changedHere {
                    report.conflicts += 1
                    let winner = SyncPlan.resolve(local: mine.updated, remote: item.updated)
                    let loser = winner == .local ? item : mine
                    // LF line ends: the journal keeps a message with CRs as bytes, not text.
                    let text = ICalendarItems.calendar(for: loser, uid: uid, settings: calendar).replacing("\r\n", with: "\n")
                    host.log(SyncLogLine(.conflict, "Sync conflict: \(EventText.subject(mine)) changed here and on the server; kept the newer copy (\(winner == .local ? "this machine's" : "the server's")); the other follows:\n\(text)",
                                         itemID: item.id, loser: text))
                    if winner == .local {
                        localWins.append((mine, uid, href, etag))
                        continue
                    }
                }
            }
            merged.append(Self.keepingPrecision(item, of: mine))
            saves.append(SyncPlan.Record(id: item.id, uid: uid, href: href, etag: etag, stamp: Self.stamp(item.updated)))
        }
        if !merged.isEmpty {
            var alarms: [Alarm] = [], reminders: [Reminder] = []
            for item in merged {
                switch item {
                case .alarm(let alarm): alarms.append(alarm)
                case .reminder(let reminder): reminders.append(reminder)
                }
            }
            do throws(SyncHostError) { try host.merge(alarms: alarms, reminders: reminders) } catch {
                throw CalDAVCollection.Failure(description: "cannot store what the server sent (\(merged.map { EventText.subject($0) }.prefix(3).joined(separator: ", "))…): \(error)")
            }
            report.pulled += merged.count
            Self.apply(merged, to: &snapshot)
        }
        // Removed there: all in one change.
        if !plan.deleteLocal.isEmpty {
            do throws(SyncHostError) { try host.remove(plan.deleteLocal, kind: kind) } catch {
                throw CalDAVCollection.Failure(description: "cannot remove what the server removed: \(error)")
            }
            removes += plan.deleteLocal
            report.deletedHere += plan.deleteLocal.count
            let gone = Set(plan.deleteLocal)
            snapshot.alarms.removeAll { gone.contains($0.id) }
            snapshot.reminders.removeAll { gone.contains($0.id) }
        }
        removes += plan.forget.map(\.id)
        // Sent there: new ones, changed ones, and conflicts won here.
        var sends: [(item: Item, uid: String, href: String, etag: String?)] = plan.create.compactMap { id in
            // A record dropped because the item went there keeps its UID.
            local[id].map { ($0, recordByID[id]?.uid ?? id.uuidString.lowercased(), collection.href(for: id), nil) }
        }
        sends += plan.update.compactMap { record in local[record.id].map { ($0, record.uid, record.href, record.etag) } }
        sends += localWins.map { ($0.item, $0.uid, $0.href, $0.etag) }
        for send in sends {
            switch try collection.put(send.href, ICalendarItems.calendar(for: send.item, uid: send.uid, settings: calendar), etag: send.etag) {
            case .stored(let etag):
                // Without an ETag in the reply it is asked for: a record
                // without one would take the item for changed there.
                var known = etag ?? ""
                if etag == nil { known = try collection.etag(of: send.href) ?? "" }
                saves.append(SyncPlan.Record(id: send.item.id, uid: send.uid, href: send.href, etag: known, stamp: Self.stamp(send.item.updated)))
                report.pushed += 1
            case .changedThere:
                break  // the next round reads it and resolves
            case .refused(let status):
                refused("sending \(EventText.subject(send.item)) to \(send.href)", status: status, href: send.href)
            }
        }
        for record in plan.deleteRemote {
            switch try collection.delete(record.href, etag: record.etag) {
            case .stored:
                removes.append(record.id)
                report.deletedThere += 1
            case .changedThere:
                break
            case .refused(let status):
                refused("removing \(record.href)", status: status, href: record.href)
            }
        }
        try saveState(key, save: saves, remove: removes, token: token)
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
            count += local.values.filter { item in byID[item.id].map { $0.stamp != Self.stamp(item.updated) } ?? true }.count
            count += records.filter { local[$0.id] == nil }.count
        }
        return count
    }
}

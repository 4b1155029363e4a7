import AlarmCore
import AlarmStore
import AlarmSync
import Dispatch
import Foundation

/// Two-way sync of reminders (and, when `[Sync] AlarmsURL=` is set, alarms)
/// with CalDAV collections, on a queue of its own: HTTP blocks, so it never
/// runs on the owner. It reads the items through the scheduler and hands
/// changes back through it (`mergeAll`, `remove`), both messages to the
/// owner; its own state (ETags, hrefs) lives in `sync.sqlite3`, touched only
/// here. Decisions are ``SyncPlan``'s.
///
/// A round runs at start, every `[Sync] Interval=`, shortly after a local
/// change (a `changed` or `completed` event), and on `alarmctl sync`.
/// A failed round is retried with back-off (5 s doubling up to the
/// interval); a refused password waits for the interval. Ringing state
/// (ringing, snoozed) is never sent: it stays on each device.
public final class SyncWorker: @unchecked Sendable {
    /// What `Status` shows and `alarmctl sync` prints; read from any thread.
    public struct Report: Sendable, Hashable {
        public var lastRound: Date?
        /// `nil` after a round that went through.
        public var error: String?
        public var pulled = 0, pushed = 0, deletedHere = 0, deletedThere = 0, conflicts = 0
        /// Local changes not on the server yet (as of the last round).
        public var pending = 0
        public var server = ""
    }

    private let queue = DispatchQueue(label: "alarmd.sync")
    private let settings: DaemonConfig.SyncSettings
    private let scheduler: Scheduler
    private let journal: Journal
    private let calendarSettings: @Sendable () -> ICalendarItems.Settings
    // Confined to `queue`.
    private let http: HTTPClient
    private let state: SyncStateStore
    private var timer: DispatchSourceTimer?
    private var nudged = false
    private var cancelled = false
    /// Hrefs (with the ETag they had) of items alarmd cannot keep, and of
    /// writes the server refused: not read or sent again until they change.
    private var ignored: [String: String] = [:]
    /// The one retry after a failed round; a newer failure replaces it.
    private var retry: DispatchWorkItem?
    private var failures = 0
    private var waiting: [(Report) -> Void] = []
    private let published: Published<Report>

    public var report: Report { published.value }

    /// `nil`, with the reason in the journal, when the state file cannot be opened.
    public init?(settings: DaemonConfig.SyncSettings, password: String, stateDirectory: String, scheduler: Scheduler, journal: Journal,
                 calendarSettings: @escaping @Sendable () -> ICalendarItems.Settings) {
        guard let http = HTTPClient(user: settings.user, password: password) else {
            journal.send("Sync: libcurl could not start; not syncing", priority: .error, messageID: MessageID.syncFailed)
            return nil
        }
        do {
            state = try SyncStateStore(path: stateDirectory + "/sync.sqlite3")
        } catch {
            journal.send("Sync: \(error); not syncing", priority: .error, messageID: MessageID.syncFailed)
            return nil
        }
        self.http = http
        self.settings = settings
        self.scheduler = scheduler
        self.journal = journal
        self.calendarSettings = calendarSettings
        var report = Report()
        report.server = settings.url
        published = Published(report)
    }

    public func start() {
        queue.async { [self] in
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now(), repeating: settings.interval, leeway: .seconds(1))
            timer.setEventHandler { [weak self] in self?.round() }
            timer.resume()
            self.timer = timer
        }
    }

    /// A local change: a round soon, several changes in a burst sharing one.
    public func nudge() {
        queue.async { [self] in
            guard !nudged else { return }
            nudged = true
            queue.asyncAfter(deadline: .now() + 0.3) { [weak self] in
                self?.nudged = false
                self?.round()
            }
        }
    }

    /// A round now; `completion` gets its report (on the worker's queue).
    public func syncNow(_ completion: @escaping @Sendable (Report) -> Void) {
        queue.async { [self] in
            round()
            completion(published.value)
        }
    }

    /// No more rounds (one in flight finishes on its own).
    public func cancel() {
        queue.async { [self] in
            cancelled = true
            timer?.cancel()
            timer = nil
        }
    }

    // MARK: A round

    private func round() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !cancelled else { return }
        var report = Report()
        report.server = settings.url
        var collections: [(CalDAVCollection, ItemKind)] = [(CalDAVCollection(url: settings.url, http: http), .reminder)]
        if !settings.alarmsURL.isEmpty { collections.append((CalDAVCollection(url: settings.alarmsURL, http: http), .alarm)) }
        var unauthorized = false
        for (collection, kind) in collections {
            do throws(CalDAVCollection.Failure) {
                try sync(collection, kind: kind, report: &report)
            } catch {
                report.error = error.description
                unauthorized = error.unauthorized
                break
            }
        }
        report.lastRound = Date()
        report.pending = pendingCount(collections)
        let previous = published.value
        published.value = report
        if let error = report.error {
            failures += 1
            // Said once per outage, not every retry.
            if previous.error != error {
                journal.send("Sync with \(settings.url) failed: \(error); changes stay here and are sent once it works", priority: .warning,
                             messageID: MessageID.syncFailed, fields: [("ALARMD_SYNC_ERROR", error)])
            }
            let delay = unauthorized ? settings.interval : min(settings.interval, 5 * pow(2, Double(min(failures - 1, 10))))
            retry?.cancel()
            let work = DispatchWorkItem { [weak self] in
                guard let self, failures > 0 else { return }
                round()
            }
            retry = work
            queue.asyncAfter(deadline: .now() + delay, execute: work)
        } else {
            if previous.error != nil { journal.send("Sync with \(settings.url) works again", priority: .info) }
            failures = 0
            retry?.cancel()
            retry = nil
            if report.pulled + report.pushed + report.deletedHere + report.deletedThere > 0 {
                journal.send("Sync: \(report.pulled) received, \(report.pushed) sent, \(report.deletedHere) removed here, \(report.deletedThere) removed there, \(report.conflicts) conflicts",
                             priority: .info)
            }
        }
    }

    /// Whether two copies say the same in what sync carries: commands and
    /// the list place stay here, and iCalendar keeps times to the second.
    static func sameContent(_ a: Item, _ b: Item) -> Bool {
        func seconds(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)) }
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

    /// The stamp a record keeps: `updated` in microseconds.
    static func stamp(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }

    /// The items of `kind` that sync, from one `allItems()` snapshot (every
    /// item copied on the owner: taken once per use, not once per kind).
    private func localItems(_ kind: ItemKind, of snapshot: (alarms: [Alarm], reminders: [Reminder])) -> [UUID: Item] {
        let (alarms, reminders) = snapshot
        var items: [UUID: Item] = [:]
        switch kind {
        case .alarm: for alarm in alarms { items[alarm.id] = .alarm(alarm) }
        // A timer counts down on this machine only.
        case .reminder: for reminder in reminders where !reminder.isTimer { items[reminder.id] = .reminder(reminder) }
        }
        return items
    }

    /// The sync state's key for a collection: its kind and address, so that
    /// alarms and reminders never share records even on one server.
    static func stateKey(_ collection: CalDAVCollection, _ kind: ItemKind) -> String { kind.rawValue + " " + collection.url }

    private func sync(_ collection: CalDAVCollection, kind: ItemKind, report: inout Report) throws(CalDAVCollection.Failure) {
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
        if let lastToken, let delta = try collection.changes(since: lastToken) {
            remote = Dictionary(records.map { ($0.href, $0.etag) }, uniquingKeysWith: { first, _ in first })
            for (href, etag) in delta.changed { remote[href] = etag }
            for href in delta.removed { remote[href] = nil }
            token = delta.token
        } else {
            (remote, token) = try collection.list()
        }
        let local = localItems(kind, of: scheduler.allItems())
        var plan = SyncPlan.plan(local: local.mapValues { Self.stamp($0.updated) }, records: records, remote: remote)
        // Items alarmd cannot keep, already said: not read again until they
        // change. (They stay in the listing, so their records are not taken
        // for items removed there.)
        plan.fetch.removeAll { ignored[key + " " + $0] != nil && ignored[key + " " + $0] == remote[$0] }
        guard !plan.isEmpty else {
            if token != lastToken { try saveState(key, save: [], remove: [], token: token) }
            return
        }
        let recordByID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let settings = calendarSettings()
        var saves: [SyncPlan.Record] = []
        var removes: [UUID] = []
        var merged: [Item] = []
        var localWins: [(item: Item, uid: String, href: String, etag: String)] = []

        // Read what is new or changed there, and decide each.
        for (href, fetched) in try collection.fetch(plan.fetch).sorted(by: { $0.key < $1.key }) {
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
                item = try ICalendarItems.item(component, settings: settings)
                uid = component["UID"]?.text ?? item.id.uuidString.lowercased()
            } catch {
                // Another program's item alarmd cannot keep stays on the server untouched.
                journal.send("Sync: \(href) on the server is not kept here: \(error)", priority: .notice, messageID: MessageID.syncFailed)
                ignored[key + " " + href] = etag
                continue
            }
            plan.create.removeAll { $0 == item.id }
            if let mine = local[item.id], Self.sameContent(mine, item) {
                // The same as here (a write read back, or both sides made the
                // same change): recorded, not stored again, which would restart
                // its ringing state.
                saves.append(SyncPlan.Record(id: item.id, uid: uid, href: href, etag: etag, stamp: Self.stamp(mine.updated)))
                continue
            }
            if let mine = local[item.id] {
                let changedHere = recordByID[item.id].map { Self.stamp(mine.updated) != $0.stamp } ?? true
                if changedHere {
                    report.conflicts += 1
                    let winner = SyncPlan.resolve(local: mine.updated, remote: item.updated)
                    let loser = winner == .local ? item : mine
                    // LF line ends: the journal keeps a message with CRs as bytes, not text.
                    let text = ICalendarItems.calendar(for: loser, uid: uid, settings: settings).replacingOccurrences(of: "\r\n", with: "\n")
                    journal.send("Sync conflict: \(EventText.subject(mine)) changed here and on the server; kept the newer copy (\(winner == .local ? "this machine's" : "the server's")); the other follows:\n\(text)",
                                 priority: .warning, messageID: MessageID.syncConflict,
                                 fields: [("ALARMD_ITEM_ID", item.id.uuidString.lowercased()), ("ALARMD_SYNC_LOSER", text)])
                    if winner == .local {
                        localWins.append((mine, uid, href, etag))
                        continue
                    }
                }
            }
            merged.append(item)
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
            do {
                _ = try scheduler.mergeAll(alarms: alarms, reminders: reminders, keepingCommands: true)
                report.pulled += merged.count
            } catch {
                throw CalDAVCollection.Failure(description: "cannot store what the server sent (\(merged.map { EventText.subject($0) }.prefix(3).joined(separator: ", "))…): \(error)")
            }
        }
        // Removed there.
        for id in plan.deleteLocal {
            let done = DispatchSemaphore(value: 0)
            scheduler.remove(id.uuidString, kind: kind) { _ in done.signal() }
            done.wait()
            removes.append(id)
            report.deletedHere += 1
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
            switch try collection.put(send.href, ICalendarItems.calendar(for: send.item, uid: send.uid, settings: settings), etag: send.etag) {
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

    /// A write the server refused (a 4xx other than 401 and 412): said once,
    /// and the rest of the round goes on; the item stays here.
    private func refused(_ what: String, status: Int, href: String) {
        journal.send("Sync: the server refused \(what) (HTTP \(status)); it stays here", priority: .warning, messageID: MessageID.syncFailed,
                     fields: [("ALARMD_SYNC_ERROR", "HTTP \(status) for \(href)")])
    }

    private func saveState(_ key: String, save: [SyncPlan.Record], remove: [UUID], token: String?) throws(CalDAVCollection.Failure) {
        do { try state.apply(collection: key, save: save, remove: remove, token: token) } catch {
            throw CalDAVCollection.Failure(description: "the sync state: \(error)")
        }
    }

    /// Local changes the server does not have: items changed or new since
    /// their record, and records of items removed here.
    private func pendingCount(_ collections: [(CalDAVCollection, ItemKind)]) -> Int {
        var count = 0
        let snapshot = scheduler.allItems()
        for (collection, kind) in collections {
            guard let records = try? state.records(collection: Self.stateKey(collection, kind)) else { continue }
            let local = localItems(kind, of: snapshot)
            let byID = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            count += local.values.filter { item in byID[item.id].map { $0.stamp != Self.stamp(item.updated) } ?? true }.count
            count += records.filter { local[$0.id] == nil }.count
        }
        return count
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmStore
import Foundation
import Glibc
import Testing

/// The chaos test: the real daemon on a real store, `kill -9` at a random
/// moment while clients add, edit, snooze, dismiss, complete and remove as fast
/// as they can and reminders and alarms fall due every few hundred
/// milliseconds, then a restart; `ALARMD_CHAOS_CYCLES` times (``cycles``).
///
/// After every crash the store must pass `integrity_check`, hold every change
/// that was acknowledged, and nothing else but changes that were in flight.
/// After the last one, a clean run past every due instant, and the history
/// must show each occurrence that fell due fired or missed exactly once, and
/// no occurrence (a snoozed one's return included) twice.
///
/// Each cycle's daemon draws its `MissedGrace=` anew (0, 1 s or an hour), so
/// an occurrence the crash made late is sometimes rung late and sometimes
/// recorded as missed; the short `RingDuration=` and one-minute snoozes make
/// the ringing ones snooze themselves and ring again within a long run.
@Suite(.serialized) struct CrashDurabilityTests {
    /// A command a client gave a ringing item.
    enum Command: String {
        case snooze, dismiss, complete
    }

    /// What the test knows of one item it created.
    struct Known {
        let kind: ItemKind
        /// The occurrence that falls due during the run: a reminder's due
        /// instant, an alarm's first minute.
        let due: Date
        /// When its add was answered; `nil` for one in flight at a crash that
        /// the store turned out to hold.
        let added: Date?
        /// Titles (an alarm's labels) it may have: the last acknowledged one,
        /// plus any in flight.
        var titles: Set<String>
        /// Each title edit since the last check: when it was sent and when it
        /// was acknowledged, on the model's logical clock. An acknowledged edit
        /// may be overwritten by any edit whose request overlapped it in time
        /// (another client's, staged after it in the same commit group, its
        /// reply lost with the daemon or simply read by its thread first), but
        /// not by one acknowledged before it was sent.
        var edits: [String: (sent: Int, acknowledged: Int?)] = [:]
        /// The removal, on the wall clock: whether the occurrence was due
        /// before it depends on when it was sent and answered.
        var removal: (sent: Date, acknowledged: Date?)?
        var removed = false
        var mayBeRemoved = false
        /// The one command a client gave it (when two clients picked the same
        /// item at once, the one the daemon acknowledged), and whether it was
        /// answered.
        var command: Command?
        var commandAcknowledged = false
        /// The acknowledged command was found in the store.
        var commandChecked = false
        /// Commanded or on its way out: no client touches it again.
        var settled: Bool { removed || mayBeRemoved || command != nil }
    }

    final class Model: @unchecked Sendable {
        private let lock = NSLock()
        var items: [String: Known] = [:]
        /// Adds that were in flight when the daemon died: title → kind and due.
        var uncertainAdds: [String: (kind: ItemKind, due: Date)] = [:]
        /// What the clients found wrong, recorded by the test's own thread.
        var problems: [String] = []
        var acknowledged = 0
        /// Orders sends and acknowledgements (see ``Known/edits``).
        var clock = 0
        /// Ids to pick an item for an edit or a removal from; those settled
        /// meanwhile are dropped as they come up.
        var open: [String] = []

        /// An item no client has settled yet (call it holding the lock).
        func pickOpen(_ random: inout SplitMix64) -> (id: String, kind: ItemKind)? {
            while !open.isEmpty {
                let index = random.below(open.count)
                let id = open[index]
                if let known = items[id], !known.settled { return (id, known.kind) }
                open.swapAt(index, open.count - 1)
                open.removeLast()
            }
            return nil
        }

        func withLock<T>(_ body: (Model) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(self)
        }
    }

    /// Kill cycles: `ALARMD_CHAOS_CYCLES`, or enough for about a minute on
    /// two busy cores (`make chaos` runs 2,000).
    static let cycles = Int(ProcessInfo.processInfo.environment["ALARMD_CHAOS_CYCLES"] ?? "") ?? 200
    /// `ALARMD_CHAOS_SEED` replays a run's choices (the daemon's timing still varies).
    static let seed = UInt64(ProcessInfo.processInfo.environment["ALARMD_CHAOS_SEED"] ?? "") ?? UInt64(Date().timeIntervalSince1970 * 1000)

    static func config(missedGrace: String) -> String {
        """
        [Alarms]
        MissedGrace=\(missedGrace)
        RingDuration=2s
        SnoozeMinutes=1
        UpcomingNotice=0
        [Sound]
        AlarmSound=none
        ReminderSound=none

        """
    }

    /// The first whole minute at least a second away, as an alarm's time of
    /// day in UTC (the harness's zone) and as the instant it rings.
    static func nextMinute(after now: Date) -> (time: String, at: Date) {
        let minute = Int(((now.timeIntervalSince1970 + 1) / 60).rounded(.up)) * 60
        return (String(format: "%02d:%02d", minute / 3600 % 24, minute / 60 % 60), Date(timeIntervalSince1970: TimeInterval(minute)))
    }

    /// One client: random operations until the connection dies.
    static func client(_ socketPath: String, _ model: Model, cycle: Int, number: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        guard let socket = try? RawSocket(path: socketPath) else { return }
        defer { socket.close() }
        var serial = 0
        while true {
            serial += 1
            let choice = random.below(100)
            let now = Date()
            if choice < 35 {
                // A reminder due a moment from now: in this cycle, across the
                // crash, or while no daemon runs. In the seconds before a
                // whole minute, often an alarm for it instead, so that many
                // ring at once.
                let title = "c\(cycle)-\(number)-\(serial)"
                let request: String
                let kind: ItemKind
                var due: Date
                let minute = nextMinute(after: now)
                if choice < 10, minute.at.timeIntervalSince(now) < 4 {
                    let days = random.below(2) == 0 ? "[]" : #"["mon","tue","wed","thu","fri","sat","sun"]"#
                    request = #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"\#(minute.time)","days":\#(days),"label":"\#(title)","ringSeconds":2,"snoozeMinutes":1}}}"#
                    kind = .alarm
                    due = minute.at
                } else {
                    due = now.addingTimeInterval(0.1 + Double(random.below(1_400)) / 1_000)
                    request = #"{"method":"io.alarmd.AddReminder","parameters":{"title":"\#(title)","due":"\#(WireTime.string(due, in: Zone.utc))"}}"#
                    kind = .reminder
                }
                model.withLock { $0.uncertainAdds[title] = (kind, due) }
                guard let reply = try? socket.call(request, timeout: 5) else { return }
                let item = reply.parameters?[kind == .alarm ? "alarm" : "reminder"]?.objectValue
                guard let id = item?["id"]?.stringValue else {
                    model.withLock { $0.problems.append("cycle \(cycle): \(title) refused: \(reply)") }
                    return
                }
                if kind == .reminder, let stored = item?["due"]?.stringValue.flatMap({ try? WireTime.parse($0, parameter: "due", zone: Zone.utc) }) {
                    due = stored
                }
                let answered = Date()
                model.withLock {
                    $0.uncertainAdds[title] = nil
                    $0.items[id] = Known(kind: kind, due: due, added: answered, titles: [title])
                    $0.open.append(id)
                    $0.acknowledged += 1
                }
                continue
            }
            if choice >= 75 {
                // A command for something that rings now.
                guard let status = try? socket.call(#"{"method":"io.alarmd.Status"}"#, timeout: 5) else { return }
                let ringing = status.parameters?["ringing"]?.arrayValue?.compactMap(\.stringValue) ?? []
                let targets = model.withLock { model in ringing.compactMap { id in model.items[id].flatMap { $0.settled ? nil : (id, $0.kind) } } }
                guard !targets.isEmpty else { continue }
                let (target, kind) = targets[random.below(targets.count)]
                let command: Command = choice < 87 ? .snooze : choice < 95 || kind == .alarm ? .dismiss : .complete
                model.withLock { $0.items[target]?.command = command }
                let request = switch command {
                case .snooze: #"{"method":"io.alarmd.Snooze","parameters":{"id":"\#(target)"}}"#
                case .dismiss: #"{"method":"io.alarmd.Dismiss","parameters":{"id":"\#(target)"}}"#
                case .complete: #"{"method":"io.alarmd.CompleteReminder","parameters":{"id":"\#(target)"}}"#
                }
                guard let reply = try? socket.call(request, timeout: 5) else { return }
                // Refused when it stopped ringing meanwhile (snoozed itself).
                model.withLock {
                    // Two clients may send commands for the same item at
                    // once: what is checked after the crash is the command
                    // the daemon acknowledged, not the last one sent (which
                    // may never have reached it).
                    if reply.error == nil {
                        $0.items[target]?.command = command
                        $0.items[target]?.commandAcknowledged = true
                        $0.acknowledged += 1
                    } else if $0.items[target]?.commandAcknowledged != true {
                        $0.items[target]?.command = nil
                    }
                }
                continue
            }
            // Pick an item this client may still touch, due or not.
            guard let picked = model.withLock({ $0.pickOpen(&random) }) else { continue }
            let (id, kind) = picked
            if choice < 55 {
                // A title edit keeps the schedule, so it may land on an item
                // about to ring, ringing or snoozed without changing its course.
                let title = "e\(cycle)-\(number)-\(serial)"
                model.withLock { model in
                    model.clock += 1
                    model.items[id]?.titles.insert(title)
                    model.items[id]?.edits[title] = (model.clock, nil)
                }
                let request = kind == .alarm
                    ? #"{"method":"io.alarmd.UpdateAlarm","parameters":{"id":"\#(id)","fields":{"label":"\#(title)"}}}"#
                    : #"{"method":"io.alarmd.UpdateReminder","parameters":{"id":"\#(id)","title":"\#(title)"}}"#
                guard let reply = try? socket.call(request, timeout: 5) else { return }
                model.withLock { model in
                    guard reply.error == nil, let sent = model.items[id]?.edits[title]?.sent else {
                        model.items[id]?.edits[title] = nil
                        return
                    }
                    model.clock += 1
                    model.items[id]?.edits[title] = (sent, model.clock)
                    let overlapping = (model.items[id]?.edits ?? [:]).filter { $0.value.acknowledged.map { $0 > sent } ?? true }.keys
                    model.items[id]?.titles = Set(overlapping).union([title])
                    model.acknowledged += 1
                }
            } else {
                // Mostly what has had its occurrence, so that the store stays
                // small and most of what is added falls due.
                if model.withLock({ $0.items[id]!.due > now }), random.below(4) != 0 { continue }
                model.withLock { $0.items[id]?.mayBeRemoved = true; $0.items[id]?.removal = (Date(), nil) }
                let request = #"{"method":"io.alarmd.Remove\#(kind == .alarm ? "Alarm" : "Reminder")","parameters":{"id":"\#(id)"}}"#
                guard let reply = try? socket.call(request, timeout: 5) else { return }
                let answered = Date()
                if reply.error == nil {
                    model.withLock { $0.items[id]?.removed = true; $0.items[id]?.removal?.acknowledged = answered; $0.acknowledged += 1 }
                } else {
                    model.withLock { $0.problems.append("cycle \(cycle): removing \(id) was refused: \(reply)") }
                }
            }
        }
    }

    /// After a crash: the store is sound and agrees with what was acknowledged.
    static func check(_ path: String, _ model: Model, cycle: Int) throws {
        let store = try Store(path: path)
        defer { store.close() }
        #expect(try store.integrityCheck() == ["ok"], "cycle \(cycle)")
        var stored: [String: (title: String, done: Bool)] = [:]
        for reminder in try store.reminders() { stored[reminder.id.uuidString.lowercased()] = (reminder.title, reminder.done) }
        for alarm in try store.alarms() { stored[alarm.id.uuidString.lowercased()] = (alarm.label, false) }
        // The commands acknowledged since the last check, each looked for in
        // the history (a snoozed item may have rung again since, a dismissed
        // or completed one gone back to waiting).
        let commands = model.withLock { model in
            model.items.compactMap { id, known in
                known.commandAcknowledged && !known.commandChecked && !known.removed ? (id, known.command!) : nil
            }
        }
        var commandsFound: Set<String> = []
        for (id, command) in commands {
            let kind: EventKind = switch command {
            case .snooze: .snoozed
            case .dismiss: .dismissed
            case .complete: .completed
            }
            let events = try store.history(itemID: UUID(uuidString: id)!, kinds: [kind], limit: 1000)
            // A dismissal of its own: removals and edits record theirs with a reason.
            // A Complete that reached a reminder which had stopped ringing
            // meanwhile (timed out) marks it done without a `completed` event
            // (`Scheduler.setDone`): done in the store shows it all the same.
            if events.contains(where: { command != .dismiss || $0.detail.isEmpty }) || (command == .complete && stored[id]?.done == true) {
                commandsFound.insert(id)
            } else if stored[id] != nil {
                Issue.record("cycle \(cycle): \(id)'s acknowledged \(command) is lost")
            }
        }
        model.withLock { model in
            for (id, known) in model.items {
                if commandsFound.contains(id) { model.items[id]?.commandChecked = true }
                if known.removed {
                    #expect(stored[id] == nil, "cycle \(cycle): \(id) was removed, and acknowledged")
                    continue
                }
                guard let item = stored[id] else {
                    #expect(known.mayBeRemoved, "cycle \(cycle): \(known.kind) \(id) (\(known.titles)) was acknowledged but is gone")
                    continue
                }
                #expect(known.titles.contains(item.title), "cycle \(cycle): \(id) is titled \(item.title), expected one of \(known.titles)")
                if known.command == .complete, known.commandAcknowledged {
                    #expect(item.done, "cycle \(cycle): \(id) was completed, and acknowledged")
                }
            }
            // An add in flight may have landed; adopt it, it is durable now.
            for (id, item) in stored where model.items[id] == nil {
                guard let add = model.uncertainAdds[item.title] else {
                    Issue.record("cycle \(cycle): \(id) \(item.title) was never asked for")
                    continue
                }
                model.items[id] = Known(kind: add.kind, due: add.due, added: nil, titles: [item.title])
                model.open.append(id)
            }
            model.uncertainAdds.removeAll()
            // Whatever was in flight is settled by what the store holds now.
            for (id, known) in model.items where !known.removed {
                if let item = stored[id] {
                    model.items[id]?.titles = [item.title]
                    model.items[id]?.edits = [:]
                    model.items[id]?.mayBeRemoved = false
                    model.items[id]?.removal = nil
                } else {
                    model.items[id]?.removed = true
                }
            }
        }
    }

    /// An occurrence's instant in whole microseconds, as the store and the
    /// wire keep it (two `Date`s read back from them may differ below that).
    static func microsecond(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }

    /// How many times the history may hold `known`'s occurrence as fired or
    /// missed, once the daemon has run past it.
    static func expectedFirings(_ known: Known) -> ClosedRange<Int> {
        // An add answered before the instant was taken before it; one answered
        // later may have come too late for it (the item then waits for an
        // occurrence after the moment it was added).
        let scheduled = known.added.map { $0 < known.due } ?? false
        guard let removal = known.removal else { return scheduled ? 1...1 : 0...1 }
        // A removal answered before the instant came first; the daemon fires
        // what is due before it serves a request.
        if let acknowledged = removal.acknowledged, acknowledged < known.due { return 0...0 }
        if scheduled, removal.sent > known.due { return 1...1 }
        return 0...1
    }

    @Test func killedAtRandomMomentsNothingAcknowledgedIsLostAndEveryOccurrenceIsRecordedOnce() throws {
        let directory = TemporaryDirectory()
        let model = Model()
        var random = SplitMix64(seed: Self.seed)
        let began = Date()
        var startup: TimeInterval = 0, checking: TimeInterval = 0
        for cycle in 0..<Self.cycles {
            let grace = ["0", "1s", "1h"][random.below(3)]
            let daemon = DaemonProcess(directory: directory, config: Self.config(missedGrace: grace))
            let starting = Date()
            try daemon.startAndWaitReady()
            startup += Date().timeIntervalSince(starting)
            let clients = (0..<3).map { number in
                let seed = random.next()
                let socketPath = daemon.socketPath
                return Thread { Self.client(socketPath, model, cycle: cycle, number: number, seed: seed) }
            }
            clients.forEach { $0.start() }
            usleep(UInt32(30_000 + random.below(200_000)))
            kill(daemon.process.processIdentifier, SIGKILL)
            daemon.process.waitUntilExit()
            #expect(waitUntil(timeout: 10) { clients.allSatisfy(\.isFinished) }, "cycle \(cycle): a client hung")
            for problem in model.withLock({ model in defer { model.problems = [] }; return model.problems }) { Issue.record("\(problem)") }
            let checked = Date()
            try Self.check(daemon.databasePath, model, cycle: cycle)
            checking += Date().timeIntervalSince(checked)
        }
        let crashing = Date().timeIntervalSince(began)
        let acknowledged = model.withLock { $0.acknowledged }
        #expect(acknowledged > Self.cycles * 5, "the clients hardly got anything done: \(acknowledged)")

        // A last, clean run past every due instant.
        let daemon = DaemonProcess(directory: directory, config: Self.config(missedGrace: "1h"))
        try daemon.startAndWaitReady()
        let lastDue = model.withLock { $0.items.values.map(\.due).max() } ?? Date()
        usleep(UInt32(max(0, lastDue.timeIntervalSinceNow + 1) * 1_000_000))
        #expect(daemon.stop() == 0)

        let store = try Store(path: daemon.databasePath)
        defer { store.close() }
        // Every occurrence recorded as fired or missed: a snoozed one's
        // returns too, each under the instant it returned at.
        var recorded: [String: [Int64: [EventKind]]] = [:]
        let events = try store.history(kinds: [.fired, .missed], limit: Int(Int32.max))
        for event in events {
            recorded[event.itemID.uuidString.lowercased(), default: [:]][Self.microsecond(event.scheduled ?? .distantPast), default: []].append(event.event)
        }
        for (id, occurrences) in recorded {
            for (scheduled, kinds) in occurrences where kinds.count > 1 {
                Issue.record("\(id)'s occurrence at \(scheduled) µs is recorded \(kinds.count) times: \(kinds)")
            }
        }
        let items = model.withLock { $0.items }
        var counts: [ItemKind: [Int]] = [.alarm: [0, 0], .reminder: [0, 0]]
        var certain = 0
        for (id, known) in items {
            let kinds = recorded[id]?[Self.microsecond(known.due)] ?? []
            let expected = Self.expectedFirings(known)
            if expected == 1...1 { certain += 1 }
            #expect(expected.contains(kinds.count),
                    "\(known.kind) \(id) \(known.titles), due \(known.due), removal \(String(describing: known.removal)): recorded \(kinds) (seed \(Self.seed))")
            counts[known.kind]![0] += kinds.filter { $0 == .fired }.count
            counts[known.kind]![1] += kinds.filter { $0 == .missed }.count
        }
        let returns = events.count - counts.values.map { $0[0] + $0[1] }.reduce(0, +)
        print("""
            chaos: \(Self.cycles) kill -9 cycles in \(String(format: "%.1f", crashing)) s \
            (\(String(format: "%.0f", crashing / Double(max(1, Self.cycles)) * 1000)) ms a cycle: start-up \
            \(String(format: "%.0f", startup / Double(max(1, Self.cycles)) * 1000)) ms, check \
            \(String(format: "%.0f", checking / Double(max(1, Self.cycles)) * 1000)) ms), seed \(Self.seed); \
            \(acknowledged) changes acknowledged; \(items.values.filter { $0.kind == .reminder }.count) reminders \
            (\(counts[.reminder]![0]) fired, \(counts[.reminder]![1]) missed), \(items.values.filter { $0.kind == .alarm }.count) alarms \
            (\(counts[.alarm]![0]) fired, \(counts[.alarm]![1]) missed), \(certain) of them bound to be \
            recorded once, \(returns) returns from snoozes
            """)
        // Both ways an occurrence can end up must have been taken, or the
        // test proved less than it says.
        #expect(certain > 0)
        #expect(counts.values.map { $0[0] }.reduce(0, +) > 0)
        if Self.cycles >= 50 { #expect(counts.values.map { $0[1] }.reduce(0, +) > 0) }

        if JournalFixture.isAvailable {
            // The journal, which follows the history's commits, never tells of
            // one occurrence firing twice either.
            var fired: [String: Int] = [:]
            for entry in JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd", "ALARMD_EVENT=fired", "ALARMD_SNOOZE_COUNT=0"], since: began)
            where items[entry["ALARMD_ITEM_ID"] ?? ""] != nil {
                fired[(entry["ALARMD_ITEM_ID"] ?? "") + "@" + (entry["ALARMD_SCHEDULED_USEC"] ?? ""), default: 0] += 1
            }
            #expect(!fired.isEmpty)
            for (occurrence, count) in fired where count > 1 {
                Issue.record("\(occurrence) journaled as fired \(count) times")
            }
            // And every event recorded has its entry, exactly once: those a
            // kill left without one were journaled at a later start.
            var entries: [String: Int] = [:]
            for entry in JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd"], since: began) {
                guard let id = entry["ALARMD_ITEM_ID"], items[id] != nil, let event = entry["ALARMD_EVENT"], let usec = entry["ALARMD_EVENT_USEC"] else { continue }
                entries[id + " " + event + " " + usec, default: 0] += 1
            }
            var unjournaled = 0
            for row in try store.history(limit: 1_000_000) where items[row.itemID.uuidString.lowercased()] != nil {
                let key = row.itemID.uuidString.lowercased() + " " + row.event.rawValue + " " + String(Int64((row.actual.timeIntervalSince1970 * 1_000_000).rounded()))
                switch entries[key] ?? 0 {
                case 0: unjournaled += 1
                case 1: break
                case let count: Issue.record("\(key) journaled \(count) times")
                }
            }
            #expect(unjournaled == 0, "\(unjournaled) history rows have no journal entry")
        }
    }
}

import AlarmCore
import AlarmProtocol
import AlarmStore
import Foundation
import Glibc
import Testing

/// Twenty times over: the real daemon on a real store, clients adding,
/// editing, snoozing and removing as fast as they can, `kill -9` at a random
/// moment, restart. After every crash the store must pass `integrity_check`,
/// hold every change that was acknowledged, and nothing else but changes that
/// were in flight; across all of them no occurrence rings twice or is lost.
@Suite(.serialized) struct CrashDurabilityTests {
    /// What the test knows of one reminder it created.
    struct Known {
        let due: Date
        /// Titles it may have: the last acknowledged one, plus any in flight.
        var titles: Set<String>
        /// Each title edit since the last check: when it was sent and when it
        /// was acknowledged, on the model's logical clock. An acknowledged edit
        /// may be overwritten by any edit whose request overlapped it in time
        /// (another client's, staged after it in the same commit group, its
        /// reply lost with the daemon or simply read by its thread first), but
        /// not by one acknowledged before it was sent.
        var edits: [String: (sent: Int, acknowledged: Int?)] = [:]
        var removed = false
        var mayBeRemoved = false
        var snoozed = false
        var mayBeSnoozed = false
        /// Snoozed or on its way out: no client touches it again.
        var settled: Bool { removed || mayBeRemoved || snoozed || mayBeSnoozed }
    }

    final class Model: @unchecked Sendable {
        private let lock = NSLock()
        var items: [String: Known] = [:]
        /// Titles of adds that were in flight when the daemon died.
        var uncertainAdds: Set<String> = []
        var acknowledged = 0
        /// Orders sends and acknowledgements (see ``Known/edits``).
        var clock = 0

        func withLock<T>(_ body: (Model) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(self)
        }
    }

    static let cycles = Int(ProcessInfo.processInfo.environment["ALARMD_CRASH_CYCLES"] ?? "") ?? 20

    /// One client: random operations until the connection dies.
    static func client(_ socketPath: String, _ model: Model, cycle: Int, number: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        guard let socket = try? RawSocket(path: socketPath) else { return }
        defer { socket.close() }
        var serial = 0
        while true {
            serial += 1
            let choice = random.below(10)
            let now = Date()
            if choice < 4 {
                let title = "c\(cycle)-\(number)-\(serial)"
                let due = now.addingTimeInterval(0.2 + Double(random.below(2_800)) / 1_000)
                model.withLock { _ = $0.uncertainAdds.insert(title) }
                guard let reply = try? socket.call(#"{"method":"io.alarmd.AddReminder","parameters":{"title":"\#(title)","due":"\#(WireTime.string(due, in: Zone.utc))"}}"#, timeout: 5),
                      let id = reply.parameters?["reminder"]?.objectValue?["id"]?.stringValue
                else { return }
                model.withLock {
                    $0.uncertainAdds.remove(title)
                    let stored = reply.parameters?["reminder"]?.objectValue?["due"]?.stringValue.flatMap { try? WireTime.parse($0, parameter: "due", zone: Zone.utc) }
                    $0.items[id] = Known(due: stored ?? due, titles: [title])
                    $0.acknowledged += 1
                }
                continue
            }
            // Pick an item this client may still touch.
            let candidates = model.withLock { model in model.items.filter { !$0.value.settled }.map { ($0.key, $0.value.due) } }
            guard !candidates.isEmpty else { continue }
            let (id, due) = candidates[random.below(candidates.count)]
            if choice < 7 {
                // Edit only what is still comfortably in the future, so that an
                // edit (which starts the item's wait afresh) cannot swallow its occurrence.
                guard due.timeIntervalSince(now) > 0.5 else { continue }
                let title = "e\(cycle)-\(number)-\(serial)"
                model.withLock { model in
                    model.clock += 1
                    model.items[id]?.titles.insert(title)
                    model.items[id]?.edits[title] = (model.clock, nil)
                }
                guard let reply = try? socket.call(#"{"method":"io.alarmd.UpdateReminder","parameters":{"id":"\#(id)","title":"\#(title)"}}"#, timeout: 5) else { return }
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
            } else if choice < 8 {
                model.withLock { $0.items[id]?.mayBeRemoved = true }
                guard let reply = try? socket.call(#"{"method":"io.alarmd.RemoveReminder","parameters":{"id":"\#(id)"}}"#, timeout: 5) else { return }
                if reply.error == nil { model.withLock { $0.items[id]?.removed = true; $0.acknowledged += 1 } }
            } else {
                // Snooze something that rings now.
                guard let status = try? socket.call(#"{"method":"io.alarmd.Status"}"#, timeout: 5) else { return }
                let ringing = status.parameters?["ringing"]?.arrayValue?.compactMap(\.stringValue) ?? []
                guard let target = ringing.first(where: { ringingID in model.withLock { $0.items[ringingID].map { !$0.settled } ?? false } }) else { continue }
                model.withLock { $0.items[target]?.mayBeSnoozed = true }
                guard let reply = try? socket.call(#"{"method":"io.alarmd.Snooze","parameters":{"id":"\#(target)"}}"#, timeout: 5) else { return }
                if reply.error == nil { model.withLock { $0.items[target]?.snoozed = true; $0.acknowledged += 1 } }
            }
        }
    }

    /// After a crash: the store is sound and agrees with what was acknowledged.
    static func check(_ path: String, _ model: Model, cycle: Int) throws {
        let store = try Store(path: path)
        defer { store.close() }
        #expect(try store.integrityCheck() == ["ok"], "cycle \(cycle)")
        let reminders = Dictionary(uniqueKeysWithValues: try store.reminders().map { ($0.id.uuidString.lowercased(), $0) })
        let states = try store.ringStates()
        model.withLock { model in
            for (id, known) in model.items {
                let stored = reminders[id]
                if known.removed {
                    #expect(stored == nil, "cycle \(cycle): \(id) was removed, and acknowledged")
                    continue
                }
                guard let stored else {
                    #expect(known.mayBeRemoved, "cycle \(cycle): \(id) (\(known.titles)) was acknowledged but is gone")
                    continue
                }
                #expect(known.titles.contains(stored.title), "cycle \(cycle): \(id) is titled \(stored.title), expected one of \(known.titles)")
                if known.snoozed {
                    #expect(states[stored.id]?.isSnoozed == true, "cycle \(cycle): \(id)'s acknowledged snooze is lost: \(String(describing: states[stored.id]))")
                }
            }
            // An add in flight may have landed; adopt it, it is durable now.
            let knownIDs = Set(model.items.keys)
            for (id, reminder) in reminders where !knownIDs.contains(id) {
                #expect(model.uncertainAdds.contains(reminder.title), "cycle \(cycle): \(id) \(reminder.title) was never asked for")
                model.items[id] = Known(due: reminder.due ?? .distantPast, titles: [reminder.title])
            }
            model.uncertainAdds.removeAll()
            // Whatever was in flight is settled by what the store holds now.
            for (id, known) in model.items where !known.removed {
                if let stored = reminders[id] {
                    model.items[id]?.titles = [stored.title]
                    model.items[id]?.edits = [:]
                    model.items[id]?.mayBeRemoved = false
                    if known.mayBeSnoozed, states[stored.id]?.isSnoozed == true { model.items[id]?.snoozed = true }
                } else {
                    model.items[id]?.removed = true
                }
            }
        }
    }

    @Test func killedAtRandomMomentsTheStoreKeepsEveryAcknowledgedChange() throws {
        let directory = TemporaryDirectory()
        // Everything due while the daemon is down rings late rather than being missed.
        let config = "[Alarms]\nMissedGrace=1h\nRingDuration=1h\n"
        let model = Model()
        var random = SplitMix64(seed: UInt64(Date().timeIntervalSince1970))
        var pids: [pid_t] = []
        for cycle in 0..<Self.cycles {
            let daemon = DaemonProcess(directory: directory, config: config)
            try daemon.startAndWaitReady()
            pids.append(daemon.process.processIdentifier)
            let clients = (0..<3).map { number in
                let seed = random.next()
                let socketPath = daemon.socketPath
                return Thread { Self.client(socketPath, model, cycle: cycle, number: number, seed: seed) }
            }
            clients.forEach { $0.start() }
            usleep(UInt32(300_000 + random.below(1_200_000)))
            kill(daemon.process.processIdentifier, SIGKILL)
            daemon.process.waitUntilExit()
            #expect(waitUntil(timeout: 10) { clients.allSatisfy(\.isFinished) }, "cycle \(cycle): a client hung")
            try Self.check(daemon.databasePath, model, cycle: cycle)
        }
        #expect(model.withLock { $0.acknowledged } > Self.cycles * 10, "the clients hardly got anything done: \(model.withLock { $0.acknowledged })")

        // A last, clean run past every due instant: every reminder that is
        // still there has rung (none lost), and none rang twice.
        let daemon = DaemonProcess(directory: directory, config: config)
        try daemon.startAndWaitReady()
        pids.append(daemon.process.processIdentifier)
        let lastDue = model.withLock { $0.items.values.map(\.due).max() } ?? Date()
        usleep(UInt32(max(0, lastDue.timeIntervalSinceNow + 1.5) * 1_000_000))
        #expect(daemon.stop() == 0)
        let store = try Store(path: daemon.databasePath)
        defer { store.close() }
        let states = try store.ringStates()
        var rung = 0
        for reminder in try store.reminders() {
            let state = states[reminder.id]
            #expect(state?.isRinging == true || state?.isSnoozed == true,
                    "\(reminder.title), due \(reminder.due.map(\.description) ?? "never"), never rang: \(String(describing: state))")
            rung += 1
        }
        #expect(rung > 0)
        if JournalFixture.isAvailable {
            var fired: [String: Int] = [:]
            for pid in pids {
                for entry in JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd", "_PID=\(pid)", "ALARMD_EVENT=fired", "ALARMD_SNOOZE_COUNT=0"]) {
                    fired[(entry["ALARMD_ITEM_ID"] ?? "") + "@" + (entry["ALARMD_SCHEDULED_USEC"] ?? ""), default: 0] += 1
                }
            }
            #expect(!fired.isEmpty)
            for (occurrence, count) in fired where count > 1 {
                Issue.record("\(occurrence) fired \(count) times")
            }
        }
    }
}

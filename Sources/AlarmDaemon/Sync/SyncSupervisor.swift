// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import CLinux
import Dispatch
import FoundationEssentials
import Glibc
import SystemCalls

/// alarmd's side of CalDAV sync. The network, TLS, HTTP, XML and iCalendar
/// parsing of a server's data run in `alarmd-sync`, a sandboxed process of
/// its own; this starts it, sends it its settings and, one round at a time,
/// a snapshot of the items, and carries out what it asks — merges and
/// removals, read with the bounded parsers and validated as a client's
/// `Import` is. Whatever the process does — crash, hang, exceed its
/// limits, send nonsense — costs alarmd a journal line and a restart with
/// back-off; the alarms ring on. When to do what is ``SyncSupervision``'s.
///
/// Confined to the owner queue: every method but ``init`` runs there, and
/// says so with `owner.assertCurrent()`; what changes is in ``state``, which
/// checks it too.
public final class SyncSupervisor: Sendable {
    private let owner: Owner
    private let scheduler: Scheduler
    private let journal: Journal
    private let start: SyncStart
    private let program: String
    private let environment: [String]
    private let allDayAt: @Sendable () -> TimeOfDay
    private let published: Published<SyncReport>

    private struct State {
        var machine: SyncSupervision
        /// The next round's (``SyncSupervision/Effect/armTimer(_:)``); made by ``begin()``.
        var timer: LoopTimer?
        var generation: Generation?
        var generations = 0
        /// Removals in flight: request id → items still to go and the first error.
        var removals: [Int: (left: Int, error: String?)] = [:]
        var waiters: [Int: @Sendable (SyncReport) -> Void] = [:]
        var nextWaiter = 1
        var stopped = false
    }
    private let state: QueueBound<State>

    /// The last round's report, or why the process is down; read from any thread.
    var report: SyncReport { published.value }

    /// One run of the process: its pid, the channel's two descriptors (read
    /// on the owner, written on a queue of its own, so a process that stops
    /// reading blocks only that queue), and what it sent so far.
    private final class Generation {
        let process: ChildProcess
        let reader: LoopSource
        let writerFD: Int32
        let writer = DispatchQueue(label: "alarmd.sync-channel")
        /// Which run this is, for answers that come back after it ended.
        let number: Int
        var framer = VarlinkFramer(maxMessageSize: SyncMessage.maxSize)

        init(number: Int, process: ChildProcess, reader: LoopSource, writerFD: Int32) {
            self.number = number
            self.process = process
            self.reader = reader
            self.writerFD = writerFD
        }

        func send(_ message: SyncMessage) {
            let bytes = VarlinkFramer.frame(message.json)
            let fd = writerFD
            writer.async {
                var offset = 0
                while offset < bytes.count {
                    let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    if sent < 0 && errno == EINTR { continue }
                    guard sent > 0 else { return }
                    offset += sent
                }
            }
        }

        /// Stops reading; the writer lets go of its descriptor after what it has queued.
        func close() {
            reader.cancel()
            let fd = writerFD
            writer.async { Glibc.close(fd) }
        }
    }

    init(start: SyncStart, program: String, environment: [String: String], owner: Owner, scheduler: Scheduler, journal: Journal,
         allDayAt: @escaping @Sendable () -> TimeOfDay, limits: SyncSupervision.Limits? = nil) {
        self.start = start
        self.program = program
        self.owner = owner
        self.scheduler = scheduler
        self.journal = journal
        self.allDayAt = allDayAt
        self.environment = Self.childEnvironment(environment, stateDirectory: start.stateDirectory)
        let machine = SyncSupervision(limits: limits ?? SyncSupervision.Limits(interval: start.settings.interval), server: start.settings.url, now: Date())
        published = Published(SyncReport(server: start.settings.url))
        state = QueueBound(State(machine: machine), queue: owner.queue)
    }

    /// What the process may see of alarmd's environment: where home is, the
    /// language, a temporary directory of its own, and the TLS and proxy
    /// settings libcurl reads. Nothing else (no session bus, no socket paths).
    static func childEnvironment(_ environment: [String: String], stateDirectory: String) -> [String] {
        let kept = ["HOME", "LANG", "LC_ALL", "TZDIR", "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE",
                    "http_proxy", "https_proxy", "HTTPS_PROXY", "no_proxy", "NO_PROXY", "ALL_PROXY", "all_proxy"]
        var result = kept.compactMap { name in environment[name].map { "\(name)=\($0)" } }
        let temporary = stateDirectory + "/sync-tmp"
        mkdir(temporary, 0o700)
        result.append("TMPDIR=\(temporary)")
        return result
    }

    /// Where `alarmd-sync` is (``ChildProcess/helperProgram(_:)``).
    static func findProgram() -> String? { ChildProcess.helperProgram("alarmd-sync") }

    func begin() {
        owner.post { [self] in
            state.timer = owner.timer(.monotonic) { [weak self] in
                guard let self else { return }
                perform(state.machine.timer(now: Date()))
            }
            perform(state.machine.start(now: Date()))
        }
    }

    /// A local change: a round soon, several in a burst sharing one.
    func nudge() {
        owner.post { [self] in
            guard !state.stopped else { return }
            perform(state.machine.nudge(now: Date()))
        }
    }

    /// A round now; `completion` gets its report, on the owner.
    func syncNow(_ completion: @escaping @Sendable (SyncReport) -> Void) {
        owner.assertCurrent()
        guard !state.stopped else { return completion(report) }
        let waiter = state.nextWaiter
        state.nextWaiter += 1
        state.waiters[waiter] = completion
        perform(state.machine.syncNow(waiter, now: Date()))
    }

    /// No more rounds; the process is told to leave and its channel closed.
    func stop() {
        owner.sync { [self] in
            state.stopped = true
            state.timer?.disarm()
            if let generation = state.generation {
                generation.send(.stop)
                generation.close()
                kill(generation.process.pid, SIGTERM)
            }
            state.generation = nil
        }
    }

    // MARK: Effects

    private func perform(_ effects: [SyncSupervision.Effect]) {
        owner.assertCurrent()
        published.value = state.machine.report
        guard !state.stopped else { return }
        for effect in effects {
            switch effect {
            case .spawn: spawn()
            case .sendRound(let id): sendRound(id)
            case .kill: if let generation = state.generation { kill(-generation.process.pid, SIGKILL) }
            case .armTimer(let at):
                state.timer?.schedule(after: UInt64(max(0, at.timeIntervalSinceNow) * 1_000_000_000))
            case .answer(let ids, let report):
                for id in ids {
                    // Taken out first: the waiter may call back in.
                    let waiter = state.waiters.removeValue(forKey: id)
                    waiter?(report)
                }
            case .journal(let text, let warning):
                journal.send(text, priority: warning ? .warning : .info, messageID: warning ? MessageID.syncFailed : nil,
                             fields: warning ? [("ALARMD_SYNC_ERROR", text)] : [])
            }
        }
    }

    private func spawn() {
        owner.assertCurrent()
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            return perform(state.machine.exited("could not be started (socketpair: \(String(cString: strerror(errno))))", clean: false, now: Date()))
        }
        let (mine, theirs) = (pair[0], pair[1])
        defer { close(theirs) }
        let process: ChildProcess
        do {
            // Its exit is seen on the output worker, which tells the owner.
            process = try ChildProcess([program], environment: environment, channel: theirs, queue: owner.output) { [weak self, owner] status in
                owner.post { [weak self] in self?.exited(status) }
            }
        } catch {
            close(mine)
            return perform(state.machine.exited("could not be started (\(error))", clean: false, now: Date()))
        }
        let writerFD = dup(mine)
        fcntl(writerFD, F_SETFD, FD_CLOEXEC)
        state.generations += 1
        state.removals = [:]
        let generation = Generation(number: state.generations, process: process, reader: LoopSource(fd: mine, loop: owner.loop), writerFD: writerFD)
        state.generation = generation
        do throws(SystemError) {
            try generation.reader.activate { [weak self, weak generation] in
                guard let self, let generation else { return }
                read(generation)
            }
        } catch {
            // Unread, the process would wait forever: end it; its exit is reported as usual.
            journal.send("Sync: cannot watch the sync process's channel (\(error))", priority: .error, messageID: MessageID.syncFailed)
            kill(-process.pid, SIGKILL)
        }
        generation.send(.start(start))
    }

    private func sendRound(_ id: Int) {
        owner.assertCurrent()
        guard let generation = state.generation else { return }
        let (alarms, reminders) = scheduler.allItems()
        generation.send(.round(id: id, zone: scheduler.systemZone.identifier, allDayAt: allDayAt(),
                               items: ExportDocument.json(alarms: alarms, reminders: reminders, zone: .utc)))
    }

    private func exited(_ status: ChildProcess.Status) {
        owner.assertCurrent()
        // What it wrote before it ended is still in the socket: read it first
        // (a last round's report, a last "reading").
        if let generation = state.generation {
            read(generation)
            generation.close()
            state.generation = nil
        }
        perform(state.machine.exited(status.description, clean: status.succeeded, now: Date()))
    }

    // MARK: The channel

    /// Reads what is there without waiting, and handles each message.
    private func read(_ generation: Generation) {
        owner.assertCurrent()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while state.generation === generation {
            let count = buffer.withUnsafeMutableBytes { recv(generation.reader.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            let frames: [[UInt8]]
            do throws(VarlinkFramer.Oversize) { frames = try generation.framer.append(buffer[..<count]) } catch {
                return refuse(generation, "a message over \(error.limit) bytes")
            }
            for frame in frames {
                guard state.generation === generation else { return }
                let message: SyncMessage
                do throws(VarlinkError) { message = try SyncMessage(frame: frame) } catch {
                    return refuse(generation, "a message that does not read (\(error))")
                }
                handle(message, from: generation)
            }
        }
    }

    /// The process broke the protocol: it is not believed further.
    private func refuse(_ generation: Generation, _ what: String) {
        journal.send("Sync: the sync process sent \(what); it is stopped", priority: .warning, messageID: MessageID.syncFailed)
        kill(-generation.process.pid, SIGKILL)
        generation.close()
        if state.generation === generation { state.generation = nil }
    }

    private func handle(_ message: SyncMessage, from generation: Generation) {
        switch message {
        case .merge(let id, let items):
            merge(items, request: id, generation: generation)
        case .remove(let id, let kind, let ids):
            remove(ids, kind: kind, request: id, generation: generation)
        case .log(let line):
            log(line)
        case .reading(let href):
            state.machine.reading(href)
        case .done(let id, let report):
            perform(state.machine.roundDone(id: id, report: report, now: Date()))
        case .start, .round, .answer, .stop:
            refuse(generation, "a message only alarmd sends")
        }
    }

    /// Items from the server, read and checked as an `Import` is, and merged
    /// through the scheduler's write path; the answer says, once they are
    /// durable, nothing, or why they were not stored.
    private func merge(_ items: JSONValue, request: Int, generation: Generation) {
        guard case .object(let document) = items else { return generation.send(.answer(id: request, error: "the items are not a document")) }
        var alarms: [Alarm], reminders: [Reminder]
        do {
            (alarms, reminders) = try ExportDocument.parse(Parameters(document), zone: .utc)
        } catch {
            return generation.send(.answer(id: request, error: "\(error)"))
        }
        for index in alarms.indices { alarms[index] = playableHere(alarms[index]) }
        for index in reminders.indices { reminders[index] = playableHere(reminders[index]) }
        let number = generation.number
        scheduler.mergeAll(alarms: alarms, reminders: reminders, keepingCommands: true) { [weak self] result in
            // The scheduler answers on the owner.
            guard let self, let generation = state.generation, generation.number == number else { return }
            if case .failure(let error) = result { generation.send(.answer(id: request, error: "\(error)")) } else { generation.send(.answer(id: request, error: nil)) }
        }
    }

    /// Another machine's sound file or image that this one cannot read:
    /// the default sound (the alarm still rings) and no image, said in the
    /// journal, rather than a round refused every time.
    private func playableHere(_ alarm: Alarm) -> Alarm {
        guard case .file(let path) = alarm.sound, !DesktopRinger.isPlayableFile(path) else { return alarm }
        var alarm = alarm
        alarm.sound = .defaultAlarm
        journal.send("Sync: \(EventText.subject(.alarm(alarm))) names the sound file \(path), which this machine cannot read; it rings with the default sound here",
                     priority: .notice, messageID: MessageID.syncFailed, fields: [("ALARMD_ITEM_ID", alarm.id.lowercasedText)])
        return alarm
    }

    private func playableHere(_ reminder: Reminder) -> Reminder {
        var reminder = reminder
        if case .file(let path)? = reminder.sound, !DesktopRinger.isPlayableFile(path) {
            reminder.sound = nil
            journal.send("Sync: \(EventText.subject(.reminder(reminder))) names the sound file \(path), which this machine cannot read; it rings with the default sound here",
                         priority: .notice, messageID: MessageID.syncFailed, fields: [("ALARMD_ITEM_ID", reminder.id.lowercasedText)])
        }
        if let image = reminder.imagePath, !(image.hasPrefix("/") && DesktopRinger.isPlayableFile(image)) {
            reminder.imagePath = nil
            journal.send("Sync: \(EventText.subject(.reminder(reminder))) names the image \(image), which this machine cannot read; it is shown without it here",
                         priority: .notice, messageID: MessageID.syncFailed, fields: [("ALARMD_ITEM_ID", reminder.id.lowercasedText)])
        }
        return reminder
    }

    private func remove(_ ids: [UUID], kind: ItemKind, request: Int, generation: Generation) {
        guard !ids.isEmpty else { return generation.send(.answer(id: request, error: nil)) }
        state.removals[request] = (ids.count, nil)
        let number = generation.number
        for id in ids {
            // The scheduler answers on the owner.
            scheduler.remove(id.uuidString, kind: kind) { [weak self] result in self?.removed(request, result: result, generation: number) }
        }
    }

    /// One removal of request `request` done; the answer goes once all are.
    private func removed(_ request: Int, result: Result<Item, SchedulerError>, generation number: Int) {
        owner.assertCurrent()
        guard let generation = state.generation, generation.number == number, var removal = state.removals[request] else { return }
        // Gone already is what was asked.
        if case .failure(let error) = result, removal.error == nil {
            if case .noSuchItem = error {} else { removal.error = "\(error)" }
        }
        removal.left -= 1
        state.removals[request] = removal.left > 0 ? removal : nil
        if removal.left == 0 { generation.send(.answer(id: request, error: removal.error)) }
    }

    private func log(_ line: SyncLogLine) {
        var fields: [(String, String)] = []
        if let id = line.itemID { fields.append(("ALARMD_ITEM_ID", id.lowercasedText)) }
        if let loser = line.loser { fields.append(("ALARMD_SYNC_LOSER", loser)) }
        if let error = line.error { fields.append(("ALARMD_SYNC_ERROR", error)) }
        switch line.kind {
        case .info: journal.send(line.message, priority: .info, fields: fields)
        case .warning: journal.send(line.message, priority: .warning, messageID: MessageID.syncFailed, fields: fields)
        case .conflict: journal.send(line.message, priority: .warning, messageID: MessageID.syncConflict, fields: fields)
        }
    }
}

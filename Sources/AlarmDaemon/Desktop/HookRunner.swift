// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Dispatch
import FoundationEssentials
import Glibc
import SystemCalls

/// Runs an item's command when it fires, and an alarm's escalation command
/// when it escalates: an argument vector (never a shell),
/// with the item described in its environment, its output sent to the journal
/// line by line, stopped (with its process group) when it overruns the timeout.
/// A failing hook is logged and changes nothing else. Hooks run side by side:
/// a slow one holds up no other.
public final class HookRunner: Sendable {
    /// The output worker's: spawning and reading hooks' output happen there.
    private let queue: DispatchQueue
    private let journal: Journal
    private let timeout: @Sendable () -> TimeInterval
    private let basePath: String

    public init(queue: DispatchQueue, journal: Journal, path: String, timeout: @escaping @Sendable () -> TimeInterval) {
        self.queue = queue
        self.journal = journal
        self.basePath = path
        self.timeout = timeout
    }

    /// Runs the hook of `event.item`, if it has one, for a `fired` event, and
    /// an alarm's escalation command for an `escalated` one.
    public func handle(_ event: DaemonEvent) {
        let argv: [String]
        switch (event.kind, event.item) {
        case (.fired, _): argv = event.item.command
        case (.escalated, .alarm(let alarm)): argv = alarm.escalateCommand
        default: return
        }
        guard !argv.isEmpty else { return }
        queue.async { [self] in start(argv, event: event) }
    }

    private func start(_ argv: [String], event: DaemonEvent) {
        let id = event.item.id.lowercasedText
        let subject = EventText.subject(event.item)
        let fields = [("ALARMD_ITEM_ID", id), ("ALARMD_KIND", event.item.kind.rawValue)]
        var environment = [
            "PATH=\(basePath)",
            "ALARMD_ID=\(id)",
            "ALARMD_KIND=\(event.item.kind.rawValue)",
            "ALARMD_LABEL=\(event.item.title)",
            "ALARMD_EVENT=\(event.kind.rawValue)",
        ]
        if let scheduled = event.scheduled { environment.append("ALARMD_SCHEDULED=\(scheduled.rfc3339UTC)") }
        // The hook's output channel is close-on-exec from the start: a player
        // or another hook spawned on another thread meanwhile must not inherit
        // the write end, or reading this hook's output would wait until that
        // process ended. The child gets its copy through dup2, which clears the flag.
        let pipeFDs: (Int32, Int32)
        do { pipeFDs = try StreamSocket.pair() } catch {
            journal.send("Hook of \(subject) not run: \(error)", priority: .warning, fields: fields)
            return
        }
        let run = Run(subject: subject, fields: fields, limit: timeout(), journal: journal, queue: queue)
        let child: ChildProcess
        do {
            child = try ChildProcess(argv, environment: environment, output: pipeFDs.1, queue: queue) { run.exited($0) }
        } catch {
            close(pipeFDs.0); close(pipeFDs.1)
            journal.send("Hook of \(subject) not run: \(error)", priority: .warning, fields: fields)
            return
        }
        close(pipeFDs.1)
        run.watch(child, output: pipeFDs.0)
    }
}

extension HookRunner {
    /// How long an overrunning hook's process group has, after SIGTERM, before
    /// SIGKILL; and how much longer its output is read after the timeout.
    static let stopGrace: TimeInterval = 1

    /// One hook from its start to its report. Everything happens in handlers
    /// on the hooks' queue, none of which waits, so hooks run side by side,
    /// each within its own timeout.
    fileprivate final class Run: Sendable {
        private let subject: String
        private let fields: [(String, String)]
        private let limit: TimeInterval
        private let journal: Journal
        private let queue: DispatchQueue
        /// At most this much output is kept (the rest is read and dropped).
        private let outputLimit = 256 * 1024
        private let state: QueueBound<State>

        /// Everything the handlers on `queue` learn and change.
        private struct State {
            var output: [UInt8] = []
            var reader: OwnedReadSource?
            var deadline: DispatchSourceTimer?
            var status: ChildProcess.Status?
            var timedOut = false
            /// Whether the hook was still running at its timeout (and so was stopped).
            var killed = false
            var reported = false
        }

        init(subject: String, fields: [(String, String)], limit: TimeInterval, journal: Journal, queue: DispatchQueue) {
            self.subject = subject
            self.fields = fields
            self.limit = limit
            self.journal = journal
            self.queue = queue
            state = QueueBound(State(), queue: queue)
        }

        /// Reads `fd` (the hook's output; closed here) until end of file, and
        /// starts the timeout. On the hooks' queue.
        func watch(_ child: ChildProcess, output fd: Int32) {
            StreamSocket.setNonBlocking(fd)
            let reader = OwnedReadSource(fd: fd, queue: queue)
            reader.activate { [self] in readAvailable(fd) }
            state.reader = reader
            let deadline = DispatchSource.makeTimerSource(queue: queue)
            deadline.setEventHandler { [self] in overran(child) }
            deadline.schedule(deadline: .now() + limit)
            deadline.resume()
            state.deadline = deadline
        }

        func exited(_ status: ChildProcess.Status) {
            state.status = status
            finishIfDone()
        }

        private func readAvailable(_ fd: Int32) {
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    let kept = min(count, max(0, outputLimit - state.output.count))
                    state.output.append(contentsOf: buffer[0..<kept])
                    continue
                }
                if count < 0 && errno == EINTR { continue }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
                return stopReading()
            }
        }

        private func stopReading() {
            state.reader?.cancel()
            state.reader = nil
            finishIfDone()
        }

        /// The timeout: a hook still running is stopped (its process group,
        /// SIGTERM then SIGKILL). Something that left the group (setsid)
        /// survives that and may hold the output open: a grace later, reading
        /// stops regardless.
        private func overran(_ child: ChildProcess) {
            state.deadline?.cancel()
            state.deadline = nil
            state.timedOut = true
            if state.status == nil {
                state.killed = true
                child.terminate(grace: HookRunner.stopGrace)
            }
            queue.asyncAfter(deadline: .now() + HookRunner.stopGrace) { [self] in
                if state.reader != nil { stopReading() }
            }
        }

        /// Reports once the hook has been reaped and its output read.
        private func finishIfDone() {
            guard !state.reported, let status = state.status, state.reader == nil else { return }
            state.reported = true
            state.deadline?.cancel()
            state.deadline = nil
            for line in String(decoding: state.output, as: UTF8.self).split(separator: "\n").prefix(200) {
                journal.send("hook: \(line)", priority: .info, fields: fields)
            }
            if state.killed {
                journal.send("Hook of \(subject) killed after \(Int(limit)) s", priority: .warning, fields: fields)
            } else if state.timedOut {
                journal.send("Hook of \(subject) \(status), but a process it started outside its process group kept its output open; stopped reading after \(Int(limit)) s", priority: .warning, fields: fields)
            } else if !status.succeeded {
                journal.send("Hook of \(subject) \(status)", priority: .warning, fields: fields)
            }
        }
    }
}

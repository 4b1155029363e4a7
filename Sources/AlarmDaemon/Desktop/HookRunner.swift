import AlarmCore
import CLinux
import Dispatch
import Foundation
import Glibc
import Synchronization

/// Runs an item's command when it fires: an argument vector (never a shell),
/// with the item described in its environment, its output sent to the journal
/// line by line, killed (with its process group) when it overruns the timeout.
/// A failing hook is logged and changes nothing else.
public final class HookRunner: @unchecked Sendable {
    private let queue = DispatchQueue(label: "alarmd.hooks")
    private let journal: Journal
    private let timeout: @Sendable () -> TimeInterval
    private let basePath: String

    public init(journal: Journal, path: String, timeout: @escaping @Sendable () -> TimeInterval) {
        self.journal = journal
        self.basePath = path
        self.timeout = timeout
    }

    /// Runs the hook of `event.item`, if it has one, for a `fired` event.
    public func handle(_ event: DaemonEvent) {
        let argv = event.item.command
        guard event.kind == .fired, !argv.isEmpty else { return }
        queue.async { [self] in run(argv, event: event) }
    }

    private func run(_ argv: [String], event: DaemonEvent) {
        let id = event.item.id.uuidString.lowercased()
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
        do { pipeFDs = try UnixSocket.pair() } catch {
            journal.send("Hook of \(EventText.subject(event.item)) not run: \(error)", priority: .warning, fields: fields)
            return
        }
        let pid: pid_t
        do {
            pid = try ProcessSpawner.spawn(argv, environment: environment, output: pipeFDs.1)
        } catch {
            close(pipeFDs.0); close(pipeFDs.1)
            journal.send("Hook of \(EventText.subject(event.item)) not run: \(error)", priority: .warning, fields: fields)
            return
        }
        close(pipeFDs.1)
        let limit = timeout()
        // The timer runs elsewhere: this queue is busy reading the hook's output.
        let deadline = DispatchSource.makeTimerSource(queue: .global())
        let timedOut = Flag()
        deadline.setEventHandler {
            timedOut.value.store(true, ordering: .relaxed)
            kill(-pid, SIGKILL)
        }
        deadline.schedule(deadline: .now() + limit)
        deadline.resume()
        // Reading on this queue is fine: hooks have a queue of their own, and the
        // timer above ends a hook that never closes its output. Something that
        // left the hook's process group (setsid) survives that and may hold the
        // output open: a second after the kill, reading stops regardless, so
        // later hooks are not held up.
        let output = String(decoding: Self.readOutput(pipeFDs.0, timedOut: timedOut), as: UTF8.self)
        close(pipeFDs.0)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        deadline.cancel()
        for line in output.split(separator: "\n").prefix(200) {
            journal.send("hook: \(line)", priority: .info, fields: fields)
        }
        let exitedItself = (status & 0x7F) == 0
        if timedOut.value.load(ordering: .relaxed) && exitedItself {
            journal.send("Hook of \(EventText.subject(event.item)) exited with status \((status >> 8) & 0xFF), but a process it started outside its process group kept its output open; stopped reading after \(Int(limit)) s", priority: .warning, fields: fields)
        } else if timedOut.value.load(ordering: .relaxed) {
            journal.send("Hook of \(EventText.subject(event.item)) killed after \(Int(limit)) s", priority: .warning, fields: fields)
        } else if status != 0 {
            let how = (status & 0x7F) == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(status & 0x7F)"
            journal.send("Hook of \(EventText.subject(event.item)) \(how)", priority: .warning, fields: fields)
        }
    }
}

extension HookRunner {
    /// Everything written to `fd` until end of file, or until a second after
    /// `timedOut` was set; at most `limit` bytes are kept (the rest is drained).
    fileprivate static func readOutput(_ fd: Int32, timedOut: Flag, limit: Int = 256 * 1024) -> [UInt8] {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var giveUp: Date?
        while true {
            if giveUp == nil, timedOut.value.load(ordering: .relaxed) { giveUp = Date().addingTimeInterval(1) }
            if let giveUp, Date() >= giveUp { break }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 100)
            if ready < 0 { if errno == EINTR { continue } else { break } }
            if ready == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: buffer[0..<min(count, max(0, limit - output.count))])
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                break
            }
        }
        return output
    }
}

/// posix_spawnp with its own process group, so that stopping it stops
/// everything it started, and with the daemon's ignored signals back to default.
enum ProcessSpawner {
    static func spawn(_ argv: [String], environment: [String]? = nil, output: Int32? = nil) throws(SystemError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
            posix_spawn_file_actions_adddup2(&actions, output, STDERR_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        }
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        let cEnvironment = environment.map { $0.map { strdup($0) } + [nil] }
        defer { cEnvironment?.forEach { free($0) } }
        var pid: pid_t = 0
        let result: Int32
        if let cEnvironment {
            result = posix_spawnp(&pid, argv[0], &actions, &attributes, cArguments, cEnvironment)
        } else {
            result = posix_spawnp(&pid, argv[0], &actions, &attributes, cArguments, environ)
        }
        guard result == 0 else { throw SystemError("spawn \(argv[0])", code: result) }
        return pid
    }
}

private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}

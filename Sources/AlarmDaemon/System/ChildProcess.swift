// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CLinux
import Dispatch
import FoundationEssentials
import Glibc
import SystemCalls

/// The daemon's one way to run another program (hooks, sound players).
///
/// posix_spawnp with an argument vector (never a shell), in a process group of
/// its own so that stopping it stops everything it started, with the daemon's
/// ignored and caught signals back to default and stdin on /dev/null. Its exit
/// is seen through a pidfd on a Dispatch read source on `queue`, and reaped
/// there with a non-blocking waitpid: nothing ever blocks waiting for a child,
/// so any number of them run side by side.
final class ChildProcess: Sendable {
    /// How a child ended, from waitpid's status word.
    struct Status: Equatable, CustomStringConvertible {
        let raw: Int32

        /// The exit code; `nil` when a signal ended it.
        var exitCode: Int32? { raw & 0x7F == 0 ? (raw >> 8) & 0xFF : nil }
        /// The signal that ended it, when one did.
        var signal: Int32 { raw & 0x7F }
        var succeeded: Bool { raw == 0 }
        var description: String {
            exitCode.map { "exited with status \($0)" } ?? "was killed by signal \(signal)"
        }
    }

    /// The child, which is also its process group.
    let pid: pid_t
    private let queue: DispatchQueue

    /// Starts `argv`; `onExit` runs on `queue` once it has ended and been
    /// reaped. `output`, when given, becomes its stdout and stderr (else
    /// /dev/null); `channel`, when given, its descriptor 3. The caller
    /// closes its own copies.
    init(_ argv: [String], environment: [String]? = nil, output: Int32? = nil, channel: Int32? = nil, queue: DispatchQueue,
         onExit: @escaping @Sendable (Status) -> Void) throws(SystemError) {
        let pid = try Self.spawn(argv, environment: environment, output: output, channel: channel)
        // The pid cannot be reused before the waitpid below reaps it, so the
        // pidfd names this child even if it has already exited.
        let fd = alarmd_pidfd_open(pid)
        guard fd >= 0 else {
            let code = errno
            // Without a pidfd nothing would reap it: end it now. SIGKILL makes the wait short.
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            throw SystemError("pidfd_open", code: code)
        }
        self.pid = pid
        self.queue = queue
        // A resumed source is kept alive by Dispatch until it is cancelled, so
        // nobody needs to hold on to this object for the exit to be seen.
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler {
            var status: Int32 = 0
            // WNOHANG: a pidfd is readable only once the child has exited, but
            // even a surprise must not block the queue.
            guard let reaped = try? systemCall("waitpid", { waitpid(pid, &status, WNOHANG) }) else {
                // ECHILD: reaped elsewhere; there is no status to report.
                source.cancel()
                onExit(Status(raw: -1))
                return
            }
            guard reaped == pid else { return }
            source.cancel()
            onExit(Status(raw: status))
        }
        source.setCancelHandler { close(fd) }
        source.resume()
    }

    /// Where alarmd's helper program `name` (`alarmd-sync`, `alarmd-sound`)
    /// is: beside alarmd (a build tree), else in `../libexec` from it (an
    /// install); `nil` when in neither.
    static func helperProgram(_ name: String) -> String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return PathText.helperCandidates(name, besideExecutable: executable).first { access($0, X_OK) == 0 }
    }

    /// SIGTERM to the child's process group now, SIGKILL after `grace` (from
    /// `queue`, so nothing waits for it).
    func terminate(grace: TimeInterval) {
        let group = pid
        kill(-group, SIGTERM)
        // Sent whether or not the group is still there: once every member is
        // gone, the id could only name a new group after the pid space wrapped
        // around within the grace, and kill() just fails with ESRCH.
        queue.asyncAfter(deadline: .now() + grace) { kill(-group, SIGKILL) }
    }

    private static func spawn(_ argv: [String], environment: [String]?, output: Int32?, channel: Int32?) throws(SystemError) -> pid_t {
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
        // dup2 clears close-on-exec on the copy, and only on it.
        if let channel { posix_spawn_file_actions_adddup2(&actions, channel, 3) }
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

// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc

/// A real terminal for a full-screen program: a detached tmux session on a
/// server of its own (its socket in the test's directory), driven with
/// `send-keys` and read with `capture-pane`.
final class TmuxTerminal {
    let socket: String
    private let session = "t"

    /// Starts `command` (an argument vector) in a `columns`×`rows` terminal
    /// with `environment` and TERM=xterm-256color.
    init(directory: String, command: [String], environment: [String: String], columns: Int = 120, rows: Int = 40) throws {
        socket = directory + "/tmux.sock"
        let assignments = environment.merging(["TERM": "xterm-256color"]) { $1 }.map { "\($0.key)=\($0.value)" }.sorted()
        // The server tmux starts keeps the descriptors it was given: never
        // a pipe the test would wait on for its end.
        let log = directory + "/tmux.log"
        guard FileManager.default.createFile(atPath: log, contents: nil) else { throw HarnessError(description: "cannot create \(log)") }
        let status = Self.spawnAndWait(["/usr/bin/tmux", "-u", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", session,
                                        "-x", String(columns), "-y", String(rows), "--", "/usr/bin/env", "-i"] + assignments + command,
                                       environment: ["PATH=/usr/bin:/bin", "LANG=C.UTF-8"], errors: log)
        guard status == 0 else {
            throw HarnessError(description: "tmux new-session: " + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
        }
    }

    /// Runs a program with output to /dev/null and errors to `errors` and
    /// waits for it with waitpid: Foundation's Process would wait for the
    /// end of tmux's server too, which keeps what it inherits.
    static func spawnAndWait(_ arguments: [String], environment: [String], errors: String) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // The test runner blocks signals in its threads; tmux and what it
        // runs must get SIGWINCH and SIGHUP as in a real session.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
    }

    deinit { close() }

    /// Ends the server and with it the program (SIGHUP); the server's pid
    /// is killed too, should its socket be gone already.
    func close() {
        guard !closed else { return }
        closed = true
        let pid = Tool.run("/usr/bin/tmux", ["-u", "-S", socket, "display-message", "-p", "#{pid}"]).standardOutput
        _ = Tool.run("/usr/bin/tmux", ["-u", "-S", socket, "kill-server"])
        if let server = pid_t(pid.trimmingCharacters(in: .whitespacesAndNewlines)) { kill(server, SIGKILL) }
    }

    private var closed = false

    /// Presses keys, in tmux's names (`Space`, `Enter`, `Escape`, `Tab`, `C-u`)
    /// or as literal text when `literal`.
    func send(_ keys: String..., literal: Bool = false) {
        _ = Tool.run("/usr/bin/tmux", ["-u", "-S", socket, "send-keys", "-t", session] + (literal ? ["-l"] : []) + keys)
    }

    /// The screen's lines as shown, trailing blanks dropped.
    func screen(escapes: Bool = false) -> [String] {
        let result = Tool.run("/usr/bin/tmux", ["-u", "-S", socket, "capture-pane", "-p", "-t", session] + (escapes ? ["-e"] : []))
        var output = result.standardOutput
        if output.hasSuffix("\n") { output.removeLast() }
        return output.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var text = String(line)
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
    }

    /// Waits (at most `timeout` seconds) for the screen to satisfy `test`;
    /// the last screen either way.
    @discardableResult
    func wait(timeout: TimeInterval = 5, until test: ([String]) -> Bool) -> (ok: Bool, screen: [String]) {
        let deadline = Date().addingTimeInterval(timeout)
        var lines = screen()
        while !test(lines) {
            if Date() > deadline { return (false, lines) }
            usleep(50_000)
            lines = screen()
        }
        return (true, lines)
    }

    /// Whether the screen comes to satisfy `test` within `timeout` seconds.
    func shows(timeout: TimeInterval = 5, _ test: ([String]) -> Bool) -> Bool { wait(timeout: timeout, until: test).ok }

    /// Waits for a line containing `text`.
    @discardableResult
    func wait(for text: String, timeout: TimeInterval = 5) -> (ok: Bool, screen: [String]) {
        wait(timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// Changes the terminal's size (the program gets SIGWINCH).
    func resize(columns: Int, rows: Int) {
        _ = Tool.run("/usr/bin/tmux", ["-u", "-S", socket, "resize-window", "-t", session, "-x", String(columns), "-y", String(rows)])
    }

    /// The size tmux reports for the pane.
    func size() -> (columns: Int, rows: Int) {
        let result = Tool.run("/usr/bin/tmux", ["-u", "-S", socket, "display-message", "-p", "-t", session, "#{pane_width} #{pane_height}"])
        let parts = result.standardOutput.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : (0, 0)
    }

    /// The pid of the program in the pane.
    func panePID() -> pid_t? {
        let result = Tool.run("/usr/bin/tmux", ["-u", "-S", socket, "display-message", "-p", "-t", session, "#{pane_pid} #{pane_dead}"])
        let parts = result.standardOutput.split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, parts[1] == "0" else { return nil }
        return pid_t(parts[0])
    }
}

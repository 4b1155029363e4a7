// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import CLinux
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// One run of alarmd's sound process, `alarmd-sound`, which decodes a sound
/// file and plays it on the sound server (or checks files and the output
/// for the audibility report). alarmd itself maps neither libpulse nor
/// libsndfile (they stay mapped once opened: libpulse is linked
/// `-z nodelete`) and never parses a sound file, which comes from anywhere.
///
/// The process gets one end of a socket pair as stdout, stderr and
/// descriptor 3, and answers in ``SoundMessage`` lines; alarmd asks it to
/// escalate on the same socket and stops it with SIGTERM. Its exit is seen
/// on the caller's queue (``ChildProcess``).
final class SoundHelper: Sendable {
    /// What a start came to.
    enum Started {
        /// The stream is on the server.
        case playing(SoundHelper, seconds: Double)
        /// The file does not decode; an external player may still read it.
        case cannotDecode(String)
        /// No server took the stream, or the process could not run.
        case noServer(String)
    }

    /// What a check found.
    struct Checked {
        /// The output a stream would play on (`nil`: the server has none), or why no server could be asked.
        var output: Result<AudibilityReport.Output?, PlainError>
        /// The files answered for, by their position in the files asked about.
        var answered: Set<Int> = []
        /// Why each file that does not decode does not, by the same position.
        var problems: [Int: String] = [:]
    }

    struct PlainError: Error, CustomStringConvertible {
        let description: String
    }

    /// Decoding up to a minute of sound and reaching the server (at most
    /// 2 s); longer, and the process counts as hung.
    static let startTimeout: TimeInterval = 6
    /// A check: the server's questions (2 s each at most) and a little of each file.
    static let checkTimeout: TimeInterval = 8
    /// How long a stopped process has after SIGTERM before SIGKILL.
    static let stopGrace: TimeInterval = 1

    private let child: ChildProcess
    private let channel: Channel

    private init(child: ChildProcess, channel: Channel) {
        self.child = child
        self.channel = channel
    }

    /// The process's group while it runs, for shutdown (``SoundLoop/finish(groups:)``).
    var group: pid_t { child.pid }

    /// Starts playing `file` (see `alarmd-sound(8)`): looped, or once with
    /// `once`. Blocks the calling queue until the stream is on the server,
    /// at most ``startTimeout``. `failed` runs on `queue` when a stream that
    /// was playing ends by itself (the server went, the process died).
    static func play(_ file: String, name: String, role: String, volume: Int, fade: TimeInterval, once: Bool, queue: DispatchQueue,
                     failed: @escaping @Sendable (String) -> Void) -> Started {
        var arguments = ["play", "--volume", String(volume), "--fade", String(fade), "--role", role, "--name", name]
        if once { arguments.append("--once") }
        let channel: Channel, child: ChildProcess
        do throws(PlainError) {
            (channel, child) = try spawn(arguments + ["--", file], queue: queue) { channel, status in
                guard channel.started, !channel.stopped else { return }
                let said = channel.readAvailable().lazy.compactMap { message -> String? in
                    if case .failed(let reason) = message { reason } else { nil }
                }.first
                // A preview that played through ends by itself, and says nothing.
                guard said != nil || !status.succeeded else { return }
                failed(said ?? "the sound process \(status.description)")
            }
        } catch {
            return .noServer(error.description)
        }
        let deadline = Date().addingTimeInterval(startTimeout)
        while let message = channel.next(before: deadline) {
            switch message {
            case .playing(let seconds):
                channel.started = true
                return .playing(SoundHelper(child: child, channel: channel), seconds: seconds)
            case .cannotDecode(let reason): return .cannotDecode(reason)
            case .noServer(let reason): return .noServer(reason)
            default: continue
            }
        }
        child.terminate(grace: stopGrace)
        return .noServer(Date() >= deadline ? "the sound process did not start within \(Int(startTimeout)) s" : "the sound process ended without a word")
    }

    /// The sound to full volume at once.
    func escalate() { channel.send(.escalate) }

    /// Stops the sound: the process ends, and the server drops its stream.
    func stop() {
        channel.stopped = true
        child.terminate(grace: Self.stopGrace)
    }

    /// The output a stream would play on and which of `files` do not
    /// decode. Blocks the calling queue for at most ``checkTimeout``.
    static func check(_ files: [String], queue: DispatchQueue) -> Checked {
        func failure(_ reason: String) -> Result<AudibilityReport.Output?, PlainError> {
            .failure(PlainError(description: MessageFormat.fill(Audibility.noSoundServer, [reason])))
        }
        var checked = Checked(output: failure("the sound process said nothing"))
        let channel: Channel, child: ChildProcess
        do throws(PlainError) { (channel, child) = try spawn(["check", "--"] + files, queue: queue) { _, _ in } } catch {
            checked.output = failure(error.description)
            return checked
        }
        let deadline = Date().addingTimeInterval(checkTimeout)
        while let message = channel.next(before: deadline) {
            switch message {
            case .output(let output): checked.output = .success(output)
            case .noServer(let reason): checked.output = .failure(PlainError(description: reason))
            case .file(let index, let problem) where files.indices.contains(index):
                checked.answered.insert(index)
                checked.problems[index] = problem
            default: continue
            }
        }
        if Date() >= deadline {
            child.terminate(grace: stopGrace)
            checked.output = failure(MessageFormat.fill(Audibility.noAnswer, [String(Int(checkTimeout))]))
        }
        return checked
    }

    /// Where `alarmd-sound` is (``ChildProcess/helperProgram(_:)``), looked
    /// for once.
    static let program = ChildProcess.helperProgram("alarmd-sound")

    private static func spawn(_ arguments: [String], queue: DispatchQueue,
                              exited: @escaping @Sendable (Channel, ChildProcess.Status) -> Void) throws(PlainError) -> (Channel, ChildProcess) {
        guard let program else { throw PlainError(description: "alarmd-sound is neither beside alarmd nor in ../libexec") }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw PlainError(description: "cannot make the sound process's socket: \(String(cString: strerror(errno)))")
        }
        let channel = Channel(pair[0])
        defer { close(pair[1]) }
        do {
            let child = try ChildProcess([program] + arguments, output: pair[1], channel: pair[1], queue: queue) { status in
                exited(channel, status)
                channel.close()
            }
            return (channel, child)
        } catch {
            channel.close()
            throw PlainError(description: "cannot start \(program): \(error)")
        }
    }

    /// alarmd's end of the socket: lines in, bounded; requests out.
    private final class Channel: Sendable {
        /// A line longer than this is not the process's answer (a library
        /// writing to stderr) and is dropped.
        static let lineLimit = 4096
        private struct State {
            var fd: Int32
            var pending: [UInt8] = []
            var started = false
            var stopped = false
        }
        private let state: Mutex<State>

        init(_ fd: Int32) { state = Mutex(State(fd: fd)) }

        var started: Bool {
            get { state.withLock { $0.started } }
            set { state.withLock { $0.started = newValue } }
        }
        var stopped: Bool {
            get { state.withLock { $0.stopped } }
            set { state.withLock { $0.stopped = newValue } }
        }

        func send(_ message: SoundMessage) {
            state.withLock { state in
                guard state.fd >= 0 else { return }
                // A word into an empty socket buffer: never blocks, at worst fails.
                _ = (message.line + "\n").withCString { Glibc.send(state.fd, $0, strlen($0), Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            }
        }

        /// The next message, waiting until `deadline`; `nil` at the
        /// deadline or once the process has closed its end.
        func next(before deadline: Date) -> SoundMessage? {
            while true {
                if let message = takeLine() { return message }
                let left = deadline.timeIntervalSinceNow
                guard left > 0, receive(waiting: Int32(left * 1000) + 1) else { return nil }
            }
        }

        /// The messages already sent, without waiting; for when the process
        /// has ended, so its end is closed and this ends.
        func readAvailable() -> [SoundMessage] {
            var messages: [SoundMessage] = []
            while true {
                if let message = takeLine() {
                    messages.append(message)
                } else if !receive(waiting: 0) {
                    return messages
                }
            }
        }

        /// Waits up to `milliseconds` for bytes and takes them in; `false`
        /// when none came or the process has closed its end.
        private func receive(waiting milliseconds: Int32) -> Bool {
            guard let fd = state.withLock({ $0.fd >= 0 ? $0.fd : nil }) else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            var ready = poll(&poller, 1, milliseconds)
            while ready < 0 && errno == EINTR { ready = poll(&poller, 1, milliseconds) }
            return ready > 0 && fill(fd)
        }

        func close() {
            state.withLock { state in
                if state.fd >= 0 { Glibc.close(state.fd) }
                state.fd = -1
            }
        }

        /// Reads what is there; `false` at the end.
        private func fill(_ fd: Int32) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return count < 0 && errno == EINTR }
            state.withLock { $0.pending += buffer[..<count] }
            return true
        }

        /// The first whole line that is a message, dropping those that are not.
        private func takeLine() -> SoundMessage? {
            state.withLock { state in
                while let newline = state.pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: state.pending[..<newline], as: UTF8.self)
                    state.pending.removeSubrange(...newline)
                    if let message = SoundMessage(line: Substring(line)) { return message }
                }
                if state.pending.count > Self.lineLimit { state.pending.removeAll() }
                return nil
            }
        }
    }
}

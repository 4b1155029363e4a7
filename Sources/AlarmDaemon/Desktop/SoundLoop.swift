// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Dispatch
import FoundationEssentials
import Glibc

/// Plays a sound file over and over with an external player until stopped.
///
/// The player runs from an argument vector (never a shell), in its own process
/// group so that stopping it also stops anything it started (a ``ChildProcess``,
/// whose exit is seen on `queue`). Starts are at least
/// `minimumInterval` apart, so a player that ends at once does not spin. A
/// failure is reported once per ring; a player that fails within a second is
/// not restarted, one that failed later is (the fault may pass). Confined to
/// `queue`, where its restarts are scheduled too.
final class SoundLoop: Sendable {
    /// The shortest time between two starts of the player.
    static let minimumInterval: TimeInterval = 0.5
    /// How long a stopped player's process group has, after SIGTERM, before SIGKILL.
    static let stopGrace: TimeInterval = 1

    private let argv: [String]
    /// Play once and end (a preview), rather than loop.
    private let once: Bool
    private let queue: DispatchQueue
    private let report: @Sendable (String) -> Void
    private let state: QueueBound<State>

    private struct State {
        var child: ChildProcess?
        var startedAt = Date()
        var stopped = false
        var reportedFailure = false
        var plays = 0
    }

    init(argv: [String], once: Bool = false, queue: DispatchQueue, report: @escaping @Sendable (String) -> Void) {
        self.argv = argv
        self.once = once
        self.queue = queue
        self.report = report
        state = QueueBound(State(), queue: queue)
    }

    /// How many times the player was started.
    var plays: Int { state.plays }

    func start() { spawn() }

    /// The player's process group while it runs.
    var group: pid_t? { state.child?.pid }

    /// Stops the loop: SIGTERM to the player's process group now, SIGKILL after
    /// `stopGrace` on `queue` (so nothing waits for it).
    func stop() {
        state.stopped = true
        state.child?.terminate(grace: Self.stopGrace)
    }

    /// Waits (at most `stopGrace`) for stopped players' process groups to end,
    /// then kills what is left; for shutdown, when the process exits before the
    /// SIGKILL that ``stop()`` scheduled would be sent.
    static func finish(groups: [pid_t]) {
        let deadline = Date().addingTimeInterval(stopGrace)
        var left = groups
        while !left.isEmpty && Date() < deadline {
            left.removeAll { kill(-$0, 0) != 0 }
            if !left.isEmpty { usleep(20_000) }
        }
        for group in left { kill(-group, SIGKILL) }
    }

    private func fail(_ reason: String) {
        guard !state.reportedFailure else { return }
        state.reportedFailure = true
        report(reason)
    }

    private func spawn() {
        guard !state.stopped else { return }
        let child: ChildProcess
        do {
            child = try ChildProcess(argv, queue: queue) { [weak self] in self?.exited(status: $0) }
        } catch {
            fail(MessageFormat.fill(Audibility.playerUnstartable, [argv.first ?? "", "\(error)"]))
            return
        }
        state.child = child
        state.plays += 1
        state.startedAt = Date()
    }

    private func exited(status: ChildProcess.Status) {
        state.child = nil
        guard !state.stopped else { return }
        let ran = Date().timeIntervalSince(state.startedAt)
        if once {
            state.stopped = true
            if !status.succeeded {
                let player = argv.joined(separator: " ")
                fail(status.exitCode.map { MessageFormat.fill(Audibility.playerExited, [player, String($0)]) }
                     ?? MessageFormat.fill(Audibility.playerKilled, [player, String(status.signal)]))
            }
            return
        }
        if !status.succeeded {
            let how = status.description
            if ran < 1 {
                fail("the sound player \(argv.joined(separator: " ")) \(how); not restarting it for this ring")
                return
            }
            let tenths = Int((ran * 10).rounded())
            fail("the sound player \(argv.joined(separator: " ")) \(how) after \(tenths / 10).\(tenths % 10) s; restarting it")
        }
        let wait = Self.minimumInterval - ran
        guard wait > 0 else { return spawn() }
        queue.asyncAfter(deadline: .now() + wait) { [weak self] in self?.spawn() }
    }

    /// The arguments that set `player`'s volume to `percent`, for the
    /// players that take one (PipeWire's and PulseAudio's, both on the stream).
    static func volumeArguments(player: String, percent: Int) -> [String] {
        switch PathText.lastComponent(player) {
        case "pw-play": return ["--volume=\(Double(percent) / 100)"]
        case "paplay": return ["--volume=\(65_536 * percent / 100)"]
        default: return []
        }
    }

    /// The first of `candidates` found on `PATH`, as an argument vector.
    static func defaultPlayer(path: String, candidates: [String] = ["pw-play", "paplay", "ogg123", "aplay"]) -> [String]? {
        for name in candidates {
            for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return ["\(directory)/\(name)"]
            }
        }
        return nil
    }
}

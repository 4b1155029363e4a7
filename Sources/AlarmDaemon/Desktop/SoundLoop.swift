import CLinux
import Dispatch
import Foundation
import Glibc

/// Plays a sound file over and over with an external player until stopped.
///
/// The player runs from an argument vector (never a shell), in its own process
/// group so that stopping it also stops anything it started. Its exit is seen
/// through a pidfd on a Dispatch read source. Starts are at least
/// `minimumInterval` apart, so a player that ends at once does not spin. A
/// failure is reported once per ring; a player that fails within a second is
/// not restarted, one that failed later is (the fault may pass). Confined to
/// `queue`, where its restarts are scheduled too.
final class SoundLoop: @unchecked Sendable {
    /// The shortest time between two starts of the player.
    static let minimumInterval: TimeInterval = 0.5
    /// How long a stopped player's process group has, after SIGTERM, before SIGKILL.
    static let stopGrace: TimeInterval = 1

    private let argv: [String]
    private let queue: DispatchQueue
    private let report: (String) -> Void
    private var pid: pid_t = 0
    private var exitSource: DispatchSourceRead?
    private var startedAt = Date()
    private var stopped = false
    private var reportedFailure = false
    private(set) var plays = 0

    init(argv: [String], queue: DispatchQueue, report: @escaping (String) -> Void) {
        self.argv = argv
        self.queue = queue
        self.report = report
    }

    func start() { spawn() }

    /// The player's process group while it runs.
    var group: pid_t? { pid > 0 ? pid : nil }

    /// Stops the loop: SIGTERM to the player's process group now, SIGKILL after
    /// `stopGrace` on `queue` (so nothing waits for it).
    func stop() {
        stopped = true
        guard let group else { return }
        kill(-group, SIGTERM)
        // Sent whether or not the group is still there: once every member is
        // gone, the id could only name a new group after the pid space wrapped
        // around within the grace, and kill() just fails with ESRCH.
        queue.asyncAfter(deadline: .now() + Self.stopGrace) { kill(-group, SIGKILL) }
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
        guard !reportedFailure else { return }
        reportedFailure = true
        report(reason)
    }

    private func spawn() {
        guard !stopped else { return }
        do {
            pid = try ProcessSpawner.spawn(argv)
        } catch {
            fail("cannot start the sound player \(argv.first ?? ""): \(error)")
            return
        }
        plays += 1
        startedAt = Date()
        let fd = alarmd_pidfd_open(pid)
        guard fd >= 0 else {
            report("cannot watch the sound player (pidfd_open: \(String(cString: strerror(errno))))")
            return
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let child = pid
        source.setEventHandler { [weak self] in
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            source.cancel()
            self?.exited(status: status)
        }
        source.setCancelHandler { close(fd) }
        source.resume()
        exitSource = source
    }

    private func exited(status: Int32) {
        exitSource = nil
        pid = 0
        guard !stopped else { return }
        let exitCode = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
        let ran = Date().timeIntervalSince(startedAt)
        if exitCode != 0 {
            let how = exitCode < 0 ? "was killed by signal \(status & 0x7F)" : "exited with status \(exitCode)"
            if ran < 1 {
                fail("the sound player \(argv.joined(separator: " ")) \(how); not restarting it for this ring")
                return
            }
            fail("the sound player \(argv.joined(separator: " ")) \(how) after \(String(format: "%.1f", ran)) s; restarting it")
        }
        let wait = Self.minimumInterval - ran
        guard wait > 0 else { return spawn() }
        queue.asyncAfter(deadline: .now() + wait) { [weak self] in self?.spawn() }
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

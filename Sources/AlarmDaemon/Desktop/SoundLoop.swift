import CLinux
import Dispatch
import Foundation
import Glibc

/// Plays a sound file over and over with an external player until stopped.
///
/// The player runs from an argument vector (never a shell), in its own process
/// group so that stopping it also stops anything it started. Its exit is seen
/// through a pidfd on a Dispatch read source. A player that fails quickly is
/// not restarted in a tight loop: the failure is reported once and the loop ends.
final class SoundLoop {
    private let argv: [String]
    private let queue: DispatchQueue
    private let report: (String) -> Void
    private var pid: pid_t = 0
    private var exitSource: DispatchSourceRead?
    private var startedAt = Date()
    private var stopped = false
    private(set) var plays = 0

    init(argv: [String], queue: DispatchQueue, report: @escaping (String) -> Void) {
        self.argv = argv
        self.queue = queue
        self.report = report
    }

    func start() { spawn() }

    func stop() {
        stopped = true
        if pid > 0 { kill(-pid, SIGTERM) }
    }

    private func spawn() {
        guard !stopped else { return }
        do {
            pid = try ProcessSpawner.spawn(argv)
        } catch {
            report("cannot start the sound player \(argv.first ?? ""): \(error)")
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
        if exitCode != 0 && Date().timeIntervalSince(startedAt) < 1 {
            let how = exitCode < 0 ? "was killed by signal \(status & 0x7F)" : "exited with status \(exitCode)"
            report("the sound player \(argv.joined(separator: " ")) \(how); not restarting it for this ring")
            return
        }
        spawn()
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

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Dispatch
import FoundationEssentials

/// Finds out what can be found out about whether an alarm will be heard and
/// seen: the sound server and the output a stream would go to, each sound's
/// file, the notification server. Its questions may each take seconds when a
/// server does not answer, so it has a worker of its own: ringing (the
/// output worker) never waits behind a check. The sound server and the
/// files are asked about by a sound process (``SoundHelper``), so that
/// alarmd maps no sound library and decodes no file; the bus connection is
/// its own, confined to that worker.
final class AudibilityProbe: Sendable {
    let queue: DispatchQueue
    private let environment: [String: String]
    private let settings: @Sendable () -> DaemonConfig
    /// Confined to `queue`.
    private let state: QueueBound<State>

    private struct State {
        /// The ringer logs bus outages; the probe reports them as warnings instead.
        var notifications: DesktopNotifications
        /// The sound files found to decode, until they change. Every added or
        /// edited alarm asks for a check; decoding the file each time kept a core
        /// busy while clients added alarms in a loop and cut the group commit's
        /// rate by a third. Failures are not kept: they are quick to find again,
        /// and one may pass (a file being written, descriptors running out).
        var decodedFiles: [String: FileStamp] = [:]
    }

    /// Enough sound files for every alarm someone sets by hand; past it the
    /// memory starts afresh rather than grow.
    static let decodedFilesLimit = 64

    init(environment: [String: String], settings: @escaping @Sendable () -> DaemonConfig) {
        let queue = DispatchQueue(label: "alarmd.probe", qos: .utility)
        self.queue = queue
        self.environment = environment
        self.settings = settings
        // It connects at its first question.
        state = QueueBound(State(notifications: DesktopNotifications(queue: queue) { _ in }), queue: queue)
    }

    /// The report for `sounds`, with the owner's `wakeProblem`; on `queue`.
    func check(sounds: Set<Sound>, wakeProblem: String?) -> AudibilityReport {
        dispatchPrecondition(condition: .onQueue(queue))
        let config = settings()
        var report = AudibilityReport(wakeProblem: wakeProblem)
        report.hasPlayer = !config.player.isEmpty || SoundLoop.defaultPlayer(path: environment["PATH"] ?? "/usr/bin:/bin") != nil
        // The files to decode: those found and not known to decode as they are.
        var files: [(sound: Sound, path: String, stamp: FileStamp?)] = []
        for sound in sounds {
            do throws(SoundTheme.Missing) {
                guard let path = try SoundTheme(theme: config.soundTheme, environment: environment).file(for: sound) else { continue }
                // Taken before decoding: a file changing meanwhile is checked again next time.
                let stamp = FileStamp(path: path)
                if let stamp, state.decodedFiles[path] == stamp { continue }
                files.append((sound, path, stamp))
            } catch {
                report.soundProblems[sound.description] = error.description
            }
        }
        let checked = SoundHelper.check(files.map(\.path), queue: queue)
        switch checked.output {
        case .success(let output): report.output = output
        case .failure(let error): report.serverProblem = error.description
        }
        for (index, file) in files.enumerated() {
            if let problem = checked.problems[index] {
                state.decodedFiles[file.path] = nil
                report.soundProblems[file.sound.description] = problem
            } else if let stamp = file.stamp, checked.answered.contains(index) {
                if state.decodedFiles.count >= Self.decodedFilesLimit { state.decodedFiles.removeAll() }
                state.decodedFiles[file.path] = stamp
            }
        }
        report.notificationProblem = state.notifications.serverProblem()
        return report
    }
}

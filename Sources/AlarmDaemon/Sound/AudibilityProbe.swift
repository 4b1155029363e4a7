// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Dispatch
import FoundationEssentials

/// Finds out what can be found out about whether an alarm will be heard and
/// seen: the sound server and the output a stream would go to, each sound's
/// file, the notification server. Its questions may each take seconds when a
/// server does not answer, so it has a worker of its own: ringing (the
/// output worker) never waits behind a check. It keeps its own sound-server
/// and bus connections, confined to that worker, and drops the sound
/// server's after each check.
final class AudibilityProbe: Sendable {
    let queue: DispatchQueue
    private let environment: [String: String]
    private let settings: @Sendable () -> DaemonConfig
    /// Confined to `queue`, as is `state`.
    private let pulse: PulseOutput
    private let state: QueueBound<State>

    private struct State {
        /// The ringer logs bus outages; the probe reports them as warnings instead.
        var notifications: DesktopNotifications
        /// The sound files found to decode, until they change. Every added or
        /// edited alarm asks for a check; decoding the file each time kept a core
        /// busy while clients added alarms in a loop (libvorbis was half of
        /// alarmd's CPU) and cut the group commit's rate by a third. Failures are
        /// not kept: they are quick to find again, and one may pass (a file
        /// being written, descriptors running out).
        var decodedFiles: [String: FileStamp] = [:]
    }

    /// Enough sound files for every alarm someone sets by hand; past it the
    /// memory starts afresh rather than grow.
    static let decodedFilesLimit = 64
    /// How much of a file a check decodes: enough to know the codec reads it.
    static let checkedSeconds = 0.1

    init(environment: [String: String], settings: @escaping @Sendable () -> DaemonConfig) {
        let queue = DispatchQueue(label: "alarmd.probe", qos: .utility)
        self.queue = queue
        self.environment = environment
        self.settings = settings
        pulse = PulseOutput(queue: queue)
        // Neither connects before its first question.
        state = QueueBound(State(notifications: DesktopNotifications(queue: queue) { _ in }), queue: queue)
    }

    /// The report for `sounds`, with the owner's `wakeProblem`; on `queue`.
    func check(sounds: Set<Sound>, wakeProblem: String?) -> AudibilityReport {
        dispatchPrecondition(condition: .onQueue(queue))
        let config = settings()
        var report = AudibilityReport(wakeProblem: wakeProblem)
        report.hasPlayer = !config.player.isEmpty || SoundLoop.defaultPlayer(path: environment["PATH"] ?? "/usr/bin:/bin") != nil
        do throws(PulseOutput.Failure) { report.output = try pulse.defaultOutput() } catch { report.serverProblem = error.description }
        for sound in sounds {
            if let problem = problem(with: sound, config: config) { report.soundProblems[sound.description] = problem }
        }
        report.notificationProblem = state.notifications.serverProblem()
        return report
    }

    /// Why `sound` cannot be played, or `nil` when its file is there and decodes.
    private func problem(with sound: Sound, config: DaemonConfig) -> String? {
        do throws(SoundTheme.Missing) {
            guard let file = try SoundTheme(theme: config.soundTheme, environment: environment).file(for: sound) else { return nil }
            return problem(decoding: file)
        } catch {
            return error.description
        }
    }

    /// Why `file` does not decode; `nil` from memory while a file that
    /// decoded is unchanged.
    private func problem(decoding file: String) -> String? {
        // Taken before decoding: a file changing meanwhile is checked again next time.
        let stamp = FileStamp(path: file)
        if let stamp, state.decodedFiles[file] == stamp { return nil }
        do throws(DecodedSound.Failure) { _ = try DecodedSound.decode(path: file, seconds: Self.checkedSeconds) } catch {
            state.decodedFiles[file] = nil
            return error.description
        }
        if let stamp {
            if state.decodedFiles.count >= Self.decodedFilesLimit { state.decodedFiles.removeAll() }
            state.decodedFiles[file] = stamp
        }
        return nil
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol

/// The banner over the app's pages: alarmd out of reach, or the daemon's
/// warnings that alarms may not be heard or may not wake the machine, each
/// with what to do. `nil` when all is well.
public struct StatusBanner: Equatable, Sendable {
    /// What is wrong, as a banner title.
    public let title: String
    /// What to do about it.
    public let advice: String

    /// What kind of problem a warning of the daemon's is.
    public enum Problem: Hashable, Sendable {
        case unreachable
        /// The output is muted or very quiet.
        case outputMuted
        /// No sound server, no output, or nothing to play with.
        case noSoundServer
        /// The machine will not wake from suspend for alarms.
        case noWakeUp
        /// No notification server.
        case noNotifications
        /// Another warning, shown as the daemon wrote it.
        case other
    }

    public let problem: Problem

    public init(problem: Problem, title: String, advice: String) {
        self.problem = problem
        self.title = title
        self.advice = advice
    }

    /// The banner for this state: unreachable first; else the most
    /// important of the `Status` reply's `warnings` (a mute before the
    /// rest); `nil` when there is nothing to say.
    public init?(reachability: Reachability, status: Status.Reply?, language l: some Localization) {
        let first: (Problem, String)?
        if case .unreachable = reachability {
            first = (.unreachable, "")
        } else {
            first = (status?.warnings ?? []).map { (Self.classify($0), $0) }.min { Self.rank($0.0) < Self.rank($1.0) }
        }
        guard let (problem, warning) = first else { return nil }
        guard let (title, advice) = Self.words[problem] else {
            self.init(problem: .other, title: l.Lf("Alarms may not be heard: %s", Audibility.relocalized(warning, in: l)),
                      advice: l.L("Run alarmctl status for details."))
            return
        }
        self.init(problem: problem, title: l.L(title), advice: l.L(advice))
    }

    /// What each problem but ``Problem/other`` says: a title, and what to do (catalog messages).
    private static let words: [Problem: (title: String, advice: String)] = [
        .unreachable: (N_("alarmd is not running"), N_("Alarms ring only while alarmd runs. Start it with: systemctl --user start alarmd.socket")),
        .outputMuted: (N_("Alarms may not be heard: the sound output is muted or very quiet"), N_("Unmute the output or turn it up in the sound settings.")),
        .noSoundServer: (N_("Alarms may not be heard: no sound server"),
                         N_("Start PipeWire or PulseAudio for your session, or install a sound player (pw-play, paplay).")),
        .noWakeUp: (N_("Alarms will not wake this computer from suspend"),
                    N_("Run alarmctl status for the reason; systemd 254 or the alarmd-wake helper can wake it.")),
        .noNotifications: (N_("Alarms will not show notifications"),
                           N_("Start a notification server; ringing alarms are also shown here while the app is open.")),
    ]

    /// Which of the daemon's phrases (``Audibility/templates``) a warning is.
    public static func classify(_ warning: String) -> Problem {
        let templates: [(String, Problem)] = [
            (N_("the output \"%s\" is muted"), .outputMuted), (N_("the output \"%1$s\" is at %2$d %% volume"), .outputMuted),
            (N_("the sound server has no output to play on"), .noSoundServer),
            (N_("the output's volume and mute cannot be checked (%s)"), .noSoundServer),
            (N_("nothing can play its sound (%s, and no sound player is installed)"), .noSoundServer),
            (N_("the machine will not wake from suspend for it (%s)"), .noWakeUp),
            (N_("no notification will show (%s)"), .noNotifications),
        ]
        for (template, problem) in templates where template == warning || MessageFormat.match(warning, template: template) != nil {
            return problem
        }
        return .other
    }

    private static func rank(_ problem: Problem) -> Int {
        switch problem {
        case .unreachable: return 0
        case .outputMuted: return 1
        case .noSoundServer: return 2
        case .noWakeUp: return 3
        case .noNotifications: return 4
        case .other: return 5
        }
    }
}

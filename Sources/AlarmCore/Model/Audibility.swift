// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// What alarmd found out about whether a ringing alarm will be heard and
/// seen: the sound server and the output its stream would go to, the sound
/// files, the notification server, the wake-up from suspend. The daemon
/// gathers it (a probe on the output worker); ``Audibility`` words it.
public struct AudibilityReport: Hashable, Sendable {
    /// The output (the server's default sink) a stream would play on.
    public struct Output: Hashable, Sendable {
        /// As a desktop mixer names it: `Built-in Audio Analog Stereo`.
        public var name: String
        public var muted: Bool
        /// The loudest channel, in percent of the server's normal volume.
        public var volume: Int

        public init(name: String, muted: Bool, volume: Int) {
            self.name = name
            self.muted = muted
            self.volume = volume
        }
    }

    /// Why no sound server could be asked; `nil` when one answered.
    public var serverProblem: String?
    /// The output, when the server named one; `nil` with a server means it has none.
    public var output: Output?
    /// Whether an external player is there to fall back on.
    public var hasPlayer: Bool
    /// Why notifications cannot be shown; `nil` when a server answered.
    public var notificationProblem: String?
    /// Why the machine will not wake from suspend for an alarm; `nil` when it
    /// will, or when waking was switched off on purpose.
    public var wakeProblem: String?
    /// Why a sound cannot be played, by its stored form (`alarm-clock-elapsed`,
    /// a path); sounds that play are absent.
    public var soundProblems: [String: String]

    public init(serverProblem: String? = nil, output: Output? = nil, hasPlayer: Bool = true, notificationProblem: String? = nil,
                wakeProblem: String? = nil, soundProblems: [String: String] = [:]) {
        self.serverProblem = serverProblem
        self.output = output
        self.hasPlayer = hasPlayer
        self.notificationProblem = notificationProblem
        self.wakeProblem = wakeProblem
        self.soundProblems = soundProblems
    }
}

/// The reasons an alarm may not be heard, one phrase each, to follow "may
/// not be heard: " (`the output "Speakers" is muted`). Pure. In English for
/// the wire and the journal; in the session's language for a notification.
/// The problems inside the parentheses are the system's own words.
public enum Audibility {
    /// Below this output volume (percent) an alarm is taken to be too quiet
    /// to wake anyone.
    public static let minimumVolume = 30

    // The phrases, as templates: the daemon fills them in English for the
    // wire and the journal (or in the session's language for a
    // notification); alarmctl matches the English it receives against them
    // to say it again in the reader's (`MessageFormat.match`).
    static let soundUnplayable = N_("its sound cannot be played (%s)")
    public static let noNotification = N_("no notification will show (%s)")
    public static let noWake = N_("the machine will not wake from suspend for it (%s)")
    static let uncheckable = N_("the output's volume and mute cannot be checked (%s)")
    static let nothingPlays = N_("nothing can play its sound (%s, and no sound player is installed)")
    static let noOutput = N_("the sound server has no output to play on")
    static let muted = N_("the output \"%s\" is muted")
    static let quiet = N_("the output \"%1$s\" is at %2$d %% volume")

    // A sound played once (`sounds --play`, `test`) that was not heard, as
    // the daemon says why in its reply.
    public static let playerUnstartable = N_("cannot start the sound player %1$s: %2$s")
    public static let playerExited = N_("the sound player %1$s exited with status %2$d")
    public static let playerKilled = N_("the sound player %1$s was killed by signal %2$d")
    public static let noPlayer = N_("no sound player found (tried %s); set Player= in alarmd.conf")

    /// Every phrase a warning, or a sound's "not heard", can be.
    public static let templates = [soundUnplayable, noNotification, noWake, uncheckable, nothingPlays, noOutput, muted, quiet,
                                   playerUnstartable, playerExited, playerKilled, noPlayer]

    // Why a check came to nothing, as the daemon words it inside a
    // warning's parentheses (a system's own message, strerror's or the
    // sound server's, is already in the daemon's language).
    public static let noSoundServer = N_("no sound server: %s")
    public static let noAnswer = N_("it did not answer within %d s")
    public static let noSessionBus = N_("no session bus")
    public static let noNotificationServer = N_("no notification server answers: %s")
    public static let noWakeMeans = N_("no means to wake it")

    /// Every phrase a reason can be.
    public static let reasons = [noSoundServer, noAnswer, noSessionBus, noNotificationServer, noWakeMeans]

    /// A warning the daemon wrote in English, in `l`'s language: the
    /// phrase and the reasons inside it (two deep, as in `… (no sound
    /// server: it did not answer within 5 s)`); text that is none of them
    /// stays as it came.
    public static func relocalized(_ english: String, in l: some Localization) -> String {
        func said(_ text: String, among phrases: [String], depth: Int) -> String {
            guard depth > 0 else { return text }
            for phrase in phrases {
                if let arguments = MessageFormat.match(text, template: phrase) {
                    return MessageFormat.fill(l.L(phrase), arguments.map { said($0, among: reasons, depth: depth - 1) })
                }
            }
            return text
        }
        return said(english, among: templates, depth: 3)
    }

    /// What holds for every alarm on this machine.
    public static func machineWarnings(_ report: AudibilityReport, in l: some Localization = .source) -> [String] {
        soundWarnings(report, l) + otherWarnings(report, l)
    }

    /// What holds for an alarm playing `sound`: the machine's problems (the
    /// sound ones only when it has a sound) and its own file's.
    public static func warnings(for sound: Sound, _ report: AudibilityReport, in l: some Localization = .source) -> [String] {
        var warnings: [String] = []
        if sound != .none {
            warnings = soundWarnings(report, l)
            if let problem = report.soundProblems[sound.description] { warnings.append(l.Lf(soundUnplayable, problem)) }
        }
        return warnings + otherWarnings(report, l)
    }

    private static func otherWarnings(_ report: AudibilityReport, _ l: some Localization) -> [String] {
        var warnings: [String] = []
        if let problem = report.notificationProblem { warnings.append(l.Lf(noNotification, problem)) }
        if let problem = report.wakeProblem { warnings.append(l.Lf(noWake, problem)) }
        return warnings
    }

    private static func soundWarnings(_ report: AudibilityReport, _ l: some Localization) -> [String] {
        if let problem = report.serverProblem {
            return report.hasPlayer ? [l.Lf(uncheckable, problem)] : [l.Lf(nothingPlays, problem)]
        }
        guard let output = report.output else { return [l.L(noOutput)] }
        if output.muted { return [l.Lf(muted, output.name)] }
        if output.volume < minimumVolume { return [l.Lf(quiet, output.name, output.volume)] }
        return []
    }
}

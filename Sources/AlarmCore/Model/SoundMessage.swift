// SPDX-License-Identifier: Apache-2.0

/// A line between alarmd and its sound process (`alarmd-sound`), which
/// decodes sound files and talks to the sound server so that alarmd maps
/// neither libpulse nor libsndfile and never parses a sound file itself.
///
/// One message a line, a keyword and its fields separated by one space; the
/// last field of a line may hold spaces (a reason, a name). Line breaks in a
/// field are sent as spaces. What does not parse is not a message (the
/// process's stderr shares the channel, and a library may write there).
public enum SoundMessage: Hashable, Sendable {
    /// alarmd → process: the stream to full volume at once.
    case escalate
    /// The stream is on the server; `seconds` of sound are looped (or played once).
    case playing(seconds: Double)
    /// The file does not decode; an external player may still read it.
    case cannotDecode(String)
    /// No sound server took the stream, or none could be reached.
    case noServer(String)
    /// The server ended a stream that was playing.
    case failed(String)
    /// The output a stream would play on; `nil` when the server has none.
    case output(AudibilityReport.Output?)
    /// The check of the `index`th file named: why it does not decode, or `nil`.
    case file(index: Int, problem: String?)

    /// The line, without its line break.
    public var line: String {
        switch self {
        case .escalate: "escalate"
        case .playing(let seconds): "playing \(seconds)"
        case .cannotDecode(let reason): "decode " + Self.field(reason)
        case .noServer(let reason): "server " + Self.field(reason)
        case .failed(let reason): "failed " + Self.field(reason)
        case .output(nil): "output none"
        case .output(let output?): "output \(output.volume) \(output.muted ? 1 : 0) " + Self.field(output.name)
        case .file(let index, nil): "file \(index) ok"
        case .file(let index, let problem?): "file \(index) " + Self.field(problem)
        }
    }

    /// The message on `line` (without its line break), or `nil`.
    public init?(line: Substring) {
        let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        let keyword = parts[0], rest = parts.count > 1 ? String(parts[1]) : ""
        switch keyword {
        case "escalate" where parts.count == 1: self = .escalate
        case "playing":
            guard let seconds = Double(rest), seconds.isFinite, seconds >= 0 else { return nil }
            self = .playing(seconds: seconds)
        case "decode" where !rest.isEmpty: self = .cannotDecode(rest)
        case "server" where !rest.isEmpty: self = .noServer(rest)
        case "failed" where !rest.isEmpty: self = .failed(rest)
        case "output":
            if rest == "none" { self = .output(nil); return }
            let fields = rest.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let volume = Int(fields[0]), (0...1000).contains(volume), fields[1] == "0" || fields[1] == "1" else { return nil }
            self = .output(.init(name: String(fields[2]), muted: fields[1] == "1", volume: volume))
        case "file":
            let fields = rest.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard fields.count == 2, let index = Int(fields[0]), index >= 0, !fields[1].isEmpty else { return nil }
            self = .file(index: index, problem: fields[1] == "ok" ? nil : String(fields[1]))
        default: return nil
        }
    }

    private static func field(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}

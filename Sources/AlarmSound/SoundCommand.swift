// SPDX-License-Identifier: Apache-2.0

/// What alarmd asks its sound process (`alarmd-sound`) to do, from the
/// process's arguments:
///
///     alarmd-sound play [--volume PERCENT] [--fade SECONDS] [--role ROLE] [--name NAME] [--once] [--] FILE
///     alarmd-sound check [--] [FILE…]
public enum SoundCommand: Hashable, Sendable {
    /// Loop `file` (or play it once) until the channel closes.
    case play(file: String, name: String, role: String, volume: Int, fade: Double, once: Bool)
    /// Say the output a stream would play on, and which `files` do not decode.
    case check(files: [String])

    public struct UsageError: Error, CustomStringConvertible {
        public let description: String
    }

    public static let usage = "usage: alarmd-sound play [--volume PERCENT] [--fade SECONDS] [--role alarm|event] [--name NAME] [--once] [--] FILE\n"
        + "       alarmd-sound check [--] [FILE...]"

    /// The command in `arguments` (without the program's name).
    public static func parse(_ arguments: [String]) throws(UsageError) -> SoundCommand {
        guard let verb = arguments.first else { throw UsageError(description: "a command is needed: play or check") }
        var rest = arguments.dropFirst()
        switch verb {
        case "check":
            if rest.first == "--" { rest = rest.dropFirst() }
            return .check(files: Array(rest))
        case "play":
            var name = "Alarm", role = "alarm", volume = 100, fade = 0.0, once = false, file: String?
            while let word = rest.popFirst() {
                func value() throws(UsageError) -> String {
                    guard let value = rest.popFirst() else { throw UsageError(description: "\(word) needs a value") }
                    return value
                }
                switch word {
                case "--volume":
                    let text = try value()
                    guard let number = Int(text), (0...100).contains(number) else { throw UsageError(description: "--volume takes 0 to 100, not \(text)") }
                    volume = number
                case "--fade":
                    let text = try value()
                    guard let number = Double(text), number.isFinite, (0...3600).contains(number) else {
                        throw UsageError(description: "--fade takes 0 to 3600 seconds, not \(text)")
                    }
                    fade = number
                case "--role":
                    let text = try value()
                    guard ["alarm", "event"].contains(text) else { throw UsageError(description: "--role takes alarm or event, not \(text)") }
                    role = text
                case "--name": name = try value()
                case "--once": once = true
                case "--":
                    guard file == nil, let only = rest.popFirst(), rest.isEmpty else { throw UsageError(description: "one file after --") }
                    file = only
                case _ where word.hasPrefix("-") && word.count > 1: throw UsageError(description: "unknown option \(word)")
                default:
                    guard file == nil else { throw UsageError(description: "one file only, not \(word) as well") }
                    file = word
                }
            }
            guard let file else { throw UsageError(description: "play needs a file") }
            return .play(file: file, name: name, role: role, volume: volume, fade: fade, once: once)
        default:
            throw UsageError(description: "unknown command \(verb): play or check")
        }
    }
}

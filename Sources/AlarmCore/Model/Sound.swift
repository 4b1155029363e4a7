// SPDX-License-Identifier: Apache-2.0
/// What an item plays while it rings.
public enum Sound: Hashable, Sendable, CustomStringConvertible {
    /// A freedesktop sound-theme name such as `alarm-clock-elapsed`.
    case themed(String)
    /// An absolute path to a sound file.
    case file(String)
    /// Silence: the item rings by notification and journal only.
    case none

    public static let defaultAlarm = Sound.themed("alarm-clock-elapsed")
    public static let defaultReminder = Sound.themed("message-new-instant")
    /// The most of a sound file that is played, in seconds: alarm sounds
    /// are seconds long, and this bounds a mistaken choice (a whole album).
    public static let longestPlay = 60

    /// The stored and wire form: the theme name, the path, or `none`.
    public var description: String {
        switch self {
        case .themed(let name): return name
        case .file(let path): return path
        case .none: return "none"
        }
    }

    /// Parses the stored form. Theme names are limited to letters, digits, `.`, `_`
    /// and `-` and may not start with `-` or `.`, so a sound name can never be read
    /// as an option or a relative path by a player; files must be absolute paths.
    public static func parse(_ text: String, field: String = "sound") throws(ValidationError) -> Sound {
        if text == "none" { return .none }
        let sound: Sound = text.hasPrefix("/") ? .file(text) : .themed(text)
        try sound.validate(field: field)
        return sound
    }

    /// Checks the rules ``parse(_:field:)`` applies, for a value built by hand.
    public func validate(field: String = "sound") throws(ValidationError) {
        switch self {
        case .none:
            return
        case .file(let path):
            guard path.hasPrefix("/") else { throw .text(field, N_("must be an absolute file path"), got: path) }
            guard path.utf8.count <= 4096, !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\0" }) else {
                throw .text(field, N_("must be a file path without control characters"), got: path)
            }
        case .themed(let name):
            let allowed = name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
            // "none" as a theme name would read back as silence.
            guard !name.isEmpty, name.utf8.count <= 128, allowed, name.first != "-", name.first != ".", name != "none" else {
                throw .text(field, N_("must be a sound-theme name (letters, digits, . _ -), an absolute file path, or none"), got: name)
            }
        }
    }
}

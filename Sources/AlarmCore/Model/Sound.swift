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
        if text.hasPrefix("/") {
            guard text.utf8.count <= 4096, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\0" }) else {
                throw .text(field, "must be a file path without control characters", got: text)
            }
            return .file(text)
        }
        let allowed = text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }
        guard !text.isEmpty, text.utf8.count <= 128, allowed, text.first != "-", text.first != "." else {
            throw .text(field, "must be a sound-theme name (letters, digits, . _ -), an absolute file path, or none", got: text)
        }
        return .themed(text)
    }
}

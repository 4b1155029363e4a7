// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmStore
import FoundationEssentials
import Glibc

/// Finds sound files per the XDG Sound Theme specification: `sounds/<theme>/`
/// under `$XDG_DATA_HOME` and each of `$XDG_DATA_DIRS`, the `stereo` subdirectory,
/// `.oga`, `.ogg` or `.wav`; the configured theme first, then `freedesktop`.
public struct SoundTheme: Sendable {
    public static let extensions = ["oga", "ogg", "wav"]

    public let theme: String
    public let dataDirectories: [String]

    public init(theme: String, environment: [String: String]) {
        self.theme = theme
        let paths = XDGPaths(environment: environment, userID: getuid(), accountHome: Account.homeDirectory)
        dataDirectories = [paths.dataHome] + paths.dataDirectories
    }

    /// Themes in search order.
    var themes: [String] { theme == "freedesktop" ? ["freedesktop"] : [theme, "freedesktop"] }

    /// The file for a sound name, or `nil` when no theme has it.
    public func resolve(_ name: String) -> String? {
        for theme in themes {
            for directory in dataDirectories {
                for ext in Self.extensions {
                    let path = "\(directory)/sounds/\(theme)/stereo/\(name).\(ext)"
                    if FileManager.default.isReadableFile(atPath: path) { return path }
                }
            }
        }
        return nil
    }

    /// Why a sound has no file to play.
    public struct Missing: Error, CustomStringConvertible {
        public let description: String
        /// A theme name no theme has (rather than a file that is not there).
        public let themed: Bool
    }

    /// The file `sound` plays, `nil` for silence: the one lookup for ringing,
    /// the audibility check and anything else that plays an item's sound.
    public func file(for sound: Sound) throws(Missing) -> String? {
        switch sound {
        case .none:
            return nil
        case .file(let path):
            guard DesktopRinger.isPlayableFile(path) else { throw Missing(description: "sound file \(path) is not a readable regular file", themed: false) }
            return path
        case .themed(let name):
            guard let path = resolve(name) else {
                throw Missing(description: "no sound named \(name) in the \(themes.joined(separator: " or ")) theme", themed: true)
            }
            return path
        }
    }

    /// Every sound name available, each with the file that would play.
    public func available() -> [Wire.SoundFile] {
        var seen: Set<String> = []
        var result: [Wire.SoundFile] = []
        for theme in themes {
            for directory in dataDirectories {
                let stereo = "\(directory)/sounds/\(theme)/stereo"
                guard let files = try? FileManager.default.contentsOfDirectory(atPath: stereo) else { continue }
                for file in files.sorted() {
                    let url = URL(fileURLWithPath: file)
                    guard Self.extensions.contains(url.pathExtension) else { continue }
                    let name = url.deletingPathExtension().lastPathComponent
                    if seen.insert(name).inserted {
                        result.append(Wire.SoundFile(name: name, theme: theme, path: "\(stereo)/\(file)"))
                    }
                }
            }
        }
        return result.sorted { $0.name < $1.name }
    }
}

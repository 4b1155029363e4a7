// SPDX-License-Identifier: Apache-2.0
/// A sound the daemon can play, as the theme finds it and `ListSounds` reports it.
public struct SoundFile: Sendable, Equatable {
    public let name: String
    public let theme: String
    public let path: String

    public init(name: String, theme: String, path: String) {
        self.name = name
        self.theme = theme
        self.path = path
    }
}

// SPDX-License-Identifier: Apache-2.0
/// Whether the app reaches alarmd, as the status banner needs to know.
public enum Reachability: Equatable, Sendable {
    case connected
    /// Not reachable at `path`: not running, or no socket.
    case unreachable(path: String)
}

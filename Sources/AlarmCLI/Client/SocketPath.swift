// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmViewModels

/// Where alarmd's control socket is, by the same rule the daemon uses to
/// create it.
enum SocketPath {
    /// `--socket PATH`, else `ALARMD_SOCKET`, else `$XDG_RUNTIME_DIR/alarmd/io.alarmd`,
    /// else `/run/user/UID/alarmd/io.alarmd` (``XDGPaths/controlSocket``).
    static func resolve(option: String?, environment: [String: String], userID: UInt32) -> String {
        DaemonSocket.path(option: option, environment: environment, userID: userID)
    }
}

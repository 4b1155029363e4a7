// SPDX-License-Identifier: Apache-2.0
import AlarmCore

/// Where alarmd's control socket is, by the rule the daemon creates it by
/// (``XDGPaths/controlSocket``): `ALARMD_SOCKET`, else
/// `$XDG_RUNTIME_DIR/alarmd/io.alarmd`, else `/run/user/UID/alarmd/io.alarmd`.
public enum DaemonSocket {
    /// The path for this environment and user; `option` (a command line's
    /// `--socket`) wins when given and not empty.
    public static func path(option: String? = nil, environment: [String: String], userID: UInt32) -> String {
        if let option, !option.isEmpty { return option }
        return XDGPaths(environment: environment, userID: userID).controlSocket
    }
}

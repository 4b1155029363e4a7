// SPDX-License-Identifier: Apache-2.0
/// The XDG base directories, and alarmd's places in them, as one set of rules
/// for the daemon, the store and alarmctl, so that they always agree.
///
/// A pure function of the environment it is given: the caller reads the
/// process's environment, its user id and, only when `HOME` is unset or empty,
/// the account's home directory (`accountHome`), which is why this can live in
/// AlarmCore. As the XDG Base Directory Specification asks, a relative value
/// (of a variable or of a list entry) is ignored and the default used instead.
public struct XDGPaths: Sendable {
    public let environment: [String: String]
    public let userID: UInt32
    private let accountHome: @Sendable () -> String

    public init(environment: [String: String], userID: UInt32, accountHome: @escaping @Sendable () -> String = { "/" }) {
        self.environment = environment
        self.userID = userID
        self.accountHome = accountHome
    }

    /// `HOME`, else the account's home directory.
    public var home: String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return accountHome()
    }

    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    public var stateHome: String { directory("XDG_STATE_HOME") ?? home + "/.local/state" }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public var configHome: String { directory("XDG_CONFIG_HOME") ?? home + "/.config" }

    /// `$XDG_CONFIG_DIRS`, else `/etc/xdg`.
    public var configDirectories: [String] { directories("XDG_CONFIG_DIRS") ?? ["/etc/xdg"] }

    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public var dataHome: String { directory("XDG_DATA_HOME") ?? home + "/.local/share" }

    /// `$XDG_DATA_DIRS`, else `/usr/local/share:/usr/share`.
    public var dataDirectories: [String] { directories("XDG_DATA_DIRS") ?? ["/usr/local/share", "/usr/share"] }

    /// `$XDG_RUNTIME_DIR`, else `/run/user/UID`: where systemd puts it when the
    /// variable is missing, as under `sudo -u` or cron.
    public var runtimeDirectory: String { directory("XDG_RUNTIME_DIR") ?? "/run/user/\(userID)" }

    private func directory(_ name: String) -> String? {
        environment[name].flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    /// The absolute entries of a colon-separated list; `nil` when it is unset or has none.
    private func directories(_ name: String) -> [String]? {
        let entries = (environment[name] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return entries.isEmpty ? nil : entries
    }
}

extension XDGPaths {
    /// The control socket: `ALARMD_SOCKET`, else `$XDG_RUNTIME_DIR/alarmd/io.alarmd`.
    public var controlSocket: String {
        if let path = environment["ALARMD_SOCKET"], !path.isEmpty { return path }
        return runtimeDirectory + "/alarmd/io.alarmd"
    }

    /// The directory holding the database: `$XDG_STATE_HOME/alarmd`.
    public var stateDirectory: String { stateHome + "/alarmd" }

    /// The configuration files to try, in order: the user's, then each system directory's.
    public var configCandidates: [String] {
        ([configHome] + configDirectories).map { $0 + "/alarmd/alarmd.conf" }
    }
}

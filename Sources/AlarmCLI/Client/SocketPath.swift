/// Where alarmd's control socket is, by the same rule the daemon uses to
/// create it.
enum SocketPath {
    /// `--socket PATH`, else `ALARMD_SOCKET`, else `$XDG_RUNTIME_DIR/alarmd/io.alarmd`,
    /// else `/run/user/UID/alarmd/io.alarmd` (where systemd puts the runtime
    /// directory when the variable is missing, as under `sudo -u` or cron).
    static func resolve(option: String?, environment: [String: String], userID: UInt32) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment["ALARMD_SOCKET"], !path.isEmpty { return path }
        // A relative XDG_RUNTIME_DIR is ignored, as alarmd ignores it.
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/run/user/\(userID)"
        return runtime + "/alarmd/io.alarmd"
    }
}

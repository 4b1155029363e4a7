// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import FoundationEssentials
import Glibc

/// CalDAV sync as the daemon starts it: the password read safely, then the
/// supervisor of `alarmd-sync`, the process that talks to the server.
extension Daemon {
    /// The sync supervisor for `[Sync]`, or `nil` and why, when configured
    /// (the password cannot be read safely, or `alarmd-sync` is missing;
    /// the journal says so too).
    func makeSyncSupervisor() -> (SyncSupervisor?, String?) {
        let settings = owned.config.sync
        guard settings.isEnabled else { return (nil, nil) }
        let password: String
        switch Self.syncPassword(settings, environment: environment) {
        case .success(let found): password = found
        case .failure(let reason):
            journal.send("Sync: \(reason.description); not syncing", priority: .error, messageID: MessageID.syncFailed)
            return (nil, reason.description)
        }
        guard let program = SyncSupervisor.findProgram() else {
            let reason = "its program alarmd-sync is not installed beside alarmd or in ../libexec"
            journal.send("Sync: \(reason); not syncing", priority: .error, messageID: MessageID.syncFailed)
            return (nil, reason)
        }
        let configuration = configuration
        let supervisor = SyncSupervisor(start: SyncStart(settings: settings, password: password, stateDirectory: options.stateDirectory), program: program,
                                        environment: environment, owner: owner, scheduler: scheduler, journal: journal,
                                        allDayAt: { configuration.value.allDayAt })
        return (supervisor, nil)
    }

    struct PasswordProblem: Error, CustomStringConvertible { let description: String }

    /// `[Sync] PasswordFile=` (a regular file of the user's own that no one
    /// else may read), else systemd's credential `alarmd-sync`; the first line.
    /// Errors name the file, never its content.
    static func syncPassword(_ settings: DaemonConfig.SyncSettings, environment: [String: String]) -> Result<String, PasswordProblem> {
        var path = settings.passwordFile
        if path.hasPrefix("~/") { path = (environment["HOME"] ?? "") + path.dropFirst(1) }
        if path.isEmpty {
            guard let credentials = environment["CREDENTIALS_DIRECTORY"], !credentials.isEmpty else {
                return .failure(PasswordProblem(description: "no password: set [Sync] PasswordFile=, or give the service the credential alarmd-sync (LoadCredential=)"))
            }
            path = credentials + "/alarmd-sync"
        } else {
            var status = stat()
            guard stat(path, &status) == 0 else { return .failure(PasswordProblem(description: "cannot read PasswordFile \(path): \(String(cString: strerror(errno)))")) }
            guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == getuid(), status.st_mode & 0o077 == 0 else {
                return .failure(PasswordProblem(description: "PasswordFile \(path) must be a file of your own that only you can read (chmod 600); it is refused"))
            }
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            return .failure(PasswordProblem(description: "cannot read the password from \(path)"))
        }
        let password = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard !password.isEmpty else { return .failure(PasswordProblem(description: "the password in \(path) is empty")) }
        return .success(password)
    }
}

// SPDX-License-Identifier: Apache-2.0
import AlarmCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the database lives and how its directory and file come into being.
///
/// The store holds a person's schedule and notes, so the directory is created 0700 and
/// the file 0600. The file is created here, before SQLite sees it, because SQLite
/// would create it with the process umask (typically 0644). SQLite gives the `-wal`
/// and `-shm` files the database file's permissions, so they are 0600 too.
enum StoreFiles {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// `$XDG_STATE_HOME/alarmd/alarmd.sqlite3`, else `$HOME/.local/state/alarmd/alarmd.sqlite3`.
    ///
    /// The XDG base-directory specification says to ignore a relative
    /// `XDG_STATE_HOME`. Without `HOME` the password database's home directory is used.
    static func defaultPath(environment: [String: String]) -> String {
        XDGPaths(environment: environment, userID: getuid(), accountHome: Account.homeDirectory).stateDirectory + "/alarmd.sqlite3"
    }

    /// Creates the missing directories on the way to `path` (each 0700) and, if there
    /// is no file at `path`, an empty one with mode 0600, which SQLite then treats as a
    /// new database. An existing file is not touched, not even its permissions.
    static func prepare(path: String) throws(StoreError) {
        try createDirectories(for: path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, fileMode)
        if descriptor < 0 {
            let error = errno
            // An existing file is the usual case; SQLite reports anything wrong with it.
            guard error == EEXIST else { throw failure(path, "cannot create the file", error) }
            return
        }
        defer { close(descriptor) }
        // open(2) applies the umask; a restrictive umask is fine, but make the mode exact.
        if fchmod(descriptor, fileMode) != 0 { throw failure(path, "cannot set the file's mode to 0600", errno) }
    }

    private static func createDirectories(for path: String) throws(StoreError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let directory = String(path[..<slash])
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            var status = stat()
            if stat(prefix, &status) == 0 { continue }
            if mkdir(prefix, directoryMode) != 0 {
                let error = errno
                // Another process may have created it between the two calls.
                guard error == EEXIST else { throw failure(path, "cannot create directory \(prefix)", error) }
                continue
            }
            // mkdir(2) applies the umask; make the mode exact.
            if chmod(prefix, directoryMode) != 0 {
                throw failure(path, "cannot set the mode of directory \(prefix) to 0700", errno)
            }
        }
    }

    private static func failure(_ path: String, _ what: String, _ error: Int32) -> StoreError {
        .cannotOpen(path: path, detail: "\(what): \(String(cString: strerror(error)))")
    }
}

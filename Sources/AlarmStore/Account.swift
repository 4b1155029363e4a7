// SPDX-License-Identifier: Apache-2.0
import Glibc

/// The user the process runs as, from the password database.
public enum Account {
    /// The home directory the password database gives, `/` without one:
    /// where the XDG directories are when `HOME` is not set.
    public static func homeDirectory() -> String {
        if let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            return String(cString: directory)
        }
        return "/"
    }
}

// SPDX-License-Identifier: Apache-2.0
import Glibc

/// Reads and writes the files `export` and `import` name, with the system's
/// own reason when that fails.
enum FileIO {
    static func read(_ path: String) throws(CLIError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .file(Lf("cannot read %1$s: %2$s", path, reason(errno))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .file(Lf("cannot read %1$s: %2$s", path, reason(errno)))
            }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    /// Writes `text` to `path`, readable by the owner only: an export holds
    /// everything a person set themselves reminders about.
    static func write(_ text: String, to path: String) throws(CLIError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .file(Lf("cannot write %1$s: %2$s", path, reason(errno))) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let said = reason(errno)
                close(fd)
                throw .file(Lf("cannot write %1$s: %2$s", path, said))
            }
            offset += written
        }
        guard close(fd) == 0 else { throw .file(Lf("cannot write %1$s: %2$s", path, reason(errno))) }
    }

    /// The system's words for `code` in the reader's language (glibc's own
    /// catalog) and character set, read from the environment only when a
    /// file has failed: alarmctl leaves the process locale alone, so
    /// `strerror` alone says them in English.
    private static func reason(_ code: Int32) -> String {
        guard let locale = newlocale(LC_MESSAGES_MASK | LC_CTYPE_MASK, "", nil) else { return String(cString: strerror(code)) }
        defer { freelocale(locale) }
        return String(cString: strerror_l(code, locale))
    }
}

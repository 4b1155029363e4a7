// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import CLinux
import FoundationEssentials
import Glibc
import SystemCalls

/// The listening control socket: the one systemd passed (socket activation,
/// ``StreamSocket/inherited()``), or one bound here with the directory 0700
/// and the socket 0600.
public enum UnixSocket {
    /// Binds and listens at `path`. A socket file left by a crashed daemon is
    /// replaced; one that a running daemon still answers on is an error, so
    /// two daemons never share a store. Anything else at `path` (a regular
    /// file, a directory, a link, a FIFO) is an error and left alone: a
    /// mistyped `--socket` must never cost the user a file.
    public static func listen(at path: String) throws(SystemError) -> Int32 {
        let directory = PathText.directory(path)
        try makeDirectory(directory)
        try removeStaleSocket(at: path)
        let fd = try systemCall("socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0) }
        let address: UnixSocketAddress
        do throws(UnixSocketAddress.Failure) { address = try UnixSocketAddress(path) } catch {
            close(fd)
            throw SystemError(error.operation, code: error.code)
        }
        // umask makes the socket 0600 from the moment it exists, with no window
        // in which another user could connect.
        let previous = umask(0o177)
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        let bindErrno = errno
        umask(previous)
        guard bound == 0 else {
            close(fd)
            throw SystemError("bind \(path)", code: bindErrno)
        }
        do {
            try systemCall("listen \(path)") { Glibc.listen(fd, 128) }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Makes room at `path` for a new socket: nothing there is fine, a
    /// socket nobody listens on is removed, anything else is refused.
    /// `lstat`, so a symbolic link is judged itself, never what it points to.
    static func removeStaleSocket(at path: String) throws(SystemError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw SystemError("bind \(path): cannot tell what is there", code: errno)
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw SystemError("bind \(path): \(fileKind(status.st_mode)) is there, not a socket; refusing to replace it", code: EEXIST)
        }
        if let probe = try? connect(to: path) {
            close(probe)
            throw SystemError("bind \(path): another alarmd is already listening there", code: EADDRINUSE)
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw SystemError("bind \(path): cannot remove the stale socket", code: errno)
        }
    }

    /// What a file of `mode` is, for messages.
    private static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "a file"
        }
    }

    /// Connects to `path` (blocking), for probing and for clients.
    public static func connect(to path: String) throws(SystemError) -> Int32 {
        do throws(UnixSocketAddress.Failure) { return try UnixSocketAddress(path).connect() } catch {
            throw SystemError(error.operation, code: error.code)
        }
    }

    /// Creates `directory` (and parents) as 0700 if missing; an existing one
    /// owned by someone else is refused.
    static func makeDirectory(_ directory: String) throws(SystemError) {
        var status = stat()
        if stat(directory, &status) == 0 {
            guard status.st_uid == getuid() else { throw SystemError("\(directory) belongs to uid \(status.st_uid)", code: EPERM) }
            return
        }
        let parent = PathText.directory(directory)
        if parent != directory, !parent.isEmpty { try makeDirectory(parent) }
        try systemCall("mkdir \(directory)") { mkdir(directory, 0o700) }
    }

    /// Best effort: one Varlink error to a connection that is not taken
    /// (too many clients, an unknown peer), then close it.
    static func refuse(_ fd: Int32, with error: VarlinkError) {
        StreamSocket.sendAndClose(fd, VarlinkFramer.frame(VarlinkReply.error(error).json))
    }
}

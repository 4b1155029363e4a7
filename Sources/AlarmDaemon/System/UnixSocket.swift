// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import CLinux
import CSystemd
import FoundationEssentials
import Glibc

/// The listening control socket: the one systemd passed (socket activation),
/// or one bound here with the directory 0700 and the socket 0600.
public enum UnixSocket {
    /// The fd systemd passed for `alarmd.socket`, if any (`sd_listen_fds`).
    public static func inherited() -> Int32? {
        let count = sd_listen_fds(1)
        guard count >= 1 else { return nil }
        let fd = alarmd_listen_fds_start()
        guard sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else { return nil }
        return fd
    }

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

    /// The connecting process's credentials (`SO_PEERCRED`).
    public static func peerCredentials(_ fd: Int32) -> PeerCredentials? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }, which Glibc's
        // module hides behind _GNU_SOURCE.
        var raw: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: raw))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &raw, &length) == 0 else { return nil }
        return PeerCredentials(pid: raw.0, uid: raw.1, gid: raw.2)
    }

    /// A connected pair of stream sockets, both close-on-exec: the daemon's
    /// stand-in for a pipe (Swift's Glibc has no pipe2, and a descriptor that
    /// is not close-on-exec from the start leaks into children spawned meanwhile).
    static func pair() throws(SystemError) -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        _ = try systemCall("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) }
        return (ends[0], ends[1])
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Best effort: one Varlink error to a connection that is not taken
    /// (too many clients, an unknown peer), then close it.
    static func refuse(_ fd: Int32, with error: VarlinkError) {
        let bytes = VarlinkFramer.frame(VarlinkReply.error(error).json)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        close(fd)
    }

    /// Accepts one connection, non-blocking and close-on-exec in the same
    /// call (see `alarmd_accept4`). `nil` when none is waiting.
    public static func acceptConnection(_ listener: Int32) -> Int32? {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        while true {
            let fd = alarmd_accept4(listener, flags)
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            return nil
        }
    }
}

/// Who is on the other end of a Unix socket.
public struct PeerCredentials: Sendable {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32
}

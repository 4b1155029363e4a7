// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// The Unix stream-socket calls alarmd and alarmd-wake both make: the
/// listener systemd passes, accepting, the peer's credentials, a pair for a
/// pipe, and one last message before closing.
public enum StreamSocket {
    /// The listening socket systemd passed, if it is a listening Unix
    /// stream socket: socket activation's protocol, as `sd_listen_fds` reads
    /// it (`LISTEN_PID` this process, `LISTEN_FDS` descriptors from 3). The
    /// variables are unset, so that no child takes them for its own, and
    /// every descriptor passed is made close-on-exec.
    public static func inherited() -> Int32? {
        let pid = getenv("LISTEN_PID").flatMap { Int32(String(cString: $0)) }
        let count = getenv("LISTEN_FDS").flatMap { Int32(String(cString: $0)) }
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        guard pid == getpid(), let count, count >= 1, count < 4096 else { return nil }
        let first: Int32 = 3
        for fd in first..<first + count { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        guard option(first, SO_TYPE) == Int32(SOCK_STREAM.rawValue), option(first, SO_ACCEPTCONN) == 1 else { return nil }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(first, $0, &length) }
        }
        guard named == 0, address.ss_family == sa_family_t(AF_UNIX) else { return nil }
        return first
    }

    /// An integer socket option, `nil` when it cannot be read.
    private static func option(_ fd: Int32, _ name: Int32) -> Int32? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
    }

    /// Accepts one connection, non-blocking and close-on-exec in the same
    /// call (see `alarmd_accept4`). `nil` when none is waiting.
    public static func accept(_ listener: Int32) -> Int32? {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        while true {
            let fd = alarmd_accept4(listener, flags)
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            return nil
        }
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

    /// A connected pair of stream sockets, both close-on-exec: a pipe (Swift's
    /// Glibc has no pipe2, and a descriptor that is not close-on-exec from the
    /// start leaks into children spawned meanwhile).
    public static func pair() throws(SystemError) -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        _ = try systemCall("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) }
        return (ends[0], ends[1])
    }

    public static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Best effort: `bytes` (one framed error, say) to a connection that is
    /// not taken, without blocking or raising SIGPIPE, then close it.
    public static func sendAndClose(_ fd: Int32, _ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, alarmd_msg_nosignal() | alarmd_msg_dontwait()) }
        close(fd)
    }
}

/// Who is on the other end of a Unix socket.
public struct PeerCredentials: Sendable {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32
}

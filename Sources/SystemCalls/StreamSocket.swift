// SPDX-License-Identifier: Apache-2.0
import CLinux
// For MSG_NOSIGNAL and MSG_DONTWAIT, which Glibc's module leaves out and
// sd-daemon.h's <sys/socket.h> brings; and sd_listen_fds.
import CSystemd
import Glibc

/// The Unix stream-socket calls alarmd and alarmd-wake both make: the
/// listener systemd passes, accepting, the peer's credentials, a pair for a
/// pipe, and one last message before closing.
public enum StreamSocket {
    /// The listening socket systemd passed (`sd_listen_fds`), if it is a Unix stream socket.
    public static func inherited() -> Int32? {
        guard sd_listen_fds(1) >= 1 else { return nil }
        let fd = alarmd_listen_fds_start()
        guard sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else { return nil }
        return fd
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
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        close(fd)
    }
}

/// Who is on the other end of a Unix socket.
public struct PeerCredentials: Sendable {
    public let pid: Int32
    public let uid: UInt32
    public let gid: UInt32
}

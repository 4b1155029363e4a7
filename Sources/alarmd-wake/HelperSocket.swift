// SPDX-License-Identifier: Apache-2.0
import AlarmWake
import CLinux
// For MSG_NOSIGNAL and MSG_DONTWAIT, which Glibc's module leaves out and sd-daemon.h's <sys/socket.h> brings.
import CSystemd
import Glibc
import VarlinkCore

/// The socket calls the helper makes: the listener systemd passes, accepting,
/// the peer's uid, and refusing a connection with one error.
enum HelperSocket {
    /// The listening socket systemd passed (`sd_listen_fds`), if it is a Unix stream socket.
    static func inherited() -> Int32? {
        guard sd_listen_fds(1) >= 1 else { return nil }
        let fd = alarmd_listen_fds_start()
        guard sd_is_socket_unix(fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else { return nil }
        return fd
    }

    /// Accepts one connection, non-blocking and close-on-exec from the
    /// start. `nil` when none is waiting.
    static func accept(_ listener: Int32) -> Int32? {
        let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        while true {
            let fd = alarmd_accept4(listener, flags)
            if fd >= 0 { return fd }
            if errno == EINTR { continue }
            return nil
        }
    }

    /// The connecting process's uid (`SO_PEERCRED`).
    static func peerUID(_ fd: Int32) -> UInt32? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }, which Glibc's
        // module hides behind _GNU_SOURCE.
        var raw: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: raw))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &raw, &length) == 0 else { return nil }
        return raw.1
    }

    /// A connected pair of close-on-exec stream sockets (a pipe, for the signals).
    static func pair() throws(SystemError) -> (Int32, Int32) {
        var ends: [Int32] = [0, 0]
        _ = try systemCall("socketpair") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) }
        return (ends[0], ends[1])
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Best effort: one Varlink error to a connection that is not taken, then close it.
    static func refuse(_ fd: Int32, with error: WakeError) {
        let bytes = VarlinkFramer.frame(VarlinkReply.error(error.varlinkError).json)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        close(fd)
    }
}

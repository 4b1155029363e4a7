// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// A Unix-domain socket address (`sockaddr_un`) for a datagram or a bus:
/// a file path, or a name in Linux's abstract namespace (`@name` in
/// `NOTIFY_SOCKET`, `unix:abstract=` in a D-Bus address).
public enum UnixAddress: Sendable, Equatable {
    case path(String)
    case abstract(String)

    /// Calls `body` with the address as connect(2) and sendto(2) take it;
    /// `ENAMETOOLONG` when it does not fit.
    public func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) throws(SystemError) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let (bytes, leadingNUL) = switch self {
        case .path(let path): (Array(path.utf8), 0)
        case .abstract(let name): (Array(name.utf8), 1)
        }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A path keeps a NUL after it; an abstract name is exactly its bytes after the leading NUL.
        guard !bytes.isEmpty, bytes.count < capacity else {
            throw SystemError("socket address \(self)", code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[leadingNUL + index] = byte }
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        let length = leadingNUL == 1 ? pathOffset + 1 + bytes.count : MemoryLayout<sockaddr_un>.size
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }
}

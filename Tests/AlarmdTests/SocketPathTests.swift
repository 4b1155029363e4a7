// SPDX-License-Identifier: Apache-2.0
import AlarmDaemon
import Foundation
import Glibc
import Testing

/// What the real daemon does with whatever is already at its socket path:
/// a socket nobody listens on is replaced; anything else is refused by name,
/// left as it was, and the daemon exits as for any start-up failure.
@Suite struct SocketPathTests {
    /// `alarmd --socket PATH` with `prepare` run on `PATH` first; its exit
    /// status and standard error.
    static func start(at name: String, _ prepare: (String) throws -> Void) throws -> (daemon: DaemonProcess, path: String, status: Int32?) {
        let directory = TemporaryDirectory()
        let path = directory.path + "/sockets/" + name
        try FileManager.default.createDirectory(atPath: directory.path + "/sockets", withIntermediateDirectories: true)
        chmod(directory.path + "/sockets", 0o700)
        try prepare(path)
        let daemon = DaemonProcess(directory: directory, arguments: ["--socket", path])
        return (daemon, path, try daemon.runToExit(timeout: 20))
    }

    @Test func aRegularFileAtTheSocketPathIsRefusedAndKept() throws {
        let contents = Data("the user's notes\n".utf8)
        let (daemon, path, status) = try Self.start(at: "notes.txt") { path in
            #expect(FileManager.default.createFile(atPath: path, contents: contents))
        }
        #expect(status == Daemon.ExitCode.osError, "exit \(String(describing: status)); stderr: \(daemon.standardError)")
        #expect(daemon.standardError.contains("bind \(path): a regular file is there, not a socket; refusing to replace it"), "\(daemon.standardError)")
        #expect(FileManager.default.contents(atPath: path) == contents, "the file was removed or changed")
    }

    @Test func aDirectoryOrALinkAtTheSocketPathIsRefusedAndKept() throws {
        let (first, directoryPath, directoryStatus) = try Self.start(at: "dir") { path in
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        #expect(directoryStatus == Daemon.ExitCode.osError, "exit \(String(describing: directoryStatus)); stderr: \(first.standardError)")
        #expect(first.standardError.contains("bind \(directoryPath): a directory is there, not a socket"), "\(first.standardError)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directoryPath, isDirectory: &isDirectory) && isDirectory.boolValue)

        // A link to a stale socket is still a link: neither it nor its target is touched.
        var target = ""
        let (second, linkPath, linkStatus) = try Self.start(at: "link") { path in
            target = path + ".target"
            try Self.staleSocket(at: target)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        }
        #expect(linkStatus == Daemon.ExitCode.osError, "exit \(String(describing: linkStatus)); stderr: \(second.standardError)")
        #expect(second.standardError.contains("bind \(linkPath): a symbolic link is there, not a socket"), "\(second.standardError)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: linkPath)) == target)
        var status = stat()
        #expect(lstat(target, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK, "the link's target was removed")
    }

    @Test func aStaleSocketIsReplaced() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/io.alarmd"
        try Self.staleSocket(at: path)
        let daemon = DaemonProcess(directory: directory, arguments: ["--socket", path])
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let reply = try RawSocket.call(path, #"{"method":"io.alarmd.Status"}"#)
        #expect(reply.parameters != nil, "\(reply.text)")
    }

    /// A socket file whose listener has gone (as a crashed daemon leaves one).
    static func staleSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard withUnixAddress(path, { bind(fd, $0, $1) }) == 0 else { throw HarnessError(description: "bind \(path): \(String(cString: strerror(errno)))") }
    }
}

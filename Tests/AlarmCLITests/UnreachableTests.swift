// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// Without a daemon: exit 69, the socket path tried, the reason, and a hint.
@Suite struct UnreachableTests {
    static let hint = "is alarmd running? try: systemctl --user start alarmd.socket\n"

    @Test(arguments: [["list"], ["status"], ["show", "abcd"], ["rm", "abcd", "ef01"], ["remind", "list"], ["watch"], ["export"], ["snooze"]])
    func aMissingSocketIsExit69WithAHint(arguments: [String]) throws {
        let result = try BinaryRunner.run("alarmctl", arguments + ["--socket", "/nonexistent/alarmd/io.alarmd"])
        #expect(result.status == 69)
        #expect(result.standardOutput == "")
        #expect(result.standardError == "alarmctl: cannot reach alarmd at /nonexistent/alarmd/io.alarmd: No such file or directory\n" + Self.hint)
    }

    @Test func aSocketNobodyListensOnIsConnectionRefused() throws {
        let fake = FakeDaemon(replies: [:])
        // A bound socket whose listener is gone: connect() is refused.
        let path = fake.directory + "/stale.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        let result = try BinaryRunner.run("alarmctl", ["--socket", path, "status"])
        #expect(result.status == 69)
        #expect(result.standardError == "alarmctl: cannot reach alarmd at \(path): Connection refused\n" + Self.hint)
    }

    @Test func theSocketPathFollowsTheEnvironment() throws {
        let fromVariable = try BinaryRunner.run("alarmctl", ["list"], environment: ["ALARMD_SOCKET": "/nonexistent/a.sock", "XDG_RUNTIME_DIR": "/nonexistent/rt"])
        #expect(fromVariable.standardError.hasPrefix("alarmctl: cannot reach alarmd at /nonexistent/a.sock: "))

        let fromRuntime = try BinaryRunner.run("alarmctl", ["list"], environment: ["XDG_RUNTIME_DIR": "/nonexistent/rt"])
        #expect(fromRuntime.standardError.hasPrefix("alarmctl: cannot reach alarmd at /nonexistent/rt/alarmd/io.alarmd: "))

        let fallback = try BinaryRunner.run("alarmctl", ["list"])
        #expect(fallback.standardError.hasPrefix("alarmctl: cannot reach alarmd at /run/user/\(getuid())/alarmd/io.alarmd: "))

        // --socket beats both, before or after the command name.
        let before = try BinaryRunner.run("alarmctl", ["--socket", "/nonexistent/b.sock", "list"], environment: ["ALARMD_SOCKET": "/nonexistent/a.sock"])
        #expect(before.standardError.hasPrefix("alarmctl: cannot reach alarmd at /nonexistent/b.sock: "))
        let after = try BinaryRunner.run("alarmctl", ["list", "--socket=/nonexistent/c.sock"], environment: ["ALARMD_SOCKET": "/nonexistent/a.sock"])
        #expect(after.standardError.hasPrefix("alarmctl: cannot reach alarmd at /nonexistent/c.sock: "))
        let betweenRemindAndItsCommand = try BinaryRunner.run("alarmctl", ["remind", "--socket", "/nonexistent/d.sock", "list"])
        #expect(betweenRemindAndItsCommand.standardError.hasPrefix("alarmctl: cannot reach alarmd at /nonexistent/d.sock: "))
    }

    @Test func previewNeedsNoDaemonEvenWithASocketGiven() throws {
        let result = try BinaryRunner.run("alarmctl", ["--socket", "/nonexistent/a.sock", "preview", "7:30", "--tz", "UTC", "--from", "2026-01-01T00:00:00Z", "--count", "1"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "2026-01-01 Thu 07:30 +00:00\n")
    }
}

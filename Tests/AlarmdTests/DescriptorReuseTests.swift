// SPDX-License-Identifier: Apache-2.0
@testable import AlarmDaemon
import Dispatch
import Foundation
import Glibc
import SystemCalls
import Testing

/// A watcher that goes leaves no entry for its descriptor in any epoll set.
///
/// An entry outlives a close while anything else still holds the file — a
/// child between fork and exec, here a `dup` — so a watcher must leave the
/// set before it closes: the kernel then keeps nothing pointing at a
/// registration that is gone, which in libdispatch's set made the test
/// process crash in `_dispatch_event_loop_drain`.
///
/// The entries are read from `/proc/self/fdinfo` of every epoll descriptor:
/// one for the watcher's descriptor number must be there while it watches
/// (so the check can see one), and none once it has gone.
@Suite struct DescriptorReuseTests {
    @Test func aZoneWatcherThatGoesLeavesNoEntryInAnEpollSet() throws {
        var conclusive = 0
        for _ in 0..<20 where conclusive < 5 {
            let directory = TemporaryDirectory()
            var status = stat()
            try #require(stat(directory.path, &status) == 0)
            let owner = try Owner(label: "test.zone-watcher")
            var watcher: TimeZoneWatcher? = try owner.sync { () throws(SystemError) in try TimeZoneWatcher(directory: directory.path, owner: owner) {} }
            let fd = try #require(Self.inotifyDescriptor(watching: UInt64(status.st_ino)))
            #expect(waitUntil(timeout: 2) { Self.epollEntries(for: fd) > 0 }, "the watcher's descriptor \(fd) never showed in an epoll set")
            // Something else holds the file, as a child between fork and exec does.
            let held = dup(fd)
            try #require(held >= 0)
            defer { close(held) }
            owner.sync { watcher = nil }
            _ = watcher
            #expect(waitUntil(timeout: 2) { Self.inotifyDescriptor(watching: UInt64(status.st_ino)) == held })
            // A number opened again meanwhile (by another test) may be watched
            // rightly: only a number still closed says anything.
            guard fcntl(fd, F_GETFD) < 0 else { continue }
            conclusive += 1
            #expect(Self.epollEntries(for: fd) == 0, "an epoll entry for the closed descriptor \(fd) was left behind")
        }
        #expect(conclusive > 0, "every round's descriptor number was taken again at once")
    }

    /// This process's inotify descriptor with a watch on the inode `inode`.
    private static func inotifyDescriptor(watching inode: UInt64) -> Int32? {
        let wanted = "ino:" + String(inode, radix: 16) + " "
        for fd in openDescriptors() where link(fd) == "anon_inode:inotify" {
            if let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8), info.contains(wanted) { return fd }
        }
        return nil
    }

    /// How many entries for descriptor number `fd` the process's epoll sets hold.
    private static func epollEntries(for fd: Int32) -> Int {
        var count = 0
        for epoll in openDescriptors() where link(epoll) == "anon_inode:[eventpoll]" {
            guard let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(epoll)", encoding: .utf8) else { continue }
            for line in info.split(separator: "\n") where line.hasPrefix("tfd:") {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                if fields.count > 1, Int32(fields[1]) == fd { count += 1 }
            }
        }
        return count
    }

    private static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    }

    private static func link(_ fd: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
    }
}

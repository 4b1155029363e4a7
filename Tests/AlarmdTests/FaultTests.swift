// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import AlarmProtocol
import AlarmStore
import AlarmTestSupport
import Foundation
import Glibc
import Testing

/// The real daemon under faults: stopped with SIGSTOP across several
/// occurrences, and a full disk.
@Suite(.serialized) struct FaultTests {
    /// Stopped (SIGSTOP) while five reminders fall due, then continued: each
    /// gets exactly one event — a late ring when it is within the missed-alarm
    /// grace, one `missed` when it is older — and nothing rings twice.
    @Test func aStoppedDaemonAppliesTheMissedRulesOnceItContinues() throws {
        let daemon = DaemonProcess(config: "[Alarms]\nMissedGrace=2s\n")
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        // Due at +1.0 … +3.0 s; stopped from +0.5 s to +5.0 s, so at +5 s they
        // are 4.0, 3.5, 3.0, 2.5 and 2.0 s late.
        let start = Date()
        var ids: [String] = []
        for (index, delay) in [1.0, 1.5, 2.0, 2.5, 3.0].enumerated() {
            let due = start.addingTimeInterval(delay)
            let reply = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.AddReminder","parameters":{"title":"R\#(index)","due":"\#(WireTime.string(due, in: Zone.utc))"}}"#)
            let id = try #require(reply.parameters?["reminder"]?.objectValue?["id"]?.stringValue, "\(reply.text)")
            ids.append(id)
        }
        let elapsed = Date().timeIntervalSince(start)
        try #require(elapsed < 0.5, "adding took \(elapsed) s; the schedule below assumes less")
        usleep(UInt32((0.5 - elapsed) * 1_000_000))
        kill(daemon.process.processIdentifier, SIGSTOP)
        usleep(4_500_000)
        kill(daemon.process.processIdentifier, SIGCONT)
        usleep(1_500_000)
        daemon.stop()

        try withStore(at: daemon.databasePath) { store throws in
            for (index, id) in ids.enumerated() {
                let uuid = try #require(UUID(uuidString: id))
                let events = try store.history(itemID: uuid).filter { $0.event != .changed }.map(\.event)
                // The last one is exactly at the grace limit (±scheduling slack).
                if index < 4 {
                    #expect(events == [.missed], "R\(index): \(events)")
                } else {
                    #expect(events == [.fired] || events == [.missed], "R\(index): \(events)")
                }
            }
        }
    }

    /// The store on a full file system: a change is refused with
    /// `io.alarmd.StoreFailure` and the plan in memory is unchanged; once there
    /// is room again, changes go through. Needs root (to mount a tmpfs).
    /// A store the daemon's user cannot read: it refuses to start, exit 78,
    /// with a message naming the file and why, and leaves the file as it was.
    /// Root reads any file, so the daemon runs as nobody here.
    @Test(.enabled(if: getuid() == 0, "running the daemon as another user needs root"))
    func anUnreadableStoreStopsStartUpAndIsLeftAlone() throws {
        let directory = TemporaryDirectory()
        let state = directory.path + "/state", runtime = directory.path + "/runtime", database = state + "/alarmd.sqlite3"
        // Only the store is out of reach: nobody may enter the directories and run the binary.
        #expect(chmod(directory.path, 0o711) == 0)
        for path in [state, runtime] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            #expect(chown(path, 65534, 65534) == 0 && chmod(path, 0o700) == 0)
        }
        try withStore(at: database) { store throws in
            try store.insert(Alarm(time: try TimeOfDay(hour: 7, minute: 30), label: "Kept", created: Date()))
        }
        let before = try #require(FileManager.default.contents(atPath: database))
        #expect(chmod(database, 0o600) == 0)
        let binary = directory.path + "/alarmd"
        try FileManager.default.copyItem(atPath: productsDirectory + "/alarmd", toPath: binary)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary, "--state-dir", state]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_RUNTIME_DIR": runtime, "TZ": "UTC"]
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        let errors = PipeCollector()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors.pipe
        try process.run()
        let finished = waitUntil(timeout: 20) { !process.isRunning }
        if !finished { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(finished, "alarmd kept running with a store it cannot read")
        #expect(process.terminationStatus == 78, "stderr: \(errors.text)")
        _ = waitUntil(timeout: 1) { !errors.text.isEmpty }
        #expect(errors.text.contains(database) && errors.text.contains("Permission denied"), "stderr: \(errors.text)")
        #expect(FileManager.default.contents(atPath: database) == before, "the store was changed")
        var info = stat()
        #expect(stat(database, &info) == 0 && info.st_uid == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aFullDiskRefusesChangesAndTheDaemonRecovers() throws {
        let directory = TemporaryDirectory()
        let state = directory.path + "/state"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let mount = Tool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", state])
        try #require(mount.status == 0, "mount: \(mount.standardError)")
        defer { _ = Tool.run("/bin/umount", ["-l", state]) }
        let daemon = DaemonProcess(directory: directory)
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let first = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:30","label":"Before"}}}"#)
        #expect(first.error == nil, "\(first.text)")

        // Fill what is left.
        let filler = state + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(fd >= 0)
        let block = [UInt8](repeating: 0xAB, count: 4096)
        while block.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        #expect(errno == ENOSPC)
        close(fd)

        for attempt in 0..<5 {
            let refused = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"08:0\#(attempt)","label":"Full \#(attempt)"}}}"#)
            #expect(refused.error?.name == "io.alarmd.StoreFailure", "\(refused.text)")
        }
        let list = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.ListAlarms"}"#)
        let labels = list.parameters?["alarms"]?.arrayValue?.compactMap { $0.objectValue?["label"]?.stringValue }
        #expect(labels == ["Before"], "the plan in memory is unchanged: \(list.text)")
        #expect(daemon.process.isRunning)

        unlink(filler)
        let after = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"09:00","label":"After"}}}"#)
        #expect(after.error == nil, "room again: \(after.text)")
        daemon.stop()
        try withStore(at: daemon.databasePath) { store throws in
            #expect(Set(try store.alarms().map(\.label)) == ["Before", "After"])
            #expect(try store.integrityCheck() == ["ok"])
        }
    }
}

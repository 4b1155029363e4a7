// SPDX-License-Identifier: Apache-2.0
import AlarmProtocol
import Foundation
import Glibc
import Testing

/// The checks that keep a client from pointing the daemon at things it should
/// not play or show (see docs/SECURITY.md).
@Suite struct SecurityTests {
    /// A sound file or a reminder image must be an absolute path to a readable
    /// regular file: not a directory, a device, a FIFO, a missing file or a
    /// relative path. Each refusal names the parameter and the path.
    @Test func soundAndImagePathsMustBeReadableRegularFiles() throws {
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let fifo = daemon.directory.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let unreadable = daemon.directory.path + "/unreadable.oga"
        #expect(FileManager.default.createFile(atPath: unreadable, contents: Data("x".utf8), attributes: [.posixPermissions: 0o000]))
        let good = daemon.directory.path + "/ring.oga"
        #expect(FileManager.default.createFile(atPath: good, contents: Data("x".utf8)))

        var refused = [daemon.directory.path, "/dev/null", fifo, daemon.directory.path + "/missing.oga"]
        // Root reads a mode-000 file anyway; only test it where that is refused.
        if getuid() != 0 { refused.append(unreadable) }
        for path in refused {
            let alarm = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:30","sound":"\#(path)"}}}"#)
            #expect(alarm.error?.name == "io.alarmd.InvalidParameter", "sound \(path): \(alarm.text)")
            #expect(alarm.error?.parameters["parameter"] == .string("fields.sound"), "\(alarm.text)")
            #expect(alarm.text.contains(path), "the refusal names the path: \(alarm.text)")
            let reminder = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.AddReminder","parameters":{"title":"Look","imagePath":"\#(path)"}}"#)
            #expect(reminder.error?.name == "io.alarmd.InvalidParameter", "image \(path): \(reminder.text)")
            #expect(reminder.error?.parameters["parameter"] == .string("imagePath"), "\(reminder.text)")
        }
        let relative = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.AddReminder","parameters":{"title":"Look","imagePath":"ring.oga"}}"#)
        #expect(relative.error?.name == "io.alarmd.InvalidParameter", "\(relative.text)")
        // Nothing refused was stored; a real file is accepted.
        #expect(try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.ListAlarms"}"#).parameters?["alarms"] == .array([]))
        let accepted = try RawSocket.call(daemon.socketPath, #"{"method":"io.alarmd.AddAlarm","parameters":{"fields":{"time":"07:30","sound":"\#(good)"}}}"#)
        #expect(accepted.error == nil, "\(accepted.text)")
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc

/// A private `dbus-daemon` on a socket in a test's own directory, with no
/// service directories: nothing is auto-started, so only the services a test
/// starts itself can answer.
final class PrivateBus {
    let path: String
    private let process = Process()
    private let errors = PipeCollector()

    var address: String { "unix:path=" + path }

    init(directory: String) throws {
        path = directory + "/bus"
        let config = directory + "/bus.conf"
        Self.writeConfiguration(to: config, address: address)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(config)", "--nofork", "--address=\(address)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors.pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard waitUntil(timeout: 10, { FileManager.default.fileExists(atPath: path) || !process.isRunning }), process.isRunning else {
            endProcess(process)
            throw HarnessError(description: "dbus-daemon did not start: \(errors.text)")
        }
    }

    deinit { endProcess(process) }

    /// A session bus configuration that lets everyone own any name and
    /// eavesdrop (for dbus-monitor).
    static func writeConfiguration(to file: String, address: String) {
        let text = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>\(address)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>

            """
        precondition(FileManager.default.createFile(atPath: file, contents: Data(text.utf8)))
    }
}

// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A python-dbusmock template (Debian's `python3-dbusmock`, run with
/// /usr/bin/python3) on a private bus of the test's own, and the script in
/// Tests/AlarmdTests/python that drives it and reads its call log.
final class DBusMock {
    enum Bus {
        case system, session
        var variable: String { self == .system ? "DBUS_SYSTEM_BUS_ADDRESS" : "DBUS_SESSION_BUS_ADDRESS" }
    }

    let bus: PrivateBus
    /// Kept for as long as the mock: the bus socket lives in it.
    let directory: TemporaryDirectory
    let output = PipeCollector()
    private let process = Process()
    private let script: String
    /// What a client (alarmd, the script) needs to reach the mock.
    let environment: [String: String]

    /// Starts `template` on `kind` and waits until `script ready` answers.
    init(directory: TemporaryDirectory, template: String, on kind: Bus, script: String, ready: [String]) throws {
        self.directory = directory
        bus = try PrivateBus(directory: directory.path)
        self.script = PythonClientTests.packageRoot + "/Tests/AlarmdTests/python/" + script
        environment = [kind.variable: bus.address]
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-m", "dbusmock", kind == .system ? "--system" : "--session", "--template", template]
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        process.standardOutput = output.pipe
        process.standardError = output.pipe
        try process.run()
        guard waitUntil(timeout: 20, { (try? self.run(ready)) != nil || !process.isRunning }), process.isRunning else {
            throw HarnessError(description: "python-dbusmock's \(template) did not start (make test-deps installs python3-dbusmock): \(output.text)")
        }
    }

    deinit { endProcess(process) }

    /// Runs the driving script with `arguments`; its standard output.
    func run(_ arguments: [String]) throws -> String {
        let result = Tool.run("/usr/bin/python3", [script] + arguments, environment: environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }, timeout: 10)
        guard result.status == 0 else { throw HarnessError(description: "\(script) \(arguments): \(result.standardError)") }
        return result.standardOutput
    }

    /// The script's output read as one JSON object a line.
    func objects(_ arguments: [String]) throws -> [[String: Any]] {
        try run(arguments).split(separator: "\n").compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

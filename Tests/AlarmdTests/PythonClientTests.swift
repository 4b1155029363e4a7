// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// alarmd's control socket through an independent Varlink implementation: the
/// Python `varlink` package from PyPI (`pip install varlink`).
@Suite struct PythonClientTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let script = packageRoot + "/Tests/AlarmdTests/python/varlink_client_check.py"

    /// Runs `arguments` to completion (bounded by `timeout`), returning the exit status and the combined output.
    static func run(_ executable: String, _ arguments: [String], timeout: TimeInterval) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = PipeCollector()
        process.standardOutput = output.pipe
        process.standardError = output.pipe
        try process.run()
        if !waitUntil(timeout: timeout, { !process.isRunning }) {
            process.terminate()
            process.waitUntilExit()
            return (-1, output.text + "\n[killed after \(timeout) s]")
        }
        process.waitUntilExit()
        // Let the collector catch up with what is still in the pipe.
        var length = -1
        while output.text.utf8.count != length {
            length = output.text.utf8.count
            usleep(50_000)
        }
        return (process.terminationStatus, output.text)
    }

    /// The first interpreter that can `import MODULE`: `$ALARMD_TEST_PYTHON`,
    /// then the Makefile's venv `.build/pyvenv/bin/python3`, then `python3` on PATH.
    static func interpreter(importing module: String = "varlink") -> (path: String?, tried: [String]) {
        var candidates: [(String, [String])] = []
        if let explicit = ProcessInfo.processInfo.environment["ALARMD_TEST_PYTHON"], !explicit.isEmpty {
            candidates.append((explicit, []))
        }
        candidates.append((packageRoot + "/.build/pyvenv/bin/python3", []))
        candidates.append(("/usr/bin/env", ["python3"]))
        var tried: [String] = []
        for (executable, prefix) in candidates {
            let name = ([executable] + prefix).joined(separator: " ")
            guard FileManager.default.isExecutableFile(atPath: executable) else {
                tried.append("\(name): not found")
                continue
            }
            guard let probe = try? run(executable, prefix + ["-c", "import sys, \(module); print(sys.executable)"], timeout: 30) else {
                tried.append("\(name): could not run")
                continue
            }
            if probe.status == 0, let path = probe.output.split(separator: "\n").last.map(String.init), !path.isEmpty {
                return (path, tried)
            }
            tried.append("\(name): \(probe.output.split(separator: "\n").last ?? "exit \(probe.status)")")
        }
        return (nil, tried)
    }

    @Test func thePythonVarlinkPackageTalksToAlarmd() throws {
        let (found, tried) = Self.interpreter()
        guard let python = found else {
            Issue.record("""
                No Python interpreter can `import varlink` (tried: \(tried.joined(separator: "; "))). \
                Install it with `python3 -m venv .build/pyvenv && .build/pyvenv/bin/pip install varlink` \
                (or `pip install varlink`), or point ALARMD_TEST_PYTHON at an interpreter that has it.
                """)
            return
        }
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let result = try Self.run(python, [Self.script, daemon.socketPath], timeout: 120)
        #expect(result.status == 0, """
            \(python) \(Self.script) exited \(result.status):
            \(result.output)
            alarmd stderr:
            \(daemon.standardError)
            """)
        #expect(result.output.contains("PASSED: 0 check(s) failed"), "\(result.output)")
    }
}

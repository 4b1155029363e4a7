// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc

/// The real `alarmctl` binary run against a `DaemonProcess`, in UTC like the daemon.
enum Alarmctl {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String

        /// Standard output read as one JSON object (`--json`).
        func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(standardOutput.utf8)) as? [String: Any] else {
                throw HarnessError(description: "not a JSON object: \(standardOutput)")
            }
            return object
        }
    }

    static func environment(_ daemon: DaemonProcess) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC", "ALARMD_SOCKET": daemon.socketPath]
    }

    static func process(_ arguments: [String], _ daemon: DaemonProcess, environment overrides: [String: String] = [:]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: productsDirectory + "/alarmctl")
        process.arguments = arguments
        process.environment = environment(daemon).merging(overrides) { $1 }
        return process
    }

    /// Runs `alarmctl ARGUMENTS` to completion.
    static func run(_ arguments: [String], _ daemon: DaemonProcess, input: Data? = nil, environment: [String: String] = [:]) throws -> Result {
        let process = process(arguments, daemon, environment: environment)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(input)
            try stdin.fileHandleForWriting.close()
        }
        let (outData, errorData) = readToEnd(out, err)
        process.waitUntilExit()
        return Result(status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// `run` that must succeed; its standard output.
    @discardableResult
    static func ok(_ arguments: [String], _ daemon: DaemonProcess, input: Data? = nil) throws -> String {
        let result = try run(arguments, daemon, input: input)
        guard result.status == 0 else {
            throw HarnessError(description: "alarmctl \(arguments.joined(separator: " ")) exited \(result.status): \(result.standardError)")
        }
        return result.standardOutput
    }

    /// `run ... --json` that must succeed, parsed.
    static func json(_ arguments: [String], _ daemon: DaemonProcess) throws -> [String: Any] {
        let result = try run(arguments + ["--json"], daemon)
        guard result.status == 0 else {
            throw HarnessError(description: "alarmctl \(arguments.joined(separator: " ")) --json exited \(result.status): \(result.standardError)")
        }
        return try result.json()
    }
}

/// Data handed from one thread to another.
/// Reads a child's stdout and stderr to their ends before it is waited for,
/// stderr on another thread, so a child filling either pipe cannot block.
func readToEnd(_ out: Pipe, _ err: Pipe) -> (output: Data, error: Data) {
    let errorData = LockedData()
    let errorRead = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        errorData.set(err.fileHandleForReading.readDataToEndOfFile())
        errorRead.signal()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    errorRead.wait()
    return (outData, errorData.get())
}

final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}

/// An `alarmctl` left running (`watch`), its output collected as it arrives.
final class BackgroundAlarmctl {
    let process: Process
    private let out = PipeCollector()
    private let err = PipeCollector()

    init(_ arguments: [String], _ daemon: DaemonProcess, environment: [String: String] = [:]) throws {
        process = Alarmctl.process(arguments, daemon, environment: environment)
        process.standardOutput = out.pipe
        process.standardError = err.pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Complete lines printed so far.
    var lines: [String] {
        let text = out.text
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    var standardError: String { err.text }

    /// Waits for a line that satisfies `match`.
    func waitForLine(timeout: TimeInterval, _ match: (String) -> Bool) -> String? {
        var found: String?
        _ = waitUntil(timeout: timeout) {
            found = lines.first(where: match)
            return found != nil
        }
        return found
    }

    /// Stops it and returns its exit status. SIGTERM rather than Ctrl-C's SIGINT:
    /// a child inherits an ignored SIGINT from its parent, as under some test runners.
    @discardableResult
    func terminate() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        if !waitUntil(timeout: 5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit { if process.isRunning { terminate() } }
}

extension String {
    /// This text with every full id and 8-character id prefix of `ids` replaced
    /// by a name, so output holding random ids can be compared exactly.
    func naming(_ ids: [String: String]) -> String {
        var text = self
        for (id, name) in ids {
            text = text.replacingOccurrences(of: id, with: name)
            text = text.replacingOccurrences(of: String(id.prefix(8)), with: name.padding(toLength: 8, withPad: " ", startingAt: 0))
        }
        return text
    }

    /// Whether the whole text matches the regular expression `pattern`.
    func matches(_ pattern: String) -> Bool {
        range(of: "^" + pattern + "$", options: .regularExpression) != nil
    }
}

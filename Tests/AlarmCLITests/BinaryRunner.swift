// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Runs a built executable of this package as a child process, the way a person
/// or a script would, and captures what it printed.
struct BinaryRunner {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// The directory holding the package's built products: the test runner is
    /// itself one of them.
    static let productsDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    static func run(_ product: String, _ arguments: [String], environment: [String: String] = [:], input: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent(product)
        process.arguments = arguments
        // A small, explicit environment: the test must not depend on the caller's TZ, locale or socket.
        var env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        }
        // Read both pipes before waiting: a full pipe would otherwise block the child forever.
        let errorReader = Thread.detachedReader(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errorReader.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self)
        )
    }

    /// alarmctl against `socket`, in UTC unless `zone` says otherwise.
    static func alarmctl(_ arguments: [String], socket: String, zone: String = "UTC", input: Data? = nil) throws -> Result {
        try run("alarmctl", arguments, environment: ["ALARMD_SOCKET": socket, "TZ": zone], input: input)
    }
}

extension Thread {
    /// Reads `handle` to its end on another thread; `wait()` returns what it read.
    final class DetachedReader: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread.detachNewThread { [self] in
                data = handle.readDataToEndOfFile()
                done.signal()
            }
        }

        func wait() -> Data {
            done.wait()
            return data
        }
    }

    static func detachedReader(_ handle: FileHandle) -> DetachedReader { DetachedReader(handle) }
}

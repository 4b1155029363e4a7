// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `Tests/AlarmdTests/python/hostile_caldav.py` running in one mode (or as a
/// sink), on a port the system chose, with its request log.
final class HostileServer {
    struct StartFailure: Error, CustomStringConvertible { let description: String }

    /// One request the server saw.
    struct Request: Decodable {
        let listener: String
        let method: String
        let path: String
        let authorization: Bool
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("AlarmdTests/python/hostile_caldav.py").path

    let port: Int
    private let process: Process
    private let directory: URL
    private var logPath: String { directory.appendingPathComponent("requests.jsonl").path }

    /// The collection's address on this server.
    var collection: String { "http://127.0.0.1:\(port)/cal/" }

    init(_ arguments: [String], lifetime: Int = 120) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let output = directory.appendingPathComponent("stdout").path
        FileManager.default.createFile(atPath: output, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, "--log", directory.appendingPathComponent("requests.jsonl").path, "--lifetime", String(lifetime)] + arguments
        process.standardOutput = FileHandle(forWritingAtPath: output)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while true {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }), let port = Int(line.dropFirst(5)) {
                self.port = port
                break
            }
            guard process.isRunning, Date() < deadline else {
                process.terminate()
                throw StartFailure(description: "hostile_caldav.py \(arguments) did not start")
            }
            usleep(20_000)
        }
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Every request recorded so far, in order.
    func requests() -> [Request] {
        guard let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONDecoder().decode(Request.self, from: Data($0.utf8)) }
    }
}

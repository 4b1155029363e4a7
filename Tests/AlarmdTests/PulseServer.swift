// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// A real PulseAudio server of the test's own (Debian's `pulseaudio`): a null
/// sink whose monitor `parec` records, reached on a private socket, so what
/// alarmd plays can be listened to and measured (`sox`).
final class PulseServer {
    static let sink = "alarmsink"
    static let rate = 44_100

    let directory = TemporaryDirectory()
    let process = Process()
    private let output = PipeCollector()
    var socket: String { directory.path + "/native" }
    /// What a client (alarmd, pactl, parec) needs to reach it.
    var environment: [String: String] { ["PULSE_SERVER": "unix:" + socket] }

    init() throws {
        try FileManager.default.createDirectory(atPath: directory.path + "/runtime", withIntermediateDirectories: true)
        // Under `timeout`, as the other long-lived helpers of the tests are.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-s", "KILL", "300", "/usr/bin/pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no",
                             "--system=no", "--disable-shm=yes",
                             "-L", "module-null-sink sink_name=\(Self.sink) rate=\(Self.rate)",
                             "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(socket)"]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_RUNTIME_DIR": directory.path + "/runtime"]
        process.standardOutput = output.pipe
        process.standardError = output.pipe
        try process.run()
        guard waitUntil(timeout: 15, { pactl(["info"]).status == 0 }) else {
            throw HarnessError(description: "pulseaudio did not start (make test-deps installs it): \(output.text)")
        }
    }

    deinit {
        for child in InstallTests.children(of: process.processIdentifier) { kill(child, SIGKILL) }
        endProcess(process)
    }

    func pactl(_ arguments: [String]) -> Tool.Result {
        Tool.run("/usr/bin/pactl", arguments, environment: environment)
    }

    /// The properties of every playback stream, one dictionary each.
    func sinkInputs() -> [[String: String]] {
        var inputs: [[String: String]] = []
        for line in pactl(["list", "sink-inputs"]).standardOutput.split(separator: "\n") {
            if line.hasPrefix("Sink Input #") { inputs.append([:]) }
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !inputs.isEmpty else { continue }
            inputs[inputs.count - 1][parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return inputs
    }

    /// Records the sink's monitor for `seconds` into `path` as raw 16-bit
    /// stereo (no header: the recorder is killed, since the runner's children
    /// inherit its blocked SIGINT and SIGTERM, and a WAV header would be left
    /// unfinished).
    func record(seconds: Int, to path: String) -> Process {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let recorder = Process()
        recorder.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        recorder.arguments = ["-s", "KILL", String(seconds), "/usr/bin/parec", "-d", Self.sink + ".monitor", "--rate=\(Self.rate)",
                              "--channels=2", "--format=s16le", "--raw"]
        recorder.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        recorder.standardOutput = FileHandle(forWritingAtPath: path)
        recorder.standardError = FileHandle.nullDevice
        try? recorder.run()
        return recorder
    }

    /// The RMS amplitude (0–1) `sox` measures in `length` seconds of the
    /// recording `path` from `start`.
    static func rms(_ path: String, from start: Double, length: Double) -> Double? {
        let raw = ["-t", "raw", "-r", String(rate), "-e", "signed", "-b", "16", "-c", "2", path]
        let result = Tool.run("/usr/bin/sox", raw + ["-n", "trim", String(start), String(length), "stat"])
        let line = result.standardError.split(separator: "\n").first { $0.hasPrefix("RMS     amplitude:") }
        return line.flatMap { Double($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }
    }

    /// Seconds into `path` where sound first rises above silence (−80 dBFS), in 50 ms steps.
    static func onset(_ path: String, upTo seconds: Double) -> Double? {
        var start = 0.0
        while start < seconds {
            if let level = rms(path, from: start, length: 0.05), level > 1e-4 { return start }
            start += 0.05
        }
        return nil
    }
}

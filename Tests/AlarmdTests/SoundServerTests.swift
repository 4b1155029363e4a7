import Foundation
import Glibc
import Testing

/// Ringing through a real PulseAudio server (issue 15): alarmd's own stream on
/// a null sink, recorded from its monitor with `parec` and measured with
/// `sox`; the stream's properties read with `pactl`.
@Suite(.serialized) struct SoundServerTests {
    /// A steady 440 Hz tone, so that levels differ only by volume and fade.
    static func tone(in directory: String) throws -> String {
        let path = directory + "/tone.wav"
        let made = Tool.run("/usr/bin/sox", ["-n", "-r", "44100", "-c", "2", path, "synth", "2", "sine", "440", "vol", "0.5"])
        guard made.status == 0 else { throw HarnessError(description: "sox could not make a tone: \(made.standardError)") }
        return path
    }

    /// A daemon playing reminders' sounds to `server` with `sound` settings
    /// (the `[Sound]` lines); the reminder `title` due in two seconds.
    static func ring(_ title: String, server: PulseServer, sound: String, directory: TemporaryDirectory) throws -> (DaemonProcess, String) {
        let tone = try tone(in: directory.path)
        let daemon = DaemonProcess(directory: directory, config: "[Sound]\nReminderSound=\(tone)\n\(sound)", environment: server.environment)
        try daemon.startAndWaitReady()
        let added = try Alarmctl.json(["remind", "add", title, "--in", "2s"], daemon)
        let id = try #require((added["reminder"] as? [String: Any])?["id"] as? String)
        return (daemon, id)
    }

    static func decibels(_ louder: Double, over quieter: Double) -> Double { 20 * log10(louder / max(quieter, 1e-9)) }

    @Test func theStreamSaysWhatItIsRisesFromSilenceAndGoesAtOnceOnDismiss() throws {
        let server = try PulseServer()
        let directory = TemporaryDirectory()
        let recording = directory.path + "/ring.raw"
        let recorder = server.record(seconds: 11, to: recording)
        let (daemon, id) = try Self.ring("Wake up", server: server, sound: "Volume=100\nFade=6s\n", directory: directory)
        defer { daemon.stop() }
        var stream: [String: String]?
        #expect(waitUntil(timeout: 10) {
            stream = server.sinkInputs().first { $0["application.name"] == "alarmd" }
            return stream != nil
        }, "no stream of alarmd's: \(daemon.standardError)")
        #expect(stream?["media.role"] == "event", "a reminder's role: \(String(describing: stream))")
        #expect(stream?["media.name"] == "Wake up")

        // Let the fade finish and the recording end, then dismiss.
        recorder.waitUntilExit()
        let asked = Date()
        try Alarmctl.ok(["dismiss", id], daemon)
        #expect(waitUntil(timeout: 2) { server.sinkInputs().isEmpty })
        #expect(Date().timeIntervalSince(asked) < 0.5 + 0.3, "the stream outlived Dismiss by \(Date().timeIntervalSince(asked)) s (0.3 s for alarmctl itself)")

        let onset = try #require(PulseServer.onset(recording, upTo: 6), "nothing was heard")
        let first = try #require(PulseServer.rms(recording, from: onset, length: 1))
        let later = try #require(PulseServer.rms(recording, from: onset + 6, length: 1))
        #expect(Self.decibels(later, over: first) >= 20, "the first second is only \(Self.decibels(later, over: first)) dB below the seventh (\(first) against \(later))")
    }

    @Test func aQuarterVolumeIsMeasurablyQuieterThanFull() throws {
        var levels: [Int: Double] = [:]
        for volume in [100, 25] {
            let server = try PulseServer()
            let directory = TemporaryDirectory()
            let recording = directory.path + "/ring.raw"
            let recorder = server.record(seconds: 5, to: recording)
            let (daemon, _) = try Self.ring("Level \(volume)", server: server, sound: "Volume=\(volume)\nFade=0\n", directory: directory)
            recorder.waitUntilExit()
            daemon.stop()
            let onset = try #require(PulseServer.onset(recording, upTo: 4.5), "nothing was heard at \(volume) %")
            levels[volume] = PulseServer.rms(recording, from: onset + 0.1, length: 0.5)
        }
        let full = try #require(levels[100]), quarter = try #require(levels[25])
        // The stream's volume is a mixer's: 25 % is about −36 dB.
        #expect(Self.decibels(full, over: quarter) >= 20, "25 % is only \(Self.decibels(full, over: quarter)) dB below 100 % (\(quarter) against \(full))")
    }

    @Test func withoutASoundServerTheExternalPlayerRingsAndTheFallbackIsSaidOnce() throws {
        let directory = TemporaryDirectory()
        // A stand-in pw-play, first on PATH, that logs how it was started.
        let bin = directory.path + "/bin", log = directory.path + "/player.log"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let script = "#!/bin/sh\necho \"$@\" >> \(log)\nexec sleep 30\n"
        FileManager.default.createFile(atPath: bin + "/pw-play", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
        let tone = try Self.tone(in: directory.path)
        let daemon = DaemonProcess(directory: directory, config: "[Sound]\nReminderSound=\(tone)\nVolume=40\n", environment: ["PATH": bin + ":/usr/bin:/bin"])
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let added = try Alarmctl.json(["remind", "add", "No server", "--in", "1s"], daemon)
        let id = try #require((added["reminder"] as? [String: Any])?["id"] as? String)
        #expect(waitUntil(timeout: 10) { (try? String(contentsOfFile: log, encoding: .utf8))?.contains(tone) == true }, "the external player did not start: \(daemon.standardError)")
        #expect(try String(contentsOfFile: log, encoding: .utf8).contains("--volume=0.4 \(tone)"))
        try Alarmctl.ok(["dismiss", id], daemon)
        try Alarmctl.ok(["remind", "add", "Still no server", "--in", "1s"], daemon)
        #expect(waitUntil(timeout: 10) { (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").count == 2 })
        let said = daemon.standardError.components(separatedBy: "Playing sounds through the external player").count - 1
        #expect(said == 1 || JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd"], of: daemon).filter { $0["MESSAGE"]?.hasPrefix("Playing sounds through the external player") == true }.count == 1,
                "the fallback is said once: \(daemon.standardError)")
    }
}

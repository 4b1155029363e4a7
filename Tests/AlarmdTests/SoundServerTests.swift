// SPDX-License-Identifier: Apache-2.0
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

    /// A daemon whose sounds go to `server`, with `sound` as its `[Sound]` lines
    /// and the tone as the reminders' sound; `tz` is its zone.
    static func daemon(server: PulseServer, sound: String, tz: String = "UTC", directory: TemporaryDirectory) throws -> (DaemonProcess, tone: String) {
        let tone = try tone(in: directory.path)
        let environment = server.environment.merging(["TZ": tz]) { $1 }
        let daemon = DaemonProcess(directory: directory, config: "[Sound]\nReminderSound=\(tone)\n\(sound)", environment: environment)
        try daemon.startAndWaitReady()
        return (daemon, tone)
    }

    /// An alarm with `options` that rings about `seconds` from now, playing the
    /// tone to `server` (see ``MinuteAhead``).
    static func alarm(in seconds: Int, _ options: [String], server: PulseServer, sound: String = "", directory: TemporaryDirectory) throws -> (DaemonProcess, String) {
        let soon = MinuteAhead(seconds)
        let (daemon, tone) = try Self.daemon(server: server, sound: sound, tz: soon.tz, directory: directory)
        let time = soon.time
        let added = try Alarmctl.json(["add", time, "--sound", tone] + options, daemon)
        let id = try #require((added["alarm"] as? [String: Any])?["id"] as? String)
        return (daemon, id)
    }

    /// A reminder `title` due in two seconds, playing the tone to `server`.
    static func reminder(_ title: String, server: PulseServer, sound: String, directory: TemporaryDirectory) throws -> (DaemonProcess, String) {
        let (daemon, _) = try Self.daemon(server: server, sound: sound, directory: directory)
        let added = try Alarmctl.json(["remind", "add", title, "--in", "2s"], daemon)
        let id = try #require((added["reminder"] as? [String: Any])?["id"] as? String)
        return (daemon, id)
    }

    static func decibels(_ louder: Double, over quieter: Double) -> Double { 20 * log10(louder / max(quieter, 1e-9)) }

    /// The alarm's own fade and volume, over a configuration that says
    /// otherwise (full volume at once, quietly).
    @Test func theStreamSaysWhatItIsRisesFromSilenceAndGoesAtOnceOnDismiss() throws {
        let server = try PulseServer()
        let directory = TemporaryDirectory()
        let recording = directory.path + "/ring.raw"
        // Long enough for the seventh second after an onset that a loaded
        // machine (the whole suite at once) delays by several seconds.
        let recorder = server.record(seconds: 18, to: recording)
        let (daemon, id) = try Self.alarm(in: 3, ["--label", "Wake up", "--fade", "6s", "--volume", "100"], server: server,
                                          sound: "Volume=10\nFade=0\n", directory: directory)
        defer { daemon.stop() }
        let shown = try Alarmctl.ok(["show", id], daemon)
        #expect(shown.contains(#/\nvolume: +100 %\n/#) && shown.contains(#/\nfade: +6 s\n/#), "\(shown)")
        var stream: [String: String]?
        #expect(waitUntil(timeout: 10) {
            stream = server.sinkInputs().first { $0["application.name"] == "alarmd" }
            return stream != nil
        }, "no stream of alarmd's: \(daemon.standardError)")
        #expect(stream?["media.role"] == "alarm", "an alarm's role: \(String(describing: stream))")
        #expect(stream?["media.name"] == "Wake up")

        // Let the fade finish and the recording end, then dismiss.
        recorder.waitUntilExit()
        #expect(server.sinkInputs().first?["media.role"] == "alarm", "still ringing when the recording ended")
        let asked = Date()
        try Alarmctl.ok(["dismiss", id], daemon)
        #expect(waitUntil(timeout: 2) { server.sinkInputs().isEmpty })
        #expect(Date().timeIntervalSince(asked) < 0.5 + 0.3, "the stream outlived Dismiss by \(Date().timeIntervalSince(asked)) s (0.3 s for alarmctl itself)")

        let onset = try #require(PulseServer.onset(recording, upTo: 10), "nothing was heard")
        let recorded = Double((try? FileManager.default.attributesOfItem(atPath: recording)[.size] as? Int) ?? 0) / Double(PulseServer.rate * 4)
        try #require(recorded >= onset + 7, "the recording (\(recorded) s) ends before the seventh second after the onset at \(onset) s")
        let first = try #require(PulseServer.rms(recording, from: onset, length: 1))
        let later = try #require(PulseServer.rms(recording, from: onset + 6, length: 1))
        #expect(Self.decibels(later, over: first) >= 20, "the first second is only \(Self.decibels(later, over: first)) dB below the seventh (\(first) against \(later))")
    }

    /// A reminder at the configuration's 100 %, an alarm at its own 25 %
    /// under the same configuration.
    @Test func aQuarterVolumeIsMeasurablyQuieterThanFull() throws {
        var levels: [String: Double] = [:]
        for kind in ["reminder", "alarm"] {
            let server = try PulseServer()
            let directory = TemporaryDirectory()
            let recording = directory.path + "/ring.raw"
            let recorder = server.record(seconds: 6, to: recording)
            let config = "Volume=100\nFade=0\n"
            let (daemon, _) = kind == "alarm"
                ? try Self.alarm(in: 2, ["--volume", "25"], server: server, sound: config, directory: directory)
                : try Self.reminder("Full", server: server, sound: config, directory: directory)
            var role: String?
            _ = waitUntil(timeout: 5) {
                role = server.sinkInputs().first { $0["application.name"] == "alarmd" }?["media.role"]
                return role != nil
            }
            #expect(role == (kind == "alarm" ? "alarm" : "event"), "the \(kind)'s role")
            recorder.waitUntilExit()
            daemon.stop()
            let onset = try #require(PulseServer.onset(recording, upTo: 5), "nothing was heard from the \(kind)")
            levels[kind] = PulseServer.rms(recording, from: onset + 0.1, length: 0.5)
        }
        let full = try #require(levels["reminder"]), quarter = try #require(levels["alarm"])
        // The stream's volume is a mixer's: 25 % is about −36 dB.
        #expect(Self.decibels(full, over: quarter) >= 20, "25 % is only \(Self.decibels(full, over: quarter)) dB below 100 % (\(quarter) against \(full))")
    }

    /// `alarmctl sounds --play`: once, on an alarm's stream, at the volume
    /// asked for, gone when the sound ends; refusals name the sound.
    @Test func aSoundPlaysOnceToChooseBy() throws {
        let server = try PulseServer()
        let directory = TemporaryDirectory()
        let (daemon, tone) = try Self.daemon(server: server, sound: "Volume=100\n", directory: directory)
        defer { daemon.stop() }
        let recording = directory.path + "/preview.raw"
        let recorder = server.record(seconds: 5, to: recording)
        let started = Date()
        let played = try Alarmctl.ok(["sounds", "--play", tone, "--volume", "50"], daemon)
        #expect(played == "Playing \(tone) at 50 %\n")
        var stream: [String: String]?
        #expect(waitUntil(timeout: 3) {
            stream = server.sinkInputs().first { $0["application.name"] == "alarmd" }
            return stream != nil
        }, "no preview stream: \(daemon.standardError)")
        #expect(stream?["media.role"] == "alarm" && stream?["media.name"] == "Sound preview", "\(String(describing: stream))")
        // The tone is 2 s long: the stream goes soon after, without a Dismiss.
        #expect(waitUntil(timeout: 5) { server.sinkInputs().isEmpty }, "the preview kept playing")
        #expect(Date().timeIntervalSince(started) < 4, "the preview lasted \(Date().timeIntervalSince(started)) s for a 2 s sound")
        recorder.waitUntilExit()
        let onset = try #require(PulseServer.onset(recording, upTo: 3), "nothing was heard")
        let heard = try #require(PulseServer.rms(recording, from: onset + 0.2, length: 1))
        let after = try #require(PulseServer.rms(recording, from: onset + 2.5, length: 1))
        #expect(heard > 0.01 && after < 1e-4, "played \(heard), then \(after): once, not looped")

        let none = try Alarmctl.run(["sounds", "--play", "none"], daemon)
        #expect(none.status == 1, "\(none.status)")
        #expect(none.standardError.contains("alarmctl: --play must be a sound to play"), "named as typed: \(none.standardError)")
        let unknown = try Alarmctl.run(["sounds", "--play", "no-such-sound"], daemon)
        #expect(unknown.standardError.contains("\"no-such-sound\"") && unknown.standardError.contains("alarmctl sounds"), "\(unknown.standardError)")

        // `test ALARM`: that alarm's own sound at its own volume.
        try Alarmctl.ok(["add", "7:00", "--label", "early train", "--sound", tone, "--volume", "30"], daemon)
        #expect(waitUntil(timeout: 5) { server.sinkInputs().isEmpty })
        #expect(try Alarmctl.ok(["test", "early", "train"], daemon) == "Playing \(tone) at 30 %\n")
        try Alarmctl.ok(["add", "8:00", "--label", "Silent", "--sound", "none"], daemon)
        let silent = try Alarmctl.run(["test", "silent"], daemon)
        #expect(silent.status == 1 && silent.standardError.contains("rings without a sound"), "\(silent.standardError)")
    }

    /// The audibility check: a muted output, then a quiet one, are reported
    /// by `show` and `status` once the alarm is added or edited; an output
    /// turned back up is not.
    @Test func aMutedOrQuietOutputIsReported() throws {
        let server = try PulseServer()
        let directory = TemporaryDirectory()
        let (daemon, _) = try Self.daemon(server: server, sound: "", directory: directory)
        defer { daemon.stop() }
        #expect(server.pactl(["set-sink-mute", PulseServer.sink, "1"]).status == 0)
        let added = try Alarmctl.json(["add", "7:30", "--label", "Muted"], daemon)
        let id = try #require((added["alarm"] as? [String: Any])?["id"] as? String)
        func warnings() -> [String] { (try? Alarmctl.json(["show", id], daemon)["warnings"] as? [String]) ?? [] }
        #expect(waitUntil(timeout: 10) { warnings().contains { $0.hasSuffix("is muted") } }, "warnings: \(warnings()); \(daemon.standardError)")
        let shown = try Alarmctl.ok(["show", id], daemon)
        #expect(shown.contains(#/\nwarning: +may not be heard: the output "[^"]+" is muted\n/#), "\(shown)")
        let status = try Alarmctl.ok(["status"], daemon)
        #expect(status.contains(#/\nwarning: +alarms may not be heard: the output "[^"]+" is muted\n/#), "\(status)")
        #expect((try Alarmctl.json(["status"], daemon)["warnings"] as? [String])?.contains { $0.hasSuffix("is muted") } == true)
        // The daemon's English phrase, said again in the reader's language.
        if Locales.unavailableReason == nil {
            let chinese = try Alarmctl.run(["status"], daemon, environment: LocalizationTests.chinese).standardOutput
            #expect(chinese.contains(#/\n警告： *鬧鐘可能聽不到：輸出裝置「[^」]+」已靜音\n/#), "\(chinese)")
        }

        // Unmuted but at 20 %: too quiet. The next edit checks again.
        #expect(server.pactl(["set-sink-mute", PulseServer.sink, "0"]).status == 0)
        #expect(server.pactl(["set-sink-volume", PulseServer.sink, "20%"]).status == 0)
        try Alarmctl.ok(["edit", id, "--label", "Quiet"], daemon)
        #expect(waitUntil(timeout: 10) { warnings().contains { $0.hasSuffix("is at 20 % volume") } }, "warnings: \(warnings())")
        if Locales.unavailableReason == nil {
            let chinese = try Alarmctl.run(["show", id], daemon, environment: LocalizationTests.chinese).standardOutput
            #expect(chinese.contains(#/\n警告： *可能聽不到：輸出裝置「[^」]+」的音量只有 20 %\n/#), "\(chinese)")
        }
        #expect(!warnings().contains { $0.hasSuffix("is muted") })

        // Back to full: nothing about the output (a missing notification
        // server may still be reported: there is none here).
        #expect(server.pactl(["set-sink-volume", PulseServer.sink, "100%"]).status == 0)
        try Alarmctl.ok(["edit", id, "--label", "Loud"], daemon)
        #expect(waitUntil(timeout: 10) { !warnings().contains { $0.contains("the output") } }, "warnings: \(warnings())")
        // An alarm that is off will not ring: nothing to warn about.
        try Alarmctl.ok(["disable", id], daemon)
        #expect(warnings().isEmpty)
    }

    /// `EscalateAfter=`: an alarm at its own 25 % still ringing after 10 s
    /// goes to 100 % on its stream, runs its escalation command, and says
    /// `escalated` in Watch and the journal.
    @Test func anUnansweredAlarmEscalatesToFullVolumeAndRunsItsCommand() throws {
        let server = try PulseServer()
        let directory = TemporaryDirectory()
        let log = directory.path + "/escalated.log"
        let soon = MinuteAhead(3)
        let (daemon, tone) = try Self.daemon(server: server, sound: "Fade=0\n[Alarms]\nEscalateAfter=10s\n", tz: soon.tz, directory: directory)
        defer { daemon.stop() }
        let watch = try BackgroundAlarmctl(["watch", "--json"], daemon)
        defer { watch.terminate() }
        let added = try Alarmctl.json(["add", soon.time, "--label", "Heavy sleeper", "--sound", tone, "--volume", "25",
                                       "--escalate-command", "/bin/sh -c 'echo \"$ALARMD_EVENT $ALARMD_LABEL\" >> \(log)'"], daemon)
        let id = try #require((added["alarm"] as? [String: Any])?["id"] as? String)
        func streamVolume() -> String? {
            server.pactl(["list", "sink-inputs"]).standardOutput.split(separator: "\n")
                .first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Volume:") }.map(String.init)
        }
        #expect(waitUntil(timeout: 10) { streamVolume()?.contains("25%") == true }, "before: \(String(describing: streamVolume())); \(daemon.standardError)")
        let rang = Date()
        let escalated = watch.waitForLine(timeout: 15) { $0.contains(#""kind":"escalated""#) && $0.contains(id) }
        #expect(escalated != nil, "no escalated event: \(watch.lines)")
        #expect(escalated?.contains("ringing unanswered for 10 s") == true)
        #expect(Date().timeIntervalSince(rang) > 8, "escalated after \(Date().timeIntervalSince(rang)) s, not 10")
        #expect(waitUntil(timeout: 2) { streamVolume()?.contains("100%") == true }, "after: \(String(describing: streamVolume()))")
        #expect(waitUntil(timeout: 5) { (try? String(contentsOfFile: log, encoding: .utf8)) == "escalated Heavy sleeper\n" },
                "the escalation command's log: \(String(describing: try? String(contentsOfFile: log, encoding: .utf8)))")
        #expect(DesktopDaemon.waitForLog(daemon) { $0.contains { $0.contains("escalated") } }.contains { $0.contains("escalated") },
                "the journal: \(DesktopDaemon.log(daemon))")
        // Once per ringing.
        usleep(1_000_000)
        #expect(watch.lines.filter { $0.contains(#""kind":"escalated""#) }.count == 1)
    }

    @Test func withoutASoundServerTheExternalPlayerRingsAndTheFallbackIsSaidOnce() throws {
        let directory = TemporaryDirectory()
        // A stand-in pw-play, first on PATH, that logs how it was started.
        let bin = directory.path + "/bin", log = directory.path + "/player.log"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let script = "#!/bin/sh\necho \"$@\" >> \(log)\nexec sleep 30\n"
        try #require(FileManager.default.createFile(atPath: bin + "/pw-play", contents: Data(script.utf8), attributes: [.posixPermissions: 0o755]))
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
        // A preview goes through the same player, once, at its volume.
        try Alarmctl.ok(["sounds", "--play", tone, "--volume", "5"], daemon)
        #expect(waitUntil(timeout: 10) { (try? String(contentsOfFile: log, encoding: .utf8))?.contains("--volume=0.05 \(tone)") == true })
        let said = daemon.standardError.components(separatedBy: "Playing sounds through the external player").count - 1
        #expect(said == 1 || JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd"], of: daemon).filter { $0["MESSAGE"]?.hasPrefix("Playing sounds through the external player") == true }.count == 1,
                "the fallback is said once: \(daemon.standardError)")
    }

    /// The sound process is a process like any other: killed in the middle
    /// of a ring, alarmd says so and keeps ringing (the notification, the
    /// item's state), and the next ring plays again.
    @Test func aSoundProcessKilledMidRingIsSaidAndTheNextRingPlays() throws {
        let server = try PulseServer()
        let directory = TemporaryDirectory()
        let (daemon, id) = try Self.reminder("Kettle", server: server, sound: "", directory: directory)
        defer { daemon.stop() }
        let pid = daemon.process.processIdentifier
        var players: [Int32] = []
        #expect(waitUntil(timeout: 10) {
            players = FootprintTests.children(of: pid, named: "alarmd-sound")
            return !players.isEmpty && !server.sinkInputs().isEmpty
        }, "no sound process: \(daemon.standardError)")
        for player in players { kill(player, SIGKILL) }
        let said = { (text: String) in
            daemon.standardError.contains(text)
                || JournalFixture.query(["SYSLOG_IDENTIFIER=alarmd"], of: daemon).contains { $0["MESSAGE"]?.contains(text) == true }
        }
        #expect(waitUntil(timeout: 5) { said("the sound process was killed by signal 9") }, "\(daemon.standardError)")
        #expect(waitUntil(timeout: 2) { server.sinkInputs().isEmpty })
        #expect(try Alarmctl.ok(["status"], daemon).contains("Kettle"), "still ringing after its sound process died")
        try Alarmctl.ok(["remind", "done", id], daemon)
        try Alarmctl.ok(["remind", "add", "Kettle again", "--in", "1s"], daemon)
        #expect(waitUntil(timeout: 10) { server.sinkInputs().contains { $0["media.name"] == "Kettle again" } }, "\(daemon.standardError)")
    }

    /// A WAV header that lies: 32 channels at 384 kHz and 2 GiB of samples
    /// over 256 KiB of noise, and one with 33 channels, more than a sound
    /// server takes. Each is answered within seconds (played for what it
    /// holds, or not heard with a reason), alarmd stays small and serving,
    /// and the next sound plays.
    @Test func aSoundFileThatLiesInItsHeaderCostsOnlyItsOwnSound() throws {
        let server = try PulseServer()
        let directory = TemporaryDirectory()
        let (daemon, tone) = try Self.daemon(server: server, sound: "", directory: directory)
        defer { daemon.stop() }
        for channels in [32, 33] {
            let path = directory.path + "/lies-\(channels).wav"
            try Self.lyingWAV(channels: channels, rate: 384_000).write(to: URL(fileURLWithPath: path))
            let started = Date()
            let played = try Alarmctl.run(["sounds", "--play", path], daemon)
            #expect(Date().timeIntervalSince(started) < 10, "\(channels) channels: answered after \(Date().timeIntervalSince(started)) s")
            #expect(played.status == 0 || (played.status == 1 && played.standardError.contains("is not being heard")),
                    "\(channels) channels: \(played.status) \(played.standardOutput) \(played.standardError)")
            #expect(try Alarmctl.ok(["status"], daemon).contains("version:"))
        }
        let rss = residentBytes(of: daemon.process.processIdentifier) ?? 0
        #expect(rss > 0 && rss < 100 << 20, "alarmd holds \(rss) bytes after the lying files")
        #expect(waitUntil(timeout: 10) { server.sinkInputs().isEmpty })
        #expect(try Alarmctl.ok(["sounds", "--play", tone], daemon).hasPrefix("Playing "))
    }

    /// A 16-bit PCM WAV whose header claims `channels` at `rate` and a data
    /// chunk of 2 GiB, over 256 KiB of noise.
    static func lyingWAV(channels: Int, rate: Int) -> Data {
        var data = Data()
        func bytes(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func bytes(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); bytes(UInt32(0x7FFF_FFFF))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); bytes(UInt32(16))
        bytes(UInt16(1)); bytes(UInt16(channels)); bytes(UInt32(rate)); bytes(UInt32(rate * channels * 2)); bytes(UInt16(channels * 2)); bytes(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); bytes(UInt32(0x7FFF_FFF0))
        var generator = SystemRandomNumberGenerator()
        data.append(contentsOf: (0..<(256 * 1024)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        return data
    }
}

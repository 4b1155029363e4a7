// SPDX-License-Identifier: Apache-2.0
import AlarmCore
@testable import AlarmDaemon
import Foundation
import Glibc
import Testing

/// The sound-theme files the tests resolve against (Debian's sound-theme-freedesktop).
enum FreedesktopSounds {
    static let stereo = "/usr/share/sounds/freedesktop/stereo"
    static let alarm = stereo + "/alarm-clock-elapsed.oga"
    static let reminder = stereo + "/message-new-instant.oga"
    static let bell = stereo + "/bell.oga"

    /// As root (CI) the theme is required (`make test-deps` installs it).
    static let unavailableReason: String? = FileManager.default.fileExists(atPath: alarm) || getuid() == 0
        ? nil : "sound-theme-freedesktop is not installed (\(alarm) is missing)"
    static var isAvailable: Bool { unavailableReason == nil }
}

/// Sound names resolved per the XDG sound-theme specification, on real files.
@Suite(.enabled(if: FreedesktopSounds.isAvailable, "\(FreedesktopSounds.unavailableReason ?? "")"))
struct SoundThemeTests {
    static func touch(_ path: String) {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        precondition(FileManager.default.createFile(atPath: path, contents: Data("OggS".utf8)))
    }

    @Test func freedesktopNamesResolveToTheInstalledFiles() {
        let home = TemporaryDirectory()
        let theme = SoundTheme(theme: "freedesktop", environment: ["HOME": home.path, "XDG_DATA_DIRS": "/usr/share"])
        #expect(theme.resolve("alarm-clock-elapsed") == FreedesktopSounds.alarm)
        #expect(theme.resolve("message-new-instant") == FreedesktopSounds.reminder)
        #expect(theme.resolve("no-such-sound") == nil)
        #expect(theme.resolve("") == nil)
        // Without XDG_DATA_DIRS the specification's default applies.
        #expect(SoundTheme(theme: "freedesktop", environment: ["HOME": home.path]).resolve("bell") == FreedesktopSounds.bell)
    }

    @Test func aCustomThemeComesFirstAndFallsBackToFreedesktop() {
        let directory = TemporaryDirectory()
        let data = directory.path + "/data"
        Self.touch(data + "/sounds/mine/stereo/alarm-clock-elapsed.wav")
        Self.touch(data + "/sounds/mine/stereo/chime.ogg")
        Self.touch(data + "/sounds/mine/stereo/notes.txt")
        let environment = ["HOME": directory.path, "XDG_DATA_HOME": data, "XDG_DATA_DIRS": "/usr/share"]
        let theme = SoundTheme(theme: "mine", environment: environment)
        #expect(theme.resolve("alarm-clock-elapsed") == data + "/sounds/mine/stereo/alarm-clock-elapsed.wav")
        #expect(theme.resolve("chime") == data + "/sounds/mine/stereo/chime.ogg")
        #expect(theme.resolve("bell") == FreedesktopSounds.bell, "falls back to freedesktop")
        #expect(theme.resolve("notes") == nil, "only .oga, .ogg and .wav are sounds")
        #expect(theme.resolve("no-such-sound") == nil)

        let available = theme.available()
        #expect(available.map(\.name) == available.map(\.name).sorted())
        #expect(Set(available.map(\.name)).count == available.count, "each name once")
        let byName = Dictionary(uniqueKeysWithValues: available.map { ($0.name, $0) })
        #expect(byName["alarm-clock-elapsed"]?.theme == "mine")
        #expect(byName["alarm-clock-elapsed"]?.path == data + "/sounds/mine/stereo/alarm-clock-elapsed.wav")
        #expect(byName["chime"]?.theme == "mine")
        #expect(byName["bell"]?.theme == "freedesktop")
        #expect(byName["bell"]?.path == FreedesktopSounds.bell)
        #expect(byName["notes"] == nil)

        // The same theme name under the freedesktop theme alone does not see it.
        #expect(SoundTheme(theme: "freedesktop", environment: environment).resolve("chime") == nil)
    }

    @Test func theUsersDataDirectoryComesBeforeTheSystemsAndOgaBeforeWav() {
        let directory = TemporaryDirectory()
        let data = directory.path + "/data"
        Self.touch(data + "/sounds/freedesktop/stereo/bell.wav")
        Self.touch(data + "/sounds/freedesktop/stereo/bell.oga")
        let theme = SoundTheme(theme: "freedesktop", environment: ["HOME": directory.path, "XDG_DATA_HOME": data, "XDG_DATA_DIRS": "/usr/share"])
        #expect(theme.resolve("bell") == data + "/sounds/freedesktop/stereo/bell.oga")
        #expect(theme.resolve("alarm-clock-elapsed") == FreedesktopSounds.alarm)
    }

    @Test func aRelativeXDGDataHomeIsIgnoredForHomesLocalShare() {
        let directory = TemporaryDirectory()
        Self.touch(directory.path + "/.local/share/sounds/freedesktop/stereo/ding.ogg")
        let theme = SoundTheme(theme: "freedesktop", environment: ["HOME": directory.path, "XDG_DATA_HOME": "relative/data", "XDG_DATA_DIRS": "/usr/share"])
        #expect(theme.resolve("ding") == directory.path + "/.local/share/sounds/freedesktop/stereo/ding.ogg")
    }
}

/// `alarmctl sounds` and sound validation against the real daemon.
@Suite(.enabled(if: FreedesktopSounds.isAvailable, "\(FreedesktopSounds.unavailableReason ?? "")"))
struct SoundCommandTests {
    @Test func alarmctlSoundsListsTheFreedesktopTheme() throws {
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let table = try Alarmctl.ok(["sounds"], daemon).split(separator: "\n").map(String.init)
        #expect(table.first?.matches("NAME +THEME +PATH") == true, "\(table.first ?? "")")
        #expect(table.contains { $0.matches("alarm-clock-elapsed +freedesktop +\(FreedesktopSounds.alarm)") }, "\(table)")
        let sounds = try Alarmctl.json(["sounds"], daemon)["sounds"] as? [[String: Any]] ?? []
        let alarm = sounds.first { $0["name"] as? String == "alarm-clock-elapsed" }
        #expect(alarm?["theme"] as? String == "freedesktop")
        #expect(alarm?["path"] as? String == FreedesktopSounds.alarm)
    }

    @Test func anUnknownSoundIsRefusedWithAHint() throws {
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let unknown = try Alarmctl.run(["add", "7:30", "--sound", "no-such-sound"], daemon)
        #expect(unknown.status == 1)
        #expect(unknown.standardOutput == "")
        #expect(unknown.standardError.hasPrefix("alarmctl: "), "\(unknown.standardError)")
        #expect(unknown.standardError.contains("no-such-sound") && unknown.standardError.contains("alarmctl sounds"), "\(unknown.standardError)")
        let missingFile = try Alarmctl.run(["add", "7:30", "--sound", "/nonexistent/ring.oga"], daemon)
        #expect(missingFile.status == 1, "\(missingFile.standardOutput)")
        #expect(try Alarmctl.ok(["list"], daemon) == "No alarms.\n", "nothing was added")

        try Alarmctl.ok(["add", "7:30", "--sound", "bell"], daemon)
        try Alarmctl.ok(["add", "7:45", "--sound", "none"], daemon)
        try Alarmctl.ok(["add", "8:00", "--sound", FreedesktopSounds.alarm], daemon)
        let sounds = (try Alarmctl.json(["list"], daemon)["alarms"] as? [[String: Any]] ?? []).map { $0["sound"] as? String }
        #expect(sounds == ["bell", "none", FreedesktopSounds.alarm])
    }

    @Test func theConfiguredThemeIsListedAndUsable() throws {
        let directory = TemporaryDirectory()
        let data = directory.path + "/data"
        SoundThemeTests.touch(data + "/sounds/mine/stereo/chime.ogg")
        let daemon = DaemonProcess(directory: directory, config: "[Sound]\nTheme=mine\n", environment: ["XDG_DATA_HOME": data])
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let sounds = try Alarmctl.json(["sounds"], daemon)["sounds"] as? [[String: Any]] ?? []
        let chime = sounds.first { $0["name"] as? String == "chime" }
        #expect(chime?["theme"] as? String == "mine")
        #expect(chime?["path"] as? String == data + "/sounds/mine/stereo/chime.ogg")
        #expect(sounds.contains { $0["name"] as? String == "alarm-clock-elapsed" && $0["theme"] as? String == "freedesktop" })
        try Alarmctl.ok(["add", "7:30", "--sound", "chime"], daemon)
    }
}

/// The player loop, observed through a player script that records its runs.
/// Serialized: each test measures how a player is restarted over a few seconds.
@Suite(.serialized, .enabled(if: FreedesktopSounds.isAvailable, "\(FreedesktopSounds.unavailableReason ?? "")"))
struct SoundLoopTests {
    static func starts(_ log: String) -> [[String]] { DesktopDaemon.playerLog(log).filter { $0.first == "start" } }
    static func pids(_ log: String, _ kind: String) -> [pid_t] { DesktopDaemon.playerLog(log).filter { $0.first == kind }.compactMap { pid_t($0[1]) } }

    /// A daemon in `directory` that plays sounds with `player` (its `Player=`
    /// line), and the id of a reminder titled `title` that it rings a second
    /// later. The caller stops the daemon.
    static func ring(_ title: String, player: String, in directory: TemporaryDirectory,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> (daemon: DaemonProcess, id: String) {
        let daemon = try DesktopDaemon.start(config: "[Sound]\nPlayer=\(player)\n", desktop: nil, directory: directory)
        do {
            let id = try DesktopDaemon.remind(title, in: 1, daemon)
            #expect(try DesktopDaemon.waitRinging(id, daemon), sourceLocation: sourceLocation)
            return (daemon, id)
        } catch {
            daemon.stop()
            throw error
        }
    }

    /// A player script `name` in `directory` that logs `start <pid> <arguments>
    /// <time>` to its log, then runs the shell lines `then`.
    static func writePlayer(_ name: String, in directory: TemporaryDirectory, then: String) -> (script: String, log: String) {
        let script = directory.path + "/" + name
        let log = directory.path + "/player.log"
        writeExecutable(script, "#!/bin/sh\necho \"start $$ $* $(date +%s.%N)\" >> '\(log)'\n\(then)\n")
        return (script, log)
    }

    @Test func thePlayerLoopsWhileRingingAndStopsOnDismiss() throws {
        let directory = TemporaryDirectory()
        let player = DesktopDaemon.writeRecordingPlayer(in: directory.path)
        // Arguments after the program are passed as they are, never through a shell.
        let (daemon, id) = try Self.ring("Tea", player: "\(player.script) --volume '0.5 $HOME'", in: directory)
        defer { daemon.stop() }
        #expect(waitUntil(timeout: 5) { Self.starts(player.log).count >= 3 }, "player log: \(DesktopDaemon.playerLog(player.log))")
        for start in Self.starts(player.log) {
            #expect(Array(start.dropFirst(2).dropLast()) == ["--volume", "0.5", "$HOME", FreedesktopSounds.reminder], "\(start)")
        }
        // Played one after the other, not in a tight loop.
        let times = Self.starts(player.log).compactMap { Double($0.last ?? "") }
        for (earlier, later) in zip(times, times.dropFirst()) { #expect(later - earlier > 0.25, "\(times)") }

        let dismissed = Date().timeIntervalSince1970
        try Alarmctl.ok(["dismiss", id], daemon)
        #expect(waitUntil(timeout: 5) { !Self.pids(player.log, "stop").isEmpty }, "no stop: \(DesktopDaemon.playerLog(player.log))")
        let stopped = DesktopDaemon.playerLog(player.log).first { $0.first == "stop" }.flatMap { Double($0.last ?? "") }
        #expect(stopped.map { $0 - dismissed < 1 } == true, "the sound stops within a second of dismiss: stopped \(stopped.map { $0 - dismissed } ?? -1) s after")
        let count = Self.starts(player.log).count
        #expect(Self.pids(player.log, "stop") == [pid_t(Self.starts(player.log).last![1])!], "the running player was stopped")
        usleep(1_000_000)
        #expect(Self.starts(player.log).count == count, "no new start after dismiss")
        for pid in Self.pids(player.log, "start") + Self.pids(player.log, "child") { #expect(!processIsAlive(pid), "\(pid) still runs") }
    }

    @Test func stoppingTheDaemonStopsAPlayerAndItsChildren() throws {
        let directory = TemporaryDirectory()
        let player = DesktopDaemon.writeRecordingPlayer(in: directory.path, seconds: "30")
        let (daemon, _) = try Self.ring("Long song", player: player.script, in: directory)
        #expect(waitUntil(timeout: 5) { !Self.pids(player.log, "child").isEmpty })
        #expect(daemon.stop() == 0)
        #expect(Self.starts(player.log).count == 1)
        #expect(waitUntil(timeout: 5) { !Self.pids(player.log, "stop").isEmpty }, "\(DesktopDaemon.playerLog(player.log))")
        let all = Self.pids(player.log, "start") + Self.pids(player.log, "child")
        #expect(waitUntil(timeout: 3) { all.allSatisfy { !processIsAlive($0) } }, "left behind: \(all.filter(processIsAlive))")
    }

    @Test func anAlarmPlaysItsOwnSound() throws {
        let directory = TemporaryDirectory()
        let player = DesktopDaemon.writeRecordingPlayer(in: directory.path)
        let file = directory.path + "/own sound.wav"
        SoundThemeTests.touch(file)
        let daemon = DaemonProcess(directory: directory, config: "[Sound]\nPlayer=\(player.script)\n",
                                   environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(directory.path)/no-bus"])
        let now = Date()
        let time = try DaemonProcessTests.utcMinute(of: now)
        let created = now.addingTimeInterval(-86_400 * 2)
        let own = Alarm(time: time, days: .everyDay, label: "Own", sound: .file(file), created: created)
        let silent = Alarm(time: time, days: .everyDay, label: "Silent", sound: .none, created: created)
        let gone = Alarm(time: time, days: .everyDay, label: "Gone", sound: .themed("gone-sound"), created: created)
        try DaemonProcessTests.seed(daemon, alarms: [own, silent, gone], anchoredAt: now.addingTimeInterval(-86_400))
        _ = JournalFixture.isAvailable
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let ringing = try waitUntil(timeout: 10) { (try Alarmctl.json(["status"], daemon)["ringing"] as? [String] ?? []).count == 3 }
        #expect(ringing)
        #expect(waitUntil(timeout: 5) { Self.starts(player.log).count >= 3 })
        #expect(Set(Self.starts(player.log).map { $0.dropFirst(2).dropLast().joined(separator: " ") }) == [file], "only the alarm with a sound plays")
        let log = DesktopDaemon.waitForLog(daemon) { $0.contains { $0.contains("gone-sound") } }
        let missing = log.filter { $0.contains("gone-sound") }
        #expect(missing == ["Alarm \"Gone\" (\(time), Every day): no sound named gone-sound in the freedesktop theme; ringing silently (see alarmctl sounds)"], "\(log)")
    }

    @Test func aCrashingPlayerIsLoggedOnceAndNotRestarted() throws {
        let directory = TemporaryDirectory()
        let (script, log) = Self.writePlayer("crash.sh", in: directory, then: "echo 'no audio device' >&2\nexit 1")
        let (daemon, id) = try Self.ring("Crash", player: script, in: directory)
        defer { daemon.stop() }
        let lines = DesktopDaemon.waitForLog(daemon) { $0.contains { $0.contains("the sound player") } }
        usleep(1_500_000)
        #expect(Self.starts(log).count == 1, "started once: \(DesktopDaemon.playerLog(log))")
        let reports = DesktopDaemon.log(daemon).filter { $0.contains("the sound player") }
        #expect(reports == ["Reminder \"Crash\": the sound player \(script) \(FreedesktopSounds.reminder) exited with status 1; not restarting it for this ring"], "\(lines)")
        // The item rings on (notification, journal) and can be dismissed.
        #expect(try DesktopDaemon.phase(id, daemon) == "ringing")
        try Alarmctl.ok(["dismiss", id], daemon)
    }

    @Test func aPlayerThatEndsAtOnceIsNotRestartedInATightLoop() throws {
        let directory = TemporaryDirectory()
        let (script, log) = Self.writePlayer("instant.sh", in: directory, then: "exit 0")
        let (daemon, id) = try Self.ring("Blip", player: script, in: directory)
        defer { daemon.stop() }
        #expect(waitUntil(timeout: 5) { !Self.starts(log).isEmpty })
        usleep(2_500_000)
        try Alarmctl.ok(["dismiss", id], daemon)
        let times = Self.starts(log).compactMap { Double($0.last ?? "") }
        #expect(times.count >= 3 && times.count <= 8, "restarted, at most twice a second: \(times.count) starts")
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(later - earlier >= SoundLoop.minimumInterval - 0.05, "\(times)")
        }
        #expect(!DesktopDaemon.log(daemon).contains { $0.contains("the sound player") }, "ending with status 0 is no failure")
    }

    @Test func aPlayerThatFailsAfterRunningIsLoggedOnceAndRestarted() throws {
        let directory = TemporaryDirectory()
        let (script, log) = Self.writePlayer("late-fail.sh", in: directory, then: "sleep 1.1\nexit 3")
        let (daemon, id) = try Self.ring("Flaky", player: script, in: directory)
        defer { daemon.stop() }
        #expect(waitUntil(timeout: 10) { Self.starts(log).count >= 3 }, "restarted: \(DesktopDaemon.playerLog(log))")
        let reports = DesktopDaemon.log(daemon).filter { $0.contains("the sound player") }
        #expect(reports.count == 1, "logged once per ring: \(reports)")
        let prefix = "Reminder \"Flaky\": the sound player \(script) \(FreedesktopSounds.reminder) exited with status 3 after "
        #expect(reports.first?.hasPrefix(prefix) == true && reports.first?.hasSuffix(" s; restarting it") == true, "\(reports)")
        try Alarmctl.ok(["dismiss", id], daemon)
    }

    /// A player (and what it started) that ignores SIGTERM.
    static func writeStubbornPlayer(in directory: String) -> (script: String, log: String) {
        let script = directory + "/stubborn.sh"
        let log = directory + "/player.log"
        writeExecutable(script, """
            #!/bin/sh
            trap '' TERM
            echo "start $$ $* $(date +%s.%N)" >> '\(log)'
            sleep 30 &
            echo "child $!" >> '\(log)'
            wait $!

            """)
        return (script, log)
    }

    @Test func aPlayerIgnoringSIGTERMIsKilledAfterTheGrace() throws {
        let directory = TemporaryDirectory()
        let player = Self.writeStubbornPlayer(in: directory.path)
        let (daemon, id) = try Self.ring("Stubborn", player: player.script, in: directory)
        defer { daemon.stop() }
        #expect(waitUntil(timeout: 5) { !Self.pids(player.log, "child").isEmpty })
        let all = Self.pids(player.log, "start") + Self.pids(player.log, "child")
        let dismissed = Date()
        try Alarmctl.ok(["dismiss", id], daemon)
        usleep(300_000)
        #expect(all.allSatisfy(processIsAlive), "SIGTERM is ignored, so they live until the grace is over")
        #expect(waitUntil(timeout: 5) { all.allSatisfy { !processIsAlive($0) } }, "left behind: \(all.filter(processIsAlive))")
        let took = Date().timeIntervalSince(dismissed)
        #expect(took >= SoundLoop.stopGrace - 0.1 && took < SoundLoop.stopGrace + 1, "killed after \(took) s")
        #expect(Self.starts(player.log).count == 1)
    }

    @Test func stoppingTheDaemonKillsAPlayerIgnoringSIGTERM() throws {
        let directory = TemporaryDirectory()
        let player = Self.writeStubbornPlayer(in: directory.path)
        let (daemon, _) = try Self.ring("Stubborn", player: player.script, in: directory)
        #expect(waitUntil(timeout: 5) { !Self.pids(player.log, "child").isEmpty })
        let all = Self.pids(player.log, "start") + Self.pids(player.log, "child")
        #expect(daemon.stop() == 0)
        #expect(waitUntil(timeout: 3) { all.allSatisfy { !processIsAlive($0) } }, "left behind: \(all.filter(processIsAlive))")
    }
}

/// A player that cannot run must not stop the rest of the ring.
@Suite(.serialized, .enabled(if: DesktopSession.isAvailable && FreedesktopSounds.isAvailable,
                             "\(DesktopSession.unavailableReason ?? FreedesktopSounds.unavailableReason ?? "")"))
struct MissingPlayerTests {
    @Test func aMissingPlayerIsLoggedOncePerRingAndTheNotificationStillAppears() throws {
        let desktop = try DesktopSession()
        let daemon = try DesktopDaemon.start(config: "[Sound]\nPlayer=/nonexistent/player --loud\n", desktop: desktop)
        defer { withExtendedLifetime(desktop) { _ = daemon.stop() } }
        let first = try DesktopDaemon.remind("First", in: 1, daemon)
        let second = try DesktopDaemon.remind("Second", in: 2, daemon)
        for title in ["First", "Second"] {
            #expect(desktop.waitForNotify(summary: title) != nil, "no notification for \(title): \(desktop.monitorText)")
        }
        #expect(try DesktopDaemon.waitRinging(first, daemon) && DesktopDaemon.waitRinging(second, daemon))
        let log = DesktopDaemon.waitForLog(daemon) { $0.filter { $0.contains("cannot start the sound player") }.count >= 2 }
        usleep(1_000_000)
        let failures = DesktopDaemon.log(daemon).filter { $0.contains("cannot start the sound player") }
        #expect(failures.count == 2, "once per ring: \(log)")
        for title in ["First", "Second"] {
            let line = failures.filter { $0.hasPrefix("Reminder \"\(title)\": ") }
            #expect(line.count == 1, "\(failures)")
            #expect(line.first?.contains("/nonexistent/player") == true && line.first?.contains("No such file or directory") == true, "\(line)")
        }

        // The notifications go with snooze and dismiss as usual.
        try Alarmctl.ok(["snooze", first, "--minutes", "1"], daemon)
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 1 })
        try Alarmctl.ok(["dismiss", second], daemon)
        #expect(waitUntil(timeout: 5) { desktop.displayedCount == 0 })
    }
}

/// Which player and which sound, when alarmd.conf leaves them to the defaults
/// or names them.
@Suite(.serialized, .enabled(if: FreedesktopSounds.isAvailable, "\(FreedesktopSounds.unavailableReason ?? "")"))
struct SoundDefaultsTests {
    /// The first of pw-play, paplay, ogg123, aplay found on PATH, in that
    /// order of preference, whichever PATH directory holds it.
    @Test func theDefaultPlayerIsTheFirstCandidateOnPath() {
        let directory = TemporaryDirectory()
        let first = directory.path + "/first", second = directory.path + "/second"
        for (folder, name) in [(first, "aplay"), (first, "paplay"), (second, "pw-play")] {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            writeExecutable("\(folder)/\(name)", "#!/bin/sh\nexit 0\n")
        }
        #expect(SoundLoop.defaultPlayer(path: "\(first):\(second)") == ["\(second)/pw-play"])
        #expect(SoundLoop.defaultPlayer(path: first) == ["\(first)/paplay"])
        #expect(SoundLoop.defaultPlayer(path: directory.path + "/none:" + directory.path) == nil)
        // A file that is not executable does not count.
        _ = FileManager.default.createFile(atPath: directory.path + "/ogg123", contents: Data("#!/bin/sh\n".utf8))
        #expect(SoundLoop.defaultPlayer(path: directory.path) == nil)
    }

    /// Without Player= the daemon finds one on its PATH; ReminderSound= is what
    /// a reminder plays.
    @Test func withoutPlayerTheDefaultIsFoundAndReminderSoundIsPlayed() throws {
        let directory = TemporaryDirectory()
        let bin = directory.path + "/bin"
        let recording = DesktopDaemon.writeRecordingPlayer(in: directory.path)
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/pw-play", withDestinationPath: recording.script)
        let daemon = try DesktopDaemon.start(config: "[Sound]\nReminderSound=bell\n", desktop: nil, directory: directory,
                                             environment: ["PATH": "\(bin):/usr/bin:/bin"])
        defer { daemon.stop() }
        let id = try DesktopDaemon.remind("Tea", in: 1, daemon)
        #expect(try DesktopDaemon.waitRinging(id, daemon))
        #expect(waitUntil(timeout: 5) { !SoundLoopTests.starts(recording.log).isEmpty }, "daemon: \(DesktopDaemon.log(daemon))")
        // Given [Sound] Volume= (80 by default) as pw-play takes it.
        #expect(SoundLoopTests.starts(recording.log).first.map { Array($0.dropFirst(2).dropLast()) } == ["--volume=0.8", FreedesktopSounds.bell])
    }

    /// With no player anywhere on PATH the ring is logged once with what was
    /// tried and what to do; the item still rings.
    @Test func noPlayerAnywhereIsSaidOnce() throws {
        let directory = TemporaryDirectory()
        let empty = directory.path + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let daemon = try DesktopDaemon.start(config: "", desktop: nil, directory: directory, environment: ["PATH": empty])
        defer { daemon.stop() }
        let id = try DesktopDaemon.remind("Quiet", in: 1, daemon)
        #expect(try DesktopDaemon.waitRinging(id, daemon))
        let log = DesktopDaemon.waitForLog(daemon) { $0.contains { $0.contains("no sound player found") } }
        #expect(log.filter { $0.contains("no sound player found") } == ["Reminder \"Quiet\": no sound player found (tried pw-play, paplay, ogg123, aplay); set Player= in alarmd.conf"], "\(log)")
    }

    /// AlarmSound= is the sound a new alarm gets when the request names none.
    @Test func alarmSoundIsTheDefaultForNewAlarms() throws {
        let daemon = DaemonProcess(config: "[Sound]\nAlarmSound=bell\n")
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let added = try Alarmctl.json(["add", "7:30"], daemon)
        #expect((added["alarm"] as? [String: Any])?["sound"] as? String == "bell")
        let chosen = try Alarmctl.json(["add", "8:30", "--sound", "none"], daemon)
        #expect((chosen["alarm"] as? [String: Any])?["sound"] as? String == "none")
    }
}

/// The check that an alarm's sound file decodes, which runs when an alarm is
/// added or edited. It remembers a file that decoded (so a client adding
/// alarms in a loop does not decode it each time: bench/ measures that), and
/// here it must notice every change to the file, even one that keeps its
/// size and modification time.
@Suite(.enabled(if: FreedesktopSounds.isAvailable, "\(FreedesktopSounds.unavailableReason ?? "")"))
struct SoundFileCheckTests {
    @Test func aSoundFileIsCheckedAgainOnceItChanges() throws {
        let directory = TemporaryDirectory()
        let file = directory.path + "/own.oga"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("OggS, but nothing a codec reads".utf8)))
        let daemon = DaemonProcess(directory: directory)
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let added = try Alarmctl.json(["add", "7:30", "--label", "Own", "--sound", file], daemon)
        let id = try #require((added["alarm"] as? [String: Any])?["id"] as? String)
        /// The alarm's warnings about `file`; `nil` when `show` failed.
        func fileWarnings() -> [String]? {
            guard let shown = try? Alarmctl.json(["show", id], daemon), let warnings = shown["warnings"] as? [String] else { return nil }
            return warnings.filter { $0.contains(file) }
        }
        #expect(waitUntil(timeout: 10) { fileWarnings()?.isEmpty == false }, "no warning for a file that does not decode; \(daemon.standardError)")

        // Replaced by a sound that plays: the next edit's check finds it fine.
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.copyItem(atPath: FreedesktopSounds.alarm, toPath: file)
        try Alarmctl.ok(["edit", id, "--label", "Own, fixed"], daemon)
        #expect(waitUntil(timeout: 10) { fileWarnings() == [] }, "\(String(describing: fileWarnings()))")

        // Broken in place with as many bytes, and its modification time put
        // back (as `cp -p` or `rsync -t` leave it): found again, not
        // remembered as fine.
        var before = stat()
        #expect(stat(file, &before) == 0)
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.write(contentsOf: Data(repeating: 0x5a, count: Int(before.st_size)))
        try handle.close()
        // To the nanosecond, which Foundation's Date would round.
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        var after = stat()
        #expect(stat(file, &after) == 0)
        #expect(after.st_size == before.st_size && after.st_ino == before.st_ino)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        try Alarmctl.ok(["edit", id, "--label", "Own, broken"], daemon)
        #expect(waitUntil(timeout: 10) { fileWarnings()?.isEmpty == false }, "a changed file was not checked again")
    }
}

/// `sounds --play` exists to hear the wake-up sound: a player that fails is
/// said, with why, and alarmctl exits 1; one that plays is said so.
@Suite(.serialized, .enabled(if: FreedesktopSounds.isAvailable, "\(FreedesktopSounds.unavailableReason ?? "")"))
struct SoundPreviewTests {
    @Test func aPlayerThatFailsIsSaidAndExits1() throws {
        let directory = TemporaryDirectory()
        let failing = directory.path + "/failing-player", playing = directory.path + "/playing-player"
        writeExecutable(failing, "#!/bin/sh\necho 'cannot open audio device' >&2\nexit 1\n")
        writeExecutable(playing, "#!/bin/sh\nsleep 3\n")
        for (player, heard) in [(failing, false), (playing, true)] {
            let daemon = try DesktopDaemon.start(config: "[Sound]\nPlayer=\(player)\n", desktop: nil, directory: TemporaryDirectory())
            defer { _ = daemon.stop() }
            let result = try Alarmctl.run(["sounds", "--play", FreedesktopSounds.bell], daemon)
            if heard {
                #expect(result.status == 0, "\(result.standardError)")
                #expect(result.standardOutput.hasPrefix("Playing \(FreedesktopSounds.bell) at "))
            } else {
                #expect(result.status == 1)
                #expect(result.standardOutput.isEmpty)
                // Why first (what the daemon found, if anything), then the player's failure.
                #expect(result.standardError.hasPrefix("alarmctl: \(FreedesktopSounds.bell) is not being heard: "), "\(result.standardError)")
                #expect(result.standardError.contains("the sound player \(player)"), "\(result.standardError)")
                #expect(result.standardError.contains("exited with status 1"), "\(result.standardError)")
                // The reply says so too, for a script reading --json.
                let json = try Alarmctl.run(["sounds", "--play", FreedesktopSounds.bell, "--json"], daemon)
                #expect(json.status == 1 && json.standardOutput.contains("\"notHeard\""), "\(json.standardOutput)")
            }
        }
    }
}

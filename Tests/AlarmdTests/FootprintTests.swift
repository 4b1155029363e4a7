// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import SystemCalls
import Testing

/// What alarmd holds all day: its binary links neither Foundation proper
/// (and with it ICU), nor the sound libraries (a sound process,
/// alarmd-sound, plays and checks sounds), nor any network library (CalDAV
/// sync runs in alarmd-sync), nor libsystemd (the journal, the service
/// manager and D-Bus are spoken by their protocols); a running daemon
/// without `[Sync]` never maps the network libraries, the sound stack,
/// libsystemd or ICU.
@Suite struct FootprintTests {
    /// Libraries alarmd must never map without `[Sync]`: the network stack,
    /// ICU, and Foundation's parts beyond FoundationEssentials.
    static let never = ["libcurl", "libxml2", "libssl", "libcrypto", "libgnutls", "libnghttp2", "libldap", "libgssapi", "libkrb5",
                        "libicu", "_FoundationICU", "libFoundation.so", "libFoundationInternationalization"]
    static let sound = ["libpulse", "libsndfile"]

    /// The shared objects mapped in process `pid`, by file name.
    static func mapped(_ pid: Int32) throws -> Set<String> {
        // (Foundation reads a /proc file's first page only: its size says 0.)
        let maps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps")).readToEnd().map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Set(maps.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first, path.contains(".so") else { return nil }
            return String(path.split(separator: "/").last!)
        })
    }

    @Test func theDaemonLinksNoFoundationICUSoundOrNetworkLibrary() throws {
        let needed = try WakeHelperBinaryTests.neededLibraries(productsDirectory + "/alarmd")
        for name in Self.never + Self.sound {
            #expect(!needed.contains { $0.hasPrefix(name) || $0.contains(name) }, "alarmd links \(needed.filter { $0.contains(name) }.sorted())")
        }
        // The journal, the service manager and D-Bus by their protocols; libsystemd only by dlopen, after a crash.
        #expect(!needed.contains("libsystemd.so.0") && needed.contains("libsqlite3.so.0"), "the reading of readelf found \(needed.sorted())")
    }

    /// The sync process links the network stack, and Foundation no more than
    /// alarmd does (libxml2 brings the system's ICU, which it needs).
    @Test func theSyncProcessLinksNoFoundationProper() throws {
        let needed = try WakeHelperBinaryTests.neededLibraries(productsDirectory + "/alarmd-sync")
        for name in ["libFoundation.so", "libFoundationInternationalization", "_FoundationICU"] {
            #expect(!needed.contains { $0.contains(name) }, "alarmd-sync links \(needed.filter { $0.contains(name) }.sorted())")
        }
        #expect(needed.contains { $0.hasPrefix("libcurl") } && needed.contains { $0.hasPrefix("libxml2") }, "the reading of readelf found \(needed.sorted())")
    }

    /// The process ids of `pid`'s children named `name`.
    static func children(of pid: Int32, named name: String) -> [Int32] {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return [] }
        return tasks.flatMap { task -> [Int32] in
            let listed = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return listed.split(separator: " ").compactMap { Int32($0) }
        }.filter { child in
            ((try? String(contentsOfFile: "/proc/\(child)/comm", encoding: .utf8)) ?? "").hasPrefix(name)
        }
    }

    /// A ring through a real PulseAudio server: the stream is played by a
    /// sound process (alarmd-sound), which maps the sound stack; alarmd
    /// never does, before, during or after the ring.
    @Test func aRunningDaemonMapsNoNetworkSoundOrICULibraryAndARingPlaysInASoundProcess() throws {
        let server = try PulseServer()
        let directory = TemporaryDirectory()
        let tone = try SoundServerTests.tone(in: directory.path)
        let daemon = DaemonProcess(directory: directory, config: "[Sound]\nReminderSound=\(tone)\n", environment: server.environment)
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let pid = daemon.process.processIdentifier
        let idle = try Self.mapped(pid)
        #expect(idle.contains { $0.hasPrefix("libsqlite3") } && !idle.contains { $0.hasPrefix("libsystemd") }, "the reading of maps found \(idle.sorted())")
        for name in Self.never + Self.sound {
            #expect(!idle.contains { $0.contains(name) }, "an idle alarmd maps \(idle.filter { $0.contains(name) }.sorted())")
        }
        let added = try Alarmctl.json(["remind", "add", "Tea", "--in", "1s"], daemon)
        let id = try #require((added["reminder"] as? [String: Any])?["id"] as? String)
        var players: [Int32] = []
        #expect(waitUntil(timeout: 10) {
            players = Self.children(of: pid, named: "alarmd-sound")
            return !players.isEmpty && server.sinkInputs().contains { $0["application.name"] == "alarmd" }
        }, "no sound process with a stream on the server: \(daemon.standardError)")
        let player = try #require(players.first)
        let playing = try Self.mapped(player)
        #expect(playing.contains { $0.hasPrefix("libsndfile") } && playing.contains { $0.hasPrefix("libpulse") }, "\(playing.sorted())")
        let ringing = try Self.mapped(pid)
        for name in Self.never + Self.sound {
            #expect(!ringing.contains { $0.contains(name) }, "a ringing alarmd maps \(ringing.filter { $0.contains(name) }.sorted())")
        }
        try Alarmctl.ok(["dismiss", id], daemon)
        #expect(waitUntil(timeout: 3) { Self.children(of: pid, named: "alarmd-sound").isEmpty && server.sinkInputs().isEmpty },
                "the sound process or its stream outlived Dismiss")
        let after = try Self.mapped(pid)
        for name in Self.sound { #expect(!after.contains { $0.contains(name) }) }
    }

    /// Idle, alarmd is two threads: its main thread, which serves the event
    /// loop (the owner's every descriptor and timer), and libdispatch's
    /// manager; the workers a start used leave once idle.
    @Test func anIdleDaemonRunsOnTwoThreads() throws {
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let pid = daemon.process.processIdentifier
        func threads() -> [String] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.map { ((try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8)) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        #expect(waitUntil(timeout: 60, interval: 0.5) { threads().count <= 2 }, "threads after a minute idle: \(threads())")
        #expect(!threads().contains("alarmd.events"), "the event loop has a thread of its own: \(threads())")
        #expect(try Alarmctl.ok(["status"], daemon).contains("alarms:"))
    }

    /// Kilobytes resident in `pid`'s clean read-only file mappings (its code
    /// and read-only data, its own and its libraries'): what ``CleanPages``
    /// may release.
    static func cleanResidentKB(_ pid: Int32) -> Int {
        CleanPages.mappings(in: "/proc/\(pid)/smaps").filter(\.releasable).map(\.residentKB).reduce(0, +)
    }

    /// After a quiet spell alarmd gives back the clean pages its start mapped,
    /// and serves the next request from the page cache.
    @Test func anIdleDaemonGivesBackItsCleanPagesAfterAQuietSpell() throws {
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let pid = daemon.process.processIdentifier
        let started = Self.cleanResidentKB(pid)
        #expect(started > 1024, "only \(started) KiB of clean pages resident after the start")
        var now = started
        #expect(waitUntil(timeout: 60, interval: 1) { now = Self.cleanResidentKB(pid); return now < started / 4 },
                "\(now) KiB of \(started) still resident after a minute idle")
        #expect(try Alarmctl.ok(["status"], daemon).contains("alarms:"))
    }
}

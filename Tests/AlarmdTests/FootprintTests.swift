// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// What alarmd holds all day: its binary links neither Foundation proper
/// (and with it ICU), nor the sound libraries (opened with dlopen when
/// something rings or its audibility is checked, which the first check
/// after start does), nor any network library (CalDAV sync runs in
/// alarmd-sync); a running daemon without `[Sync]` never maps the network
/// libraries or ICU, and maps the sound stack once it is used.
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
        #expect(needed.contains("libsystemd.so.0") && needed.contains("libsqlite3.so.0"), "the reading of readelf found \(needed.sorted())")
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

    @Test func aRunningDaemonMapsNoNetworkLibraryOrICUAndTheSoundStackForARing() throws {
        let daemon = DaemonProcess()
        try daemon.startAndWaitReady()
        defer { daemon.stop() }
        let pid = daemon.process.processIdentifier
        let idle = try Self.mapped(pid)
        #expect(idle.contains { $0.hasPrefix("libsystemd") }, "the reading of maps found \(idle.sorted())")
        for name in Self.never {
            #expect(!idle.contains { $0.contains(name) }, "an idle alarmd maps \(idle.filter { $0.contains(name) }.sorted())")
        }
        // A ring opens the sound stack (to decode its sound, to reach a server).
        try Alarmctl.ok(["remind", "add", "Tea", "--in", "1s"], daemon)
        var ringing: Set<String> = []
        for _ in 0..<100 where !ringing.contains(where: { $0.hasPrefix("libsndfile") }) {
            usleep(100_000)
            ringing = try Self.mapped(pid)
        }
        #expect(ringing.contains { $0.hasPrefix("libsndfile") } && ringing.contains { $0.hasPrefix("libpulse") }, "\(ringing.sorted())")
        for name in Self.never { #expect(!ringing.contains { $0.contains(name) }) }
    }
}

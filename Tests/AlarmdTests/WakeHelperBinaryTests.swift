// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
import Testing

/// `alarmd-wake` runs with `CAP_WAKE_ALARM` for every local user, so it holds
/// nothing it does not use: its own modules, Dispatch and the C library (the
/// listening socket and the journal by their protocols), and no libsystemd,
/// Foundation, SQLite, sound or network library. Checked on the binaries themselves: the
/// compiler would not notice a dependency added in Package.swift.
@Suite struct WakeHelperBinaryTests {
    /// The `DT_NEEDED` entries of the ELF file at `path`, as `readelf -d` lists them.
    static func neededLibraries(_ path: String) throws -> Set<String> {
        let result = Tool.run("/usr/bin/readelf", ["-d", "-W", path], timeout: 30)
        guard result.status == 0 else { throw HarnessError(description: "readelf -d \(path): \(result.standardError)") }
        return Set(result.standardOutput.split(separator: "\n").compactMap { line in
            line.contains("(NEEDED)") ? line.firstMatch(of: #/\[(.+)\]/#).map { String($0.output.1) } : nil
        })
    }

    /// The C side, in every build: the C library and its dynamic loader
    /// (`__tls_get_addr`, for thread-local storage).
    static let system: Set<String> = ["libc.so.6", "libm.so.6", "ld-linux-x86-64.so.2"]
    /// The Swift runtime as shared libraries (a build without
    /// `--static-swift-stdlib`): the standard library, Dispatch, the
    /// modules the compiler links into every program, and Synchronization
    /// (the journal's lock that keeps lines to standard error whole).
    static let sharedSwiftRuntime: Set<String> = [
        "libswiftCore.so", "libswift_Concurrency.so", "libswift_StringProcessing.so", "libswift_RegexParser.so",
        "libswiftGlibc.so", "libBlocksRuntime.so", "libdispatch.so", "libswiftDispatch.so", "libswiftSynchronization.so",
    ]
    /// The Swift runtime linked in (`--static-swift-stdlib`): what it needs of the system.
    static let staticSwiftRuntime: Set<String> = ["libstdc++.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2"]

    @Test func theHelperThisBuildMadeLinksOnlyTheCLibraryAndTheSwiftRuntime() throws {
        let needed = try Self.neededLibraries(productsDirectory + "/alarmd-wake")
        let debugOnly: Set<String> = ["libswiftSwiftOnoneSupport.so"]
        let expected = needed.contains("libswiftCore.so")
            ? Self.system.union(Self.sharedSwiftRuntime).union(needed.intersection(debugOnly))
            : Self.system.union(Self.staticSwiftRuntime)
        #expect(needed == expected, "more: \(needed.subtracting(expected).sorted()), fewer: \(expected.subtracting(needed).sorted())")
    }

    /// The release build `make install` and the Debian package ship
    /// (`--static-swift-stdlib`): `ALARMD_WAKE_RELEASE`, else
    /// `.build/release/alarmd-wake` when it is such a build (`make install`,
    /// or `swift build -c release --static-swift-stdlib --product alarmd-wake`).
    static let releaseHelper: String? = {
        let path = ProcessInfo.processInfo.environment["ALARMD_WAKE_RELEASE"] ?? InstallTests.root + "/.build/release/alarmd-wake"
        guard FileManager.default.fileExists(atPath: path), let needed = try? neededLibraries(path), !needed.contains("libswiftCore.so") else { return nil }
        return path
    }()

    /// Stripped as `make install` leaves it to the packager, at most 10 MB,
    /// where the helper built on the daemon's modules was 61 MB stripped.
    @Test(.enabled(if: releaseHelper != nil, "no release build of alarmd-wake with --static-swift-stdlib: swift build -c release --static-swift-stdlib --product alarmd-wake makes one"))
    func theReleaseHelperIsStaticallyLinkedToSwiftAndAtMostTenMegabytesStripped() throws {
        let path = try #require(Self.releaseHelper)
        let needed = try Self.neededLibraries(path)
        #expect(needed == Self.system.union(Self.staticSwiftRuntime), "more: \(needed.subtracting(Self.system.union(Self.staticSwiftRuntime)).sorted())")
        let directory = TemporaryDirectory()
        let stripped = directory.path + "/alarmd-wake"
        let strip = Tool.run("/usr/bin/strip", ["-o", stripped, path], timeout: 60)
        try #require(strip.status == 0, "strip: \(strip.standardError)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: stripped)[.size] as? Int)
        #expect(size <= 10_000_000, "\(size) bytes stripped")
    }

    /// The sources of the helper's modules import no Foundation at all, not
    /// even FoundationEssentials: the linker would bring it in, with ICU's
    /// data when it is the whole of Foundation.
    @Test func theHelpersModulesDoNotImportFoundation() throws {
        var offenders: [String] = []
        for target in ["VarlinkCore", "AlarmWake", "CivilCalendar", "SystemCalls", "alarmd-wake"] {
            let directory = InstallTests.root + "/Sources/" + target
            let files = try FileManager.default.subpathsOfDirectory(atPath: directory).filter { $0.hasSuffix(".swift") }
            #expect(!files.isEmpty, "\(target) has no sources")
            for file in files {
                let source = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
                if source.contains(#/(?m)^\s*(@testable\s+|@_exported\s+)?import\s+Foundation\w*\s*$/#) {
                    offenders.append(target + "/" + file)
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}

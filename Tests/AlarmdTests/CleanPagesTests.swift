// SPDX-License-Identifier: Apache-2.0
import Foundation
import Glibc
@testable import SystemCalls
import Testing

/// What an idle alarmd gives back. A clean read-only file mapping is
/// unmapped and reads the file's bytes again; a mapping holding a copied
/// page (as the loader's RELRO does once it has relocated) keeps its copy; a
/// writable mapping is never touched.
@Suite struct CleanPagesTests {
    static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// A file of `pages` pages, each filled with its index, mapped privately.
    static func mapped(_ directory: TemporaryDirectory, _ name: String, pages: Int, protection: Int32) throws -> UnsafeMutableRawPointer {
        let path = directory.path + "/" + name
        let bytes = (0..<pages).flatMap { [UInt8](repeating: UInt8($0 + 1), count: page) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        let address = mmap(nil, pages * page, protection, MAP_PRIVATE, fd, 0)
        try #require(address != MAP_FAILED)
        return try #require(address)
    }

    static func mapping(at address: UnsafeMutableRawPointer) -> CleanPages.Mapping? {
        CleanPages.mappings().first { $0.start == UInt(bitPattern: address) }
    }

    static func touch(_ address: UnsafeMutableRawPointer, pages: Int) -> [UInt8] {
        (0..<pages).map { address.load(fromByteOffset: $0 * page + 7, as: UInt8.self) }
    }

    @Test func aCleanReadOnlyMappingIsUnmappedAndReadsTheFileAgain() throws {
        let directory = TemporaryDirectory()
        let pages = 8
        let clean = try Self.mapped(directory, "clean", pages: pages, protection: PROT_READ)
        defer { munmap(clean, pages * Self.page) }
        #expect(Self.touch(clean, pages: pages) == (1...pages).map(UInt8.init))
        let before = try #require(Self.mapping(at: clean))
        #expect(before.releasable && before.residentKB == pages * Self.page / 1024, "\(before)")

        CleanPages.release()
        let after = try #require(Self.mapping(at: clean))
        #expect(after.residentKB == 0, "still resident: \(after)")
        #expect(Self.touch(clean, pages: pages) == (1...pages).map(UInt8.init))
    }

    @Test func aMappingWithACopiedPageOrWritableKeepsWhatWasWritten() throws {
        let directory = TemporaryDirectory()
        let pages = 4
        // Written, then made read-only: how the loader leaves a relocated RELRO.
        let relocated = try Self.mapped(directory, "relocated", pages: pages, protection: PROT_READ | PROT_WRITE)
        defer { munmap(relocated, pages * Self.page) }
        relocated.storeBytes(of: 0xEE, toByteOffset: 7, as: UInt8.self)
        #expect(mprotect(relocated, pages * Self.page, PROT_READ) == 0)
        let writable = try Self.mapped(directory, "writable", pages: pages, protection: PROT_READ | PROT_WRITE)
        defer { munmap(writable, pages * Self.page) }
        writable.storeBytes(of: 0xDD, toByteOffset: Self.page + 7, as: UInt8.self)
        _ = Self.touch(writable, pages: pages)

        let copied = try #require(Self.mapping(at: relocated))
        #expect(!copied.releasable && copied.anonymousKB > 0 && copied.permissions == "r--p", "\(copied)")
        #expect(try #require(Self.mapping(at: writable)).releasable == false)
        CleanPages.release()
        #expect(Self.touch(relocated, pages: pages) == [0xEE, 2, 3, 4])
        #expect(Self.touch(writable, pages: pages) == [1, 0xDD, 3, 4])
    }

    @Test func theProcessItselfRunsOnAfterItsOwnCodeIsReleased() throws {
        let own = CleanPages.mappings().filter { $0.permissions == "r-xp" && $0.releasable }
        #expect(!own.isEmpty, "no clean code mapping found in \(CleanPages.mappings().count) mappings")
        let released = CleanPages.release()
        #expect(released > 0)
        // Code runs again from the page cache: Foundation, the runtime, libc.
        #expect(String(format: "%05.1f", 3.14159) == "003.1")
        #expect(try JSONSerialization.jsonObject(with: Data("[1,2]".utf8)) as? [Int] == [1, 2])
    }

    @Test func smapsLinesAreReadAsTheKernelWritesThem() {
        let header = CleanPages.header("7f0a1c000000-7f0a1c021000 r-xp 00001000 fe:01 1311  /usr/lib/x86_64-linux-gnu/libm.so.6\n")
        #expect(header == CleanPages.Mapping(start: 0x7f0a1c000000, end: 0x7f0a1c021000, permissions: "r-xp", path: "/usr/lib/x86_64-linux-gnu/libm.so.6"))
        #expect(CleanPages.header("7ffd5a7e1000-7ffd5a802000 rw-p 00000000 00:00 0                          [stack]\n")?.path == "[stack]")
        #expect(CleanPages.header("55d0c8a4e000-55d0c8a6f000 rw-p 00000000 00:00 0 \n")?.path == "")
        #expect(CleanPages.header("Rss:                 128 kB\n") == nil)
        #expect(CleanPages.field("Anonymous:            12 kB\n")! == ("Anonymous", 12))
        #expect(CleanPages.field("VmFlags: rd ex mr mw me\n") == nil)
        #expect(CleanPages.field("THPeligible:    0\n") == nil)
        // A path with spaces is kept whole.
        #expect(CleanPages.header("1000-2000 r--p 00000000 fe:01 9 /tmp/a b/c.so\n")?.path == "/tmp/a b/c.so")
    }
}

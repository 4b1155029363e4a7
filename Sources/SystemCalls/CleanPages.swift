// SPDX-License-Identifier: Apache-2.0
import Glibc

/// The clean, read-only file pages the process maps: the code and read-only
/// data of the program and of its libraries.
///
/// A start touches much more of them than an idle process runs again (the
/// configuration, the store, SQLite, the first plan), and the kernel's
/// fault-around maps sixteen pages for each one touched. ``release()``
/// unmaps them with `MADV_DONTNEED`: the page cache keeps them, now the
/// first the kernel reclaims when memory is short, and the next use maps a
/// page again with a minor fault.
///
/// A mapping is released only when it is private, backed by a file, not
/// writable, and holds no anonymous page (`Anonymous: 0 kB` in
/// `/proc/self/smaps`): then every page it maps is the file's, and mapping it
/// again gives the same bytes. The read-only-after-relocation (RELRO) part of
/// an object, and the text of one with text relocations, hold the loader's
/// anonymous copies and are left alone; a writable mapping could gain one
/// between the reading and the advice, so none is touched.
public enum CleanPages {
    /// One mapping of `/proc/self/smaps`, as far as ``release()`` reads it.
    public struct Mapping: Equatable, Sendable {
        public var start: UInt
        public var end: UInt
        public var permissions: String
        public var path: String
        /// Kilobytes of anonymous (copied-on-write) pages in it.
        public var anonymousKB = 0
        public var residentKB = 0

        /// Whether unmapping its pages loses nothing (see ``CleanPages``).
        public var releasable: Bool {
            permissions.hasPrefix("r") && !permissions.contains("w") && permissions.hasSuffix("p")
                && path.hasPrefix("/") && anonymousKB == 0 && residentKB > 0
        }
    }

    /// Unmaps every releasable mapping's pages; returns the kilobytes that
    /// were resident in them.
    @discardableResult
    public static func release() -> Int {
        var released = 0
        for mapping in mappings() where mapping.releasable {
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            if madvise(start, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 { released += mapping.residentKB }
        }
        return released
    }

    /// A process's mappings, read from its `smaps` (this process's by
    /// default) a line at a time; empty when it cannot be read.
    public static func mappings(in smaps: String = "/proc/self/smaps") -> [Mapping] {
        guard let file = fopen(smaps, "re") else { return [] }
        defer { fclose(file) }
        var mappings: [Mapping] = []
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            if let mapping = Self.header(text) {
                mappings.append(mapping)
            } else if !mappings.isEmpty, let (key, kilobytes) = Self.field(text) {
                switch key {
                case "Anonymous": mappings[mappings.count - 1].anonymousKB = kilobytes
                case "Rss": mappings[mappings.count - 1].residentKB = kilobytes
                default: break
                }
            }
        }
        return mappings
    }

    /// A mapping's first line: `start-end perms offset device inode [path]`.
    static func header(_ line: String) -> Mapping? {
        let parts = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        guard parts.count >= 5, parts[1].count == 4, let dash = parts[0].firstIndex(of: "-"),
              let start = UInt(parts[0][..<dash], radix: 16), let end = UInt(parts[0][parts[0].index(after: dash)...], radix: 16)
        else { return nil }
        let path = parts.count > 5 ? String(parts[5].drop { $0 == " " }.prefix { $0 != "\n" }) : ""
        return Mapping(start: start, end: end, permissions: String(parts[1]), path: path)
    }

    /// A `Key:   value kB` line.
    static func field(_ line: String) -> (String, Int)? {
        let parts = line.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 3, parts[0].hasSuffix(":"), parts[2].hasPrefix("kB"), let value = Int(parts[1]) else { return nil }
        return (String(parts[0].dropLast()), value)
    }
}

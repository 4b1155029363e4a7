// SPDX-License-Identifier: Apache-2.0
/// The contents of a compiled tz database file (TZif, RFC 8536), as far as
/// alarmd needs them: when the UTC offset changes, and the rule for the years
/// after the last listed change.
///
/// Parsing is pure: the bytes come from `ZoneDatabase`, so tests can hand in
/// any file, damaged ones included.
public struct TZif: Sendable, Equatable {
    /// Instants (seconds since the epoch) at which the offset changes, ascending.
    public var transitions: [Int64]
    /// `offsets[i]` is the UTC offset (seconds east) from `transitions[i]` on.
    public var offsets: [Int32]
    /// The offset before the first transition (the file's time type 0).
    public var initialOffset: Int32
    /// The footer's POSIX `TZ` rule for instants after the last transition;
    /// `nil` when the file has none (version 1, or an empty footer).
    public var footer: PosixZoneRule?

    /// Why a file is not a usable TZif file.
    public struct FormatError: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { "not a usable TZif file: \(reason)" }
    }

    public init(transitions: [Int64], offsets: [Int32], initialOffset: Int32, footer: PosixZoneRule?) {
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.footer = footer
    }

    /// Reads version 1 data, or the 64-bit data and footer of versions 2 and later.
    public init(_ bytes: [UInt8]) throws(FormatError) {
        var reader = Reader(bytes: bytes)
        var header = try reader.header()
        if header.version >= 2 {
            // Skip the 32-bit block: the 64-bit one after it covers every instant.
            try reader.skip(header.dataSize(timeSize: 4))
            header = try reader.header()
            (transitions, offsets, initialOffset) = try reader.data(header, timeSize: 8)
            footer = try reader.footer()
        } else {
            (transitions, offsets, initialOffset) = try reader.data(header, timeSize: 4)
            footer = nil
        }
    }

    private struct Header {
        var version: Int
        var utIndicators, standardIndicators, leapSeconds, transitions, types, characters: Int

        func dataSize(timeSize: Int) -> Int {
            transitions * (timeSize + 1) + types * 6 + characters
                + leapSeconds * (timeSize + 4) + standardIndicators + utIndicators
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func skip(_ count: Int) throws(FormatError) {
            guard count <= bytes.count - position else { throw FormatError(reason: "it ends early") }
            position += count
        }

        mutating func byte() throws(FormatError) -> UInt8 {
            guard position < bytes.count else { throw FormatError(reason: "it ends early") }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func integer(size: Int) throws(FormatError) -> Int64 {
            guard size <= bytes.count - position else { throw FormatError(reason: "it ends early") }
            var value: UInt64 = 0
            for index in position..<(position + size) { value = value << 8 | UInt64(bytes[index]) }
            position += size
            // Sign-extend a 32-bit value.
            return size == 4 ? Int64(Int32(truncatingIfNeeded: value)) : Int64(bitPattern: value)
        }

        mutating func header() throws(FormatError) -> Header {
            guard bytes.count - position >= 44, bytes[position..<(position + 4)].elementsEqual("TZif".utf8) else {
                throw FormatError(reason: "no TZif header")
            }
            let versionByte = bytes[position + 4]
            try skip(20)
            var counts: [Int] = []
            for _ in 0..<6 {
                let count = try integer(size: 4)
                // Far more than any real file; keeps the sizes below from overflowing.
                guard (0...1_000_000).contains(count) else { throw FormatError(reason: "a count of \(count)") }
                counts.append(Int(count))
            }
            let header = Header(
                version: versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0")),
                utIndicators: counts[0], standardIndicators: counts[1], leapSeconds: counts[2],
                transitions: counts[3], types: counts[4], characters: counts[5])
            guard header.version >= 1 else { throw FormatError(reason: "version byte \(versionByte)") }
            guard header.types >= 1 else { throw FormatError(reason: "no local time types") }
            // Files from the tz database's `right/` tree count leap seconds: their
            // instants are not POSIX time, so every alarm would be off by ~27 s.
            guard header.leapSeconds == 0 else { throw FormatError(reason: "it counts leap seconds") }
            return header
        }

        mutating func data(_ header: Header, timeSize: Int) throws(FormatError) -> ([Int64], [Int32], Int32) {
            var times: [Int64] = []
            times.reserveCapacity(header.transitions)
            for _ in 0..<header.transitions {
                let time = try integer(size: timeSize)
                if let last = times.last, time <= last { throw FormatError(reason: "transitions out of order") }
                times.append(time)
            }
            var typeIndices: [Int] = []
            for _ in 0..<header.transitions {
                let index = Int(try byte())
                guard index < header.types else { throw FormatError(reason: "a transition to time type \(index) of \(header.types)") }
                typeIndices.append(index)
            }
            var typeOffsets: [Int32] = []
            for _ in 0..<header.types {
                let offset = try integer(size: 4)
                // RFC 8536: never -2^31; real offsets are within ±26 hours.
                guard abs(offset) < 26 * 3600 else { throw FormatError(reason: "a UTC offset of \(offset) s") }
                typeOffsets.append(Int32(offset))
                try skip(2)
            }
            try skip(header.characters + header.leapSeconds * (timeSize + 4) + header.standardIndicators + header.utIndicators)
            return (times, typeIndices.map { typeOffsets[$0] }, typeOffsets[0])
        }

        mutating func footer() throws(FormatError) -> PosixZoneRule? {
            guard try byte() == UInt8(ascii: "\n") else { throw FormatError(reason: "no footer") }
            guard let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) else { throw FormatError(reason: "an unterminated footer") }
            let text = String(decoding: bytes[position..<end], as: UTF8.self)
            position = end + 1
            if text.isEmpty { return nil }
            guard let rule = PosixZoneRule(text) else { throw FormatError(reason: "footer \"\(text)\" is not a POSIX TZ rule") }
            return rule
        }
    }
}

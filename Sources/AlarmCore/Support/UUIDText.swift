// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Glibc

extension UUID {
    /// Reads the canonical text form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in
    /// hex digits of either case, as `UUID(uuidString:)` does; `nil` for
    /// anything else. Written out because Foundation's parser goes through the
    /// C library's `sscanf`, a measurable part of importing 100,000 items.
    public init?(canonical text: String) {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = text.utf8.withContiguousStorageIfAvailable { text -> Bool in
            guard text.count == 36 else { return false }
            return withUnsafeMutableBytes(of: &bytes) { out -> Bool in
                var position = 0
                for index in 0..<16 {
                    if position == 8 || position == 13 || position == 18 || position == 23 {
                        guard text[position] == UInt8(ascii: "-") else { return false }
                        position += 1
                    }
                    guard let high = Self.hexValue(text[position]), let low = Self.hexValue(text[position + 1]) else { return false }
                    out[index] = high << 4 | low
                    position += 2
                }
                return true
            }
        }
        switch parsed {
        case true?: self.init(uuid: bytes)
        case false?: return nil
        case nil: self.init(uuidString: text)
        }
    }

    /// The canonical text form in lower case, as every wire format and file of
    /// alarmd writes ids: `uuidString.lowercased()` without Foundation's
    /// `snprintf` and a second string. Replies name the id of each item.
    public var lowercasedText: String {
        String(unsafeUninitializedCapacity: 36) { out in
            withUnsafeBytes(of: uuid) { bytes in
                let digits: StaticString = "0123456789abcdef"
                var position = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    out[position] = digits.utf8Start[Int(bytes[index] >> 4)]
                    out[position + 1] = digits.utf8Start[Int(bytes[index] & 0x0F)]
                    position += 2
                }
            }
            return 36
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Whether this id sorts before `other` as their 16 bytes do (SQLite's
    /// order for BLOB keys, and so the order of the store's tables).
    public func bytesPrecede(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { mine in
            withUnsafeBytes(of: other.uuid) { theirs in memcmp(mine.baseAddress!, theirs.baseAddress!, 16) < 0 }
        }
    }
}

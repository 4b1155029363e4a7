// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Glibc

extension UUID {
    /// A new id for an item made at `created`: the instant's millisecond,
    /// counted modulo 65,536 (a turn of about 65 seconds), in the first 16
    /// bits, then 106 random bits. RFC 9562 version 8, as the ids made from
    /// other programs' iCalendar UIDs are; nothing reads the version.
    ///
    /// An item's id is the primary key of its table and of its ring state, and
    /// the key of its history index. With entirely random keys each new item
    /// goes to a page of its own in each, and a transaction of four or five
    /// adds writes a dozen pages and more; keys that begin with the moment
    /// they were made put a burst of adds, made in neighbouring milliseconds,
    /// on one page of each. A full time stamp (version 7) would do that too,
    /// but every item made within the same minute would then begin with the
    /// same eight digits, the ones tables show and people type. Here items
    /// made less than a turn apart, in different milliseconds, differ in the
    /// first four digits, and items made further apart share them only by
    /// chance, as random ids would. The random bits come from one
    /// `arc4random_buf` call (glibc 2.36: one `getrandom(2)`).
    public init(madeAt created: Date) {
        let milliseconds = (created.timeIntervalSince1970 * 1000).rounded(.down)
        var slot = milliseconds.isFinite ? milliseconds.truncatingRemainder(dividingBy: 65_536) : 0
        if slot < 0 { slot += 65_536 }
        let stamp = UInt16(slot)
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { out in
            arc4random_buf(out.baseAddress! + 2, 14)
            out[0] = UInt8(stamp >> 8)
            out[1] = UInt8(stamp & 0xFF)
            // Version 8 in the high nibble of byte 6, variant 10 in the top bits of byte 8.
            out[6] = out[6] & 0x0F | 0x80
            out[8] = out[8] & 0x3F | 0x80
        }
        self.init(uuid: bytes)
    }
}

// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Glibc

extension UUID {
    /// A new random (version 4) UUID from the C library's `arc4random_buf`
    /// (glibc 2.36: one `getrandom(2)` call). FoundationEssentials' `UUID()`
    /// opens, reads and closes `/dev/urandom` for each one, and the standard
    /// library's generator makes a call per eight bytes: this is on the path
    /// of every item added.
    public static func random() -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { out in
            arc4random_buf(out.baseAddress!, 16)
            // RFC 9562: version 4 in the high nibble of byte 6, variant 10 in the top bits of byte 8.
            out[6] = out[6] & 0x0F | 0x40
            out[8] = out[8] & 0x3F | 0x80
        }
        return UUID(uuid: bytes)
    }
}

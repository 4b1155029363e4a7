// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// `text` to standard error in one write (as much as it takes), for a
/// person at a terminal.
public func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { alarmd_write_all(STDERR_FILENO, $0.baseAddress, $0.count) }
}

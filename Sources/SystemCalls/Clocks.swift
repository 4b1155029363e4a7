// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// Reads `clockid` as microseconds.
public func clockMicroseconds(_ clockid: clockid_t) -> Int64 {
    var spec = timespec()
    clock_gettime(clockid, &spec)
    return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
}

/// Reads `clockid` as nanoseconds (for `CLOCK_MONOTONIC`, which never goes below zero).
public func clockNanoseconds(_ clockid: clockid_t) -> UInt64 {
    var spec = timespec()
    clock_gettime(clockid, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// `text` to standard error in one write (as much as it takes), for a
/// person at a terminal.
public func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { alarmd_write_all(STDERR_FILENO, $0.baseAddress, $0.count) }
}

// SPDX-License-Identifier: Apache-2.0
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

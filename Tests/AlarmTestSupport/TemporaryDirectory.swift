// SPDX-License-Identifier: Apache-2.0

import Foundation
import Glibc

/// A private directory (mode 0700, from mkdtemp) under the system's temporary
/// directory, removed with everything in it when the object goes. Tests that
/// keep using the path should keep the object: the directory lives as long
/// as it does.
public final class TemporaryDirectory {
    public let path: String

    public init() {
        var template = Array((NSTemporaryDirectory() + "/alarmd-test-XXXXXX").utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs `body` with the path of a new ``TemporaryDirectory`` and removes the
/// directory afterwards, whether `body` returns or throws.
public func withTemporaryDirectory<T>(_ body: (String) throws -> T) rethrows -> T {
    let directory = TemporaryDirectory()
    defer { withExtendedLifetime(directory) {} }
    return try body(directory.path)
}

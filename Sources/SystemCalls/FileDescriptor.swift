// SPDX-License-Identifier: Apache-2.0
import Glibc

/// An owned file descriptor, closed exactly once when the owner goes away.
public final class FileDescriptor: Sendable {
    public let rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    deinit { close(rawValue) }
}

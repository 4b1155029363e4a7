// SPDX-License-Identifier: Apache-2.0
import Glibc

/// A failed system call, with the operation that failed and `errno`.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public let operation: String
    public let code: Int32

    public init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// The one funnel for system calls that return -1 and set `errno`: retries on
/// `EINTR` (a signal arrived mid-call, nothing went wrong) and throws anything else.
@discardableResult
public func systemCall<T: FixedWidthInteger>(_ operation: String, _ call: () -> T) throws(SystemError) -> T {
    while true {
        let result = call()
        if result >= 0 { return result }
        if errno == EINTR { continue }
        throw SystemError(operation, code: errno)
    }
}

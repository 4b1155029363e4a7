// SPDX-License-Identifier: Apache-2.0
import CLinux
import Glibc

/// A failed system call, with the operation that failed and `errno`.
struct SystemError: Error, Equatable, CustomStringConvertible {
    let operation: String
    let code: Int32

    init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    var description: String { "\(operation): \(String(cString: strerror(code)))" }
}

/// Runs a system call that returns -1 and sets `errno`: retried on `EINTR`,
/// anything else thrown.
@discardableResult
func systemCall<T: FixedWidthInteger>(_ operation: String, _ call: () -> T) throws(SystemError) -> T {
    while true {
        let result = call()
        if result >= 0 { return result }
        if errno == EINTR { continue }
        throw SystemError(operation, code: errno)
    }
}

/// One line to standard error, `alarmd-wake: ` first.
func complain(_ message: String) {
    writeStandardError("alarmd-wake: \(message)\n")
}

/// `text` to standard error in one write (as much as it takes).
func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { alarmd_write_all(STDERR_FILENO, $0.baseAddress, $0.count) }
}

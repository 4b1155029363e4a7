// SPDX-License-Identifier: Apache-2.0
import SystemCalls

/// One line to standard error, `alarmd-wake: ` first.
func complain(_ message: String) {
    writeStandardError("alarmd-wake: \(message)\n")
}

// SPDX-License-Identifier: Apache-2.0
import CSystemd
import Glibc
import SystemCalls

/// Entries for the systemd journal through `sd_journal_sendv` (Swift cannot
/// call the variadic `sd_journal_send`), with `SYSLOG_IDENTIFIER=alarmd-wake`.
/// Without a journal socket, or when a send fails, the entry goes to standard
/// error as one readable line instead.
struct HelperJournal {
    enum Priority: Int {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
    }

    let identifier = "alarmd-wake"
    let socketPath = "/run/systemd/journal/socket"

    /// Sends one entry: MESSAGE, PRIORITY and SYSLOG_IDENTIFIER plus `fields`
    /// (upper-case journal field names, values as given).
    func send(_ message: String, priority: Priority, fields: [(String, String)] = []) {
        let all = [("MESSAGE", message), ("PRIORITY", String(priority.rawValue)), ("SYSLOG_IDENTIFIER", identifier)] + fields
        if access(socketPath, W_OK) == 0, sendv(all) { return }
        let extra = fields.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        writeStandardError("\(identifier)[\(getpid())] <\(priority.rawValue)> \(message)" + (extra.isEmpty ? "" : "  [\(extra)]") + "\n")
    }

    private func sendv(_ fields: [(String, String)]) -> Bool {
        // Every "KEY=value" in one buffer, each iovec pointing into it, so
        // that all stay alive for the call.
        var buffer: [UInt8] = []
        var ranges: [Range<Int>] = []
        for (key, value) in fields {
            let start = buffer.count
            buffer += key.utf8
            buffer.append(UInt8(ascii: "="))
            buffer += value.utf8
            ranges.append(start..<buffer.count)
        }
        return buffer.withUnsafeMutableBytes { bytes in
            let vectors = ranges.map { iovec(iov_base: bytes.baseAddress! + $0.lowerBound, iov_len: $0.count) }
            return vectors.withUnsafeBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) >= 0 }
        }
    }
}

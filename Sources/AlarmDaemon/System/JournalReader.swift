// SPDX-License-Identifier: Apache-2.0
import CSystemd
import FoundationEssentials
import Glibc

/// Reads entries back from the local journal (`sd_journal_open`), for the
/// fields one identifier wrote. The journal handle is owned here and closed
/// when the reader goes; it is used on one thread at a time, as sd-journal
/// requires.
final class JournalReader {
    private let journal: OpaquePointer

    /// `nil` when the journal cannot be opened at all.
    init?() {
        var handle: OpaquePointer?
        guard sd_journal_open(&handle, Int32(SD_JOURNAL_LOCAL_ONLY)) >= 0, let handle else { return nil }
        journal = handle
    }

    deinit { sd_journal_close(journal) }

    /// Whether an entry of `identifier` with `field=value` has reached the
    /// journal, waiting for it at most `timeout` seconds. Entries sent on one
    /// socket are stored in order, so once it is there, every entry sent
    /// before it is too.
    func waitFor(identifier: String, field: String, value: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            sd_journal_flush_matches(journal)
            guard match("SYSLOG_IDENTIFIER", identifier), match(field, value), sd_journal_seek_tail(journal) >= 0 else { return false }
            if sd_journal_previous(journal) > 0 { return true }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            _ = sd_journal_wait(journal, UInt64(min(left, 0.1) * 1_000_000))
        }
    }

    /// Hands `body` the values of `fields` of each entry of `identifier`
    /// since `since` (by the journal's own clock), oldest first, at most
    /// `limit` entries; a field an entry lacks is left out.
    func forEach(identifier: String, since: Date, fields: [String], limit: Int, _ body: ([String: String]) -> Void) {
        sd_journal_flush_matches(journal)
        guard match("SYSLOG_IDENTIFIER", identifier),
              sd_journal_seek_realtime_usec(journal, UInt64(max(0, since.timeIntervalSince1970) * 1_000_000)) >= 0 else { return }
        var read = 0
        while read < limit, sd_journal_next(journal) > 0 {
            read += 1
            var entry: [String: String] = [:]
            for field in fields {
                var data: UnsafeRawPointer?
                var length = 0
                guard sd_journal_get_data(journal, field, &data, &length) >= 0, let data else { continue }
                // "FIELD=value", not NUL-terminated.
                let bytes = UnsafeRawBufferPointer(start: data, count: length).dropFirst(field.utf8.count + 1)
                entry[field] = String(decoding: bytes, as: UTF8.self)
            }
            body(entry)
        }
    }

    private func match(_ field: String, _ value: String) -> Bool {
        let text = Array("\(field)=\(value)".utf8)
        return text.withUnsafeBytes { sd_journal_add_match(journal, $0.baseAddress, $0.count) >= 0 }
    }
}

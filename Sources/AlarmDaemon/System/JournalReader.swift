// SPDX-License-Identifier: Apache-2.0
import CSystemd
import FoundationEssentials
import Glibc

/// Reads entries back from the local journal (`sd_journal_open`), for the
/// fields one identifier wrote: after a crash, to find the entries a firing
/// may have missed. libsystemd is opened for it (dlopen) and let go of with
/// the reader, so that alarmd maps it only then. The journal handle is owned
/// here and closed when the reader goes; it is used on one thread at a time,
/// as sd-journal requires.
final class JournalReader {
    private let library: UnsafeMutableRawPointer
    private let sd: alarmd_journal
    private let journal: OpaquePointer

    /// Why the journal cannot be read: libsystemd missing, or the journal unreadable.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() throws(Failure) {
        var table = alarmd_journal()
        guard let library = alarmd_journal_load(&table) else {
            throw Failure(description: "cannot load libsystemd.so.0 (" + (alarmd_dlerror().map { String(cString: $0) } ?? "unknown error") + ")")
        }
        var handle: OpaquePointer?
        let result = table.sd_journal_open!(&handle, Int32(SD_JOURNAL_LOCAL_ONLY))
        guard result >= 0, let handle else {
            dlclose(library)
            throw Failure(description: "cannot open the journal (" + String(cString: strerror(-result)) + ")")
        }
        self.library = library
        sd = table
        journal = handle
    }

    deinit {
        sd.sd_journal_close!(journal)
        dlclose(library)
    }

    /// Whether an entry of `identifier` with `field=value` has reached the
    /// journal, waiting for it at most `timeout` seconds. Entries sent on one
    /// socket are stored in order, so once it is there, every entry sent
    /// before it is too.
    func waitFor(identifier: String, field: String, value: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            sd.sd_journal_flush_matches!(journal)
            guard match("SYSLOG_IDENTIFIER", identifier), match(field, value), sd.sd_journal_seek_tail!(journal) >= 0 else { return false }
            if sd.sd_journal_previous!(journal) > 0 { return true }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            _ = sd.sd_journal_wait!(journal, UInt64(min(left, 0.1) * 1_000_000))
        }
    }

    /// Hands `body` the values of `fields` of each entry of `identifier`
    /// since `since` (by the journal's own clock), oldest first, at most
    /// `limit` entries; a field an entry lacks is left out.
    func forEach(identifier: String, since: Date, fields: [String], limit: Int, _ body: ([String: String]) -> Void) {
        sd.sd_journal_flush_matches!(journal)
        guard match("SYSLOG_IDENTIFIER", identifier),
              sd.sd_journal_seek_realtime_usec!(journal, UInt64(max(0, since.timeIntervalSince1970) * 1_000_000)) >= 0 else { return }
        var read = 0
        while read < limit, sd.sd_journal_next!(journal) > 0 {
            read += 1
            var entry: [String: String] = [:]
            for field in fields {
                var data: UnsafeRawPointer?
                var length = 0
                guard sd.sd_journal_get_data!(journal, field, &data, &length) >= 0, let data else { continue }
                // "FIELD=value", not NUL-terminated.
                let bytes = UnsafeRawBufferPointer(start: data, count: length).dropFirst(field.utf8.count + 1)
                entry[field] = String(decoding: bytes, as: UTF8.self)
            }
            body(entry)
        }
    }

    private func match(_ field: String, _ value: String) -> Bool {
        let text = Array("\(field)=\(value)".utf8)
        return text.withUnsafeBytes { sd.sd_journal_add_match!(journal, $0.baseAddress, $0.count) >= 0 }
    }
}

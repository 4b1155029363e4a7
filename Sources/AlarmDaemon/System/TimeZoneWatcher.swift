// SPDX-License-Identifier: Apache-2.0
import Glibc
import SystemCalls

/// Watches the directory holding `localtime` with inotify: tools replace the
/// symlink (timedatectl renames a new one over it), so watching the file
/// itself would lose track after the first change.
final class TimeZoneWatcher {
    private let source: LoopSource

    init(directory: String, owner: Owner, onChange: @escaping () -> Void) throws(SystemError) {
        let fd = try systemCall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)
        do throws(SystemError) {
            try systemCall("inotify_add_watch \(directory)") { inotify_add_watch(fd, directory, mask) }
        } catch {
            close(fd)
            throw error
        }
        source = LoopSource(fd: fd, loop: owner.loop)
        try source.activate {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var relevant = false
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                var offset = 0
                while offset + 16 <= count {
                    // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[]; }
                    let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)) }
                    let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    let name = String(decoding: nameBytes, as: UTF8.self)
                    if name == "localtime" || name == "timezone" { relevant = true }
                    offset += 16 + length
                }
            }
            if relevant { onChange() }
        }
    }
}

// SPDX-License-Identifier: Apache-2.0
import Glibc

/// What tells a file apart from what it was when last read, without reading
/// it: device, inode, size, and the modification and status-change times. A
/// file replaced by another (a theme upgraded) or written in place changes
/// it, and so does a change of its permissions, or a copy that keeps the
/// modification time (`cp -p`): the kernel sets the status-change time on
/// each, and no one can set it back.
struct FileStamp: Equatable, Sendable {
    /// A file time to the nanosecond, as `stat` gives it.
    struct Time: Equatable, Sendable {
        let seconds: Int
        let nanoseconds: Int

        init(_ time: timespec) {
            seconds = Int(time.tv_sec)
            nanoseconds = Int(time.tv_nsec)
        }
    }

    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: Time
    let changed: Time

    /// The stamp of `path`, following links; `nil` when it cannot be read.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Time(status.st_mtim)
        changed = Time(status.st_ctim)
    }
}

// SPDX-License-Identifier: Apache-2.0
import Glibc

/// What tells a file apart from what it was when last read, without reading
/// it: device, inode, size, and the modification and status-change times. A
/// file replaced by another (a theme upgraded) or written in place changes
/// it, and so does a change of its permissions, or a copy that keeps the
/// modification time (`cp -p`): the kernel sets the status-change time on
/// each, and no one can set it back.
struct FileStamp: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int
    let changedSeconds: Int
    let changedNanoseconds: Int

    /// The stamp of `path`, following links; `nil` when it cannot be read.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modifiedSeconds = Int(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
        changedSeconds = Int(status.st_ctim.tv_sec)
        changedNanoseconds = Int(status.st_ctim.tv_nsec)
    }
}

import AlarmCore
import CLinux
import Dispatch
import Foundation
import Glibc

/// The system time zone as glibc finds it — `TZ` first, then `/etc/localtime` —
/// but freshly on every call, so that a zone change is seen
/// (`ZoneDatabase.systemZone` has the rules).
public struct SystemZone: Sendable {
    public let environmentTZ: String?
    public let etcDirectory: String

    public init(environmentTZ: String?, etcDirectory: String = "/etc") {
        self.environmentTZ = environmentTZ
        self.etcDirectory = etcDirectory
    }

    public func current() -> Zone { lookUp().zone }

    /// The zone with where it came from, and a `TZ` that was passed over.
    public func lookUp() -> ZoneDatabase.SystemZoneLookup {
        ZoneDatabase.lookUpSystemZone(environmentTZ: environmentTZ, etcDirectory: etcDirectory)
    }

    /// The warning for a `TZ` that names no usable zone, or `nil` when it does.
    public static func refusal(_ lookup: ZoneDatabase.SystemZoneLookup) -> String? {
        guard let tz = lookup.refusedTZ else { return nil }
        return "TZ=\(ValidationError.quoted(tz)) names no time zone alarmd can use (a tz database name such as Europe/Berlin, "
            + "a path into \(ZoneDatabase.directory), or a POSIX rule such as EST5EDT,M3.2.0,M11.1.0); "
            + "using \(lookup.zone.identifier) (\(lookup.source)) instead"
    }
}

/// Watches the directory holding `localtime` with inotify: tools replace the
/// symlink (timedatectl renames a new one over it), so watching the file
/// itself would lose track after the first change.
public final class TimeZoneWatcher: @unchecked Sendable {
    private let descriptor: FileDescriptor
    private let source: DispatchSourceRead

    public init(directory: String, queue: DispatchQueue, onChange: @escaping @Sendable () -> Void) throws(SystemError) {
        let fd = try systemCall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        descriptor = FileDescriptor(fd)
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_ATTRIB)
        try systemCall("inotify_add_watch \(directory)") { inotify_add_watch(fd, directory, mask) }
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler {
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
        source.resume()
    }

    deinit { source.cancel() }
}

/// Delivers signals on a Dispatch queue instead of in an async-signal context.
///
/// The handlers are installed with sigaction before `init` returns (so a
/// signal sent the moment READY=1 goes out is not lost); each only writes the
/// signal's number to a socket, read here on `queue`.
public final class SignalWatcher: @unchecked Sendable {
    private let readEnd: FileDescriptor
    private let writeEnd: FileDescriptor
    private let source: DispatchSourceRead

    public init(_ signals: [Int32], queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) throws(SystemError) {
        let (fd, writeFD) = try UnixSocket.pair()
        readEnd = FileDescriptor(fd)
        writeEnd = FileDescriptor(writeFD)
        // A full socket drops the byte rather than block inside a signal handler.
        UnixSocket.setNonBlocking(writeFD)
        UnixSocket.setNonBlocking(fd)
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                for byte in bytes.prefix(count) { handler(Int32(byte)) }
            }
        }
        source.resume()
        for number in signals {
            _ = try systemCall("sigaction \(number)") { alarmd_catch_signal(number, writeFD) }
        }
    }

    deinit { source.cancel() }
}

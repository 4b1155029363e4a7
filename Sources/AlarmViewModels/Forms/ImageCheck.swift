// SPDX-License-Identifier: Apache-2.0
import AlarmCore
import Glibc

/// Whether a file may be a reminder's image: an absolute path to a regular
/// file of at most ``maxBytes``, whose first bytes say PNG, JPEG, GIF,
/// WebP, BMP or SVG. Reads at most ``sniffBytes`` of it, through a
/// descriptor opened without blocking (a FIFO must not hang the app) and
/// checked with fstat(2), so the file judged is the file read.
public enum ImageCheck {
    /// 20 MiB.
    public static let maxBytes: Int64 = 20 << 20
    /// Enough for an SVG's XML declaration, comments and doctype before `<svg`.
    public static let sniffBytes = 1024

    public enum Format: String, Equatable, Sendable {
        case png, jpeg, gif, webp, bmp, svg
    }

    public enum Problem: Error, Equatable, Sendable {
        case notAbsolute
        /// Nothing at the path.
        case missing
        /// It could not be opened or read; `errno`.
        case unreadable(errno: Int32)
        /// A directory, a device, a FIFO, …
        case notRegularFile
        case tooLarge(bytes: Int64, limit: Int64)
        /// Not one of the formats, by its first bytes.
        case notAnImage

        /// The refusal, for the message next to the image field.
        public func text(in l: some Localization) -> String {
            switch self {
            case .notAbsolute: return l.L("The image must be given as a full path.")
            case .missing: return l.L("There is no file there.")
            case .unreadable(let code): return l.Lf("The image cannot be read: %s", String(cString: strerror(code)))
            case .notRegularFile: return l.L("That is not a file.")
            case .tooLarge(let bytes, let limit):
                return l.Lf("The image is %1$s; at most %2$s are allowed.", Self.megabytes(bytes), Self.megabytes(limit))
            case .notAnImage: return l.L("That is not an image (PNG, JPEG, GIF, WebP, BMP or SVG).")
            }
        }

        /// `20 MiB`, `20.5 MiB`.
        static func megabytes(_ bytes: Int64) -> String {
            let tenths = (bytes * 10 + (1 << 19)) >> 20
            return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
        }
    }

    /// The image's format, or why it is refused.
    public static func check(path: String, limit: Int64 = maxBytes) -> Result<Format, Problem> {
        guard path.hasPrefix("/") else { return .failure(.notAbsolute) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            return .failure(code == ENOENT || code == ENOTDIR ? .missing : .unreadable(errno: code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegularFile) }
        guard Int64(info.st_size) <= limit else { return .failure(.tooLarge(bytes: Int64(info.st_size), limit: limit)) }
        var buffer = [UInt8](repeating: 0, count: sniffBytes)
        var filled = 0
        while filled < buffer.count {
            let count = buffer[filled...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(errno: errno))
            }
            if count == 0 { break }
            filled += count
        }
        guard let format = format(of: buffer[..<filled]) else { return .failure(.notAnImage) }
        return .success(format)
    }

    /// The format its first bytes say; `nil` for none of them.
    public static func format(of bytes: ArraySlice<UInt8>) -> Format? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && zip(bytes.dropFirst(offset), prefix).allSatisfy { $0 == $1 }
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        // "BM", then the file size and two reserved (zero) 16-bit words.
        if starts(Array("BM".utf8)), bytes.count >= 10, bytes.dropFirst(6).prefix(4).allSatisfy({ $0 == 0 }) { return .bmp }
        if isSVG(bytes) { return .svg }
        return nil
    }

    /// Markup: after a UTF-8 byte order mark and white space it opens with
    /// `<` (`<?xml`, a comment, a doctype or `<svg` itself), and `<svg` is
    /// among the bytes read.
    private static func isSVG(_ bytes: ArraySlice<UInt8>) -> Bool {
        var text = bytes
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
        text = text.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard text.first == UInt8(ascii: "<") else { return false }
        let token = Array("<svg".utf8)
        guard text.count >= token.count else { return false }
        var index = text.startIndex
        while index <= text.endIndex - token.count {
            if text[index..<index + token.count].elementsEqual(token) { return true }
            index += 1
        }
        return false
    }
}

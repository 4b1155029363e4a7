// SPDX-License-Identifier: Apache-2.0
import SystemCalls

/// Where a bus listens, from a D-Bus address string such as
/// `DBUS_SESSION_BUS_ADDRESS`: `unix:path=/run/user/1000/bus`, or several
/// separated by `;`, tried in order. Unix sockets only (a file path or a name
/// in the abstract namespace), which is what a session or system bus offers
/// on Linux; other transports are passed over.
public enum BusAddress {
    public static func parse(_ text: String) -> [UnixAddress] {
        text.split(separator: ";").compactMap { entry in
            guard entry.hasPrefix("unix:") else { return nil }
            var found: UnixAddress?
            for pair in entry.dropFirst("unix:".count).split(separator: ",") {
                guard let equals = pair.firstIndex(of: "="), let value = unescaped(pair[pair.index(after: equals)...]) else { continue }
                switch pair[..<equals] {
                case "path": found = .path(value)
                case "abstract": found = .abstract(value)
                default: continue
                }
            }
            return found
        }
    }

    /// A value with its `%XX` escapes undone; `nil` when one is broken.
    private static func unescaped(_ value: Substring) -> String? {
        var bytes: [UInt8] = []
        var rest = value.utf8[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let escaped = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(escaped)
            rest = rest.dropFirst(2)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

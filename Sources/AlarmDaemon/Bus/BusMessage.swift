// SPDX-License-Identifier: Apache-2.0
import CSystemd
import Glibc
import SystemCalls

/// One sd-bus message, unreferenced when the wrapper goes away. Only the
/// non-variadic calls are used: Swift cannot call `sd_bus_message_append`.
final class BusMessage {
    let raw: OpaquePointer

    /// Takes over one reference.
    init(adopting raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference (for messages sd-bus lends to a callback).
    init(borrowing raw: OpaquePointer) {
        self.raw = raw
        sd_bus_message_ref(raw)
    }

    deinit { sd_bus_message_unref(raw) }

    func append(_ value: String) throws(SystemError) {
        let result = value.withCString { sd_bus_message_append_basic(raw, CChar(UInt8(ascii: "s")), $0) }
        try systemdCall("sd_bus_message_append_basic(s)", result)
    }

    func append(_ value: UInt32) throws(SystemError) { try appendBasic("u", value) }

    func append(_ value: Int32) throws(SystemError) { try appendBasic("i", value) }

    func append(_ value: UInt64) throws(SystemError) { try appendBasic("t", value) }

    func append(byte value: UInt8) throws(SystemError) { try appendBasic("y", value) }

    /// D-Bus booleans travel as 32-bit integers.
    func append(_ value: Bool) throws(SystemError) { try appendBasic("b", Int32(value ? 1 : 0)) }

    /// Appends one fixed-size value of D-Bus `type`, whose C layout `value` has.
    private func appendBasic<Value: FixedWidthInteger>(_ type: Character, _ value: Value) throws(SystemError) {
        var copy = value
        try systemdCall("sd_bus_message_append_basic(\(type))", sd_bus_message_append_basic(raw, CChar(type.asciiValue!), &copy))
    }

    /// Appends `contents` inside a container (`a` array, `e` dict entry, `v` variant, `r` struct).
    func container(_ type: Character, _ contents: String, _ body: () throws(SystemError) -> Void) throws(SystemError) {
        let result = contents.withCString { sd_bus_message_open_container(raw, CChar(type.asciiValue!), $0) }
        try systemdCall("sd_bus_message_open_container(\(type)\(contents))", result)
        try body()
        try systemdCall("sd_bus_message_close_container", sd_bus_message_close_container(raw))
    }

    /// A dictionary entry `{sv}` whose variant holds `signature` written by `value`.
    func hint(_ key: String, _ signature: String, _ value: () throws(SystemError) -> Void) throws(SystemError) {
        try container("e", "sv") { () throws(SystemError) in
            try append(key)
            try container("v", signature, value)
        }
    }

    /// A unit property `(sv)`, as `StartTransientUnit` takes them: `name`
    /// and a variant holding `signature` written by `value`.
    func property(_ name: String, _ signature: String, _ value: () throws(SystemError) -> Void) throws(SystemError) {
        try container("r", "sv") { () throws(SystemError) in
            try append(name)
            try container("v", signature, value)
        }
    }

    /// Reads a string-like value: `s` (string), `o` (object path) or `g`
    /// (signature); with `inVariant`, from a variant holding one.
    func readString(type: Character = "s", inVariant: Bool = false) throws(SystemError) -> String {
        try reading(inVariant ? String(type) : nil) { () throws(SystemError) in
            var pointer: UnsafePointer<CChar>?
            try systemdCall("sd_bus_message_read_basic(\(type))", sd_bus_message_read_basic(raw, CChar(type.asciiValue!), &pointer))
            return pointer.map { String(cString: $0) } ?? ""
        }
    }

    /// Reads an array of strings (`as`), or a variant holding one (`v` of `as`,
    /// as `org.freedesktop.DBus.Properties.Get` returns it).
    func readStringArray(inVariant: Bool = false) throws(SystemError) -> [String] {
        try reading(inVariant ? "as" : nil) { () throws(SystemError) in try readArrayOfStrings() }
    }

    private func readArrayOfStrings() throws(SystemError) -> [String] {
        try enter("a", "s")
        var strings: [String] = []
        while true {
            var pointer: UnsafePointer<CChar>?
            let result = sd_bus_message_read_basic(raw, CChar(UInt8(ascii: "s")), &pointer)
            try systemdCall("sd_bus_message_read_basic(s)", result)
            // 0: the end of the array.
            guard result > 0, let pointer else { break }
            strings.append(String(cString: pointer))
        }
        try systemdCall("sd_bus_message_exit_container", sd_bus_message_exit_container(raw))
        return strings
    }

    /// Runs `read` inside a variant holding `contents`, or directly when `nil`
    /// (`org.freedesktop.DBus.Properties.Get` answers with a variant).
    private func reading<T>(_ contents: String?, _ read: () throws(SystemError) -> T) throws(SystemError) -> T {
        guard let contents else { return try read() }
        try enter("v", contents)
        let value = try read()
        try systemdCall("sd_bus_message_exit_container", sd_bus_message_exit_container(raw))
        return value
    }

    private func enter(_ type: Character, _ contents: String) throws(SystemError) {
        let result = contents.withCString { sd_bus_message_enter_container(raw, CChar(type.asciiValue!), $0) }
        try systemdCall("sd_bus_message_enter_container(\(type)\(contents))", result)
    }

    func readUInt32() throws(SystemError) -> UInt32 {
        var value: UInt32 = 0
        try systemdCall("sd_bus_message_read_basic(u)", sd_bus_message_read_basic(raw, CChar(UInt8(ascii: "u")), &value))
        return value
    }

    /// Reads a boolean (`b`), or a variant holding one (`v` of `b`, as
    /// `org.freedesktop.DBus.Properties.Get` returns it).
    func readBool(inVariant: Bool = false) throws(SystemError) -> Bool {
        try reading(inVariant ? "b" : nil) { () throws(SystemError) in
            var value: Int32 = 0
            try systemdCall("sd_bus_message_read_basic(b)", sd_bus_message_read_basic(raw, CChar(UInt8(ascii: "b")), &value))
            return value != 0
        }
    }

    /// Reads a file descriptor (`h`) and returns a duplicate of one's own
    /// (close-on-exec): the message's copy closes with the message.
    func readFileDescriptor() throws(SystemError) -> FileDescriptor {
        var value: Int32 = -1
        try systemdCall("sd_bus_message_read_basic(h)", sd_bus_message_read_basic(raw, CChar(UInt8(ascii: "h")), &value))
        return FileDescriptor(try systemCall("fcntl(F_DUPFD_CLOEXEC)") { fcntl(value, F_DUPFD_CLOEXEC, 3) })
    }

    var member: String { sd_bus_message_get_member(raw).map { String(cString: $0) } ?? "" }
}

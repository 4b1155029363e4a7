// SPDX-License-Identifier: Apache-2.0
/// An immutable value behind one reference, compared by value: eight bytes
/// in the struct that holds it instead of the value's own size. The rarely
/// set fields of an alarm or a reminder (a calendar rule, a pause, advance
/// notices) live in one, so that a million plain weekday alarms do not each
/// carry room for them. Immutable, so a copy of the holder never shares a
/// change: setting a field builds a new box.
final class Box<Value: Hashable & Sendable>: Hashable, Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }

    static func == (a: Box, b: Box) -> Bool { a === b || a.value == b.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// `box`'s value (or `empty`) changed by `change`, in a new box; `nil`
    /// when the result is `empty`, so an item back at the defaults holds no box.
    static func changing(_ box: Box?, empty: Value, _ change: (inout Value) -> Void) -> Box? {
        var value = box?.value ?? empty
        change(&value)
        return value == empty ? nil : Box(value)
    }
}

// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A GListModel of strings: the choices of a ``DropDown``, and the ids that
/// a ``ListView`` shows (each row looks its item up by id in the view model,
/// so no GObject subclass per item is needed).
public final class StringList {
    public let reference: ObjectReference

    public init(_ items: [String] = []) {
        reference = ObjectReference(taking: UnsafeMutableRawPointer(gtk_string_list_new(nil)))
        splice(at: 0, removing: 0, inserting: items)
    }

    public var count: Int { Int(g_list_model_get_n_items(reference.c())) }

    public func string(at index: Int) -> String? { String(glib: gtk_string_list_get_string(reference.c(), guint(index))) }

    /// Removes `removing` items at `index` and inserts `inserting` there, in
    /// one change signal (so a list view redraws only those rows).
    public func splice(at index: Int, removing: Int, inserting: [String]) {
        withCStrings(inserting) { gtk_string_list_splice(reference.c(), guint(index), guint(removing), $0) }
    }

    public func replaceAll(_ items: [String]) { splice(at: 0, removing: count, inserting: items) }

    /// The string of a model item (a GtkStringObject) a list item holds.
    public static func string(of item: gpointer?) -> String? {
        guard let item else { return nil }
        return String(glib: gtk_string_object_get_string(OpaquePointer(item)))
    }
}

/// Calls `body` with a NULL-terminated `char **` of `strings`.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

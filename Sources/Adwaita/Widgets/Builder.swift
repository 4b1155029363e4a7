// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// Widgets described in GtkBuilder XML: for the shortcuts window, whose
/// sections and groups GTK builds only this way.
public final class Builder {
    private let reference: ObjectReference

    /// Parses `xml`; a mistake in it is the program's own, so it stops.
    public init(xml: String) {
        let builder = gtk_builder_new()!
        var error: UnsafeMutablePointer<GError>?
        guard gtk_builder_add_from_string(builder, xml, -1, &error) != 0 else {
            fatalError("GtkBuilder XML: \(String(glib: error?.pointee.message) ?? "?")")
        }
        reference = ObjectReference(taking: UnsafeMutableRawPointer(builder))
    }

    /// The widget with `id`; the builder's reference keeps it until it is shown.
    public func widget(_ id: String) -> Widget? {
        guard let object = gtk_builder_get_object(reference.c(), id) else { return nil }
        return Widget(UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkWidget.self))
    }
}

/// Text for GtkBuilder XML or Pango markup: `&`, `<`, `>`, `"` and `'` escaped.
public func markupEscaped(_ text: String) -> String {
    guard let escaped = g_markup_escape_text(text, -1) else { return "" }
    defer { g_free(escaped) }
    return String(cString: escaped)
}

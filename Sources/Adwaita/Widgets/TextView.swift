// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// Text of several lines: a to-do's notes.
public struct TextView: WidgetWrapper {
    public let widget: Widget

    public init() {
        widget = Widget(gtk_text_view_new())
        gtk_text_view_set_wrap_mode(widget.c(), GTK_WRAP_WORD_CHAR)
        widget.setSizeRequest(height: 72)
    }

    public var text: String {
        get {
            let buffer = gtk_text_view_get_buffer(widget.c())
            var start = GtkTextIter(), end = GtkTextIter()
            gtk_text_buffer_get_bounds(buffer, &start, &end)
            guard let text = gtk_text_buffer_get_text(buffer, &start, &end, 0) else { return "" }
            defer { g_free(text) }
            return String(cString: text)
        }
        nonmutating set { gtk_text_buffer_set_text(gtk_text_view_get_buffer(widget.c()), newValue, -1) }
    }
}

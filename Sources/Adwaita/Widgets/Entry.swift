// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A one-line text field.
public struct Entry: WidgetWrapper {
    public let widget: Widget

    public init(text: String = "", placeholder: String? = nil) {
        widget = Widget(gtk_entry_new())
        if let placeholder { gtk_entry_set_placeholder_text(widget.c(), placeholder) }
        self.text = text
    }

    public var text: String {
        get { String(glib: gtk_editable_get_text(widget.c())) ?? "" }
        nonmutating set { gtk_editable_set_text(widget.c(), newValue) }
    }

    /// Enter in the field presses the window's default button (Save).
    public func activatesDefault() { gtk_entry_set_activates_default(widget.c(), 1) }
    public func setMaxLength(_ count: Int32) { gtk_entry_set_max_length(widget.c(), count) }
    /// How wide the field asks to be, in characters (GTK's default is wide
    /// enough to keep a narrow window from being narrow).
    public func setWidthChars(_ count: Int32) { gtk_editable_set_width_chars(widget.c(), count) }
    public func onChanged(_ handler: @escaping () -> Void) { Signal.connect(widget.raw, "changed", handler) }
}

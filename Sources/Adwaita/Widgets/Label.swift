// SPDX-License-Identifier: Apache-2.0
import CAdwaita

public struct Label: WidgetWrapper {
    public let widget: Widget

    public init(_ text: String = "", classes: [String] = []) {
        widget = Widget(gtk_label_new(text))
        classes.forEach(widget.addCSSClass)
    }

    public var text: String {
        get { String(glib: gtk_label_get_text(widget.c())) ?? "" }
        nonmutating set { gtk_label_set_text(widget.c(), newValue) }
    }

    public func setXAlign(_ value: Float) { gtk_label_set_xalign(widget.c(), value) }
    public func setWrap(_ on: Bool) { gtk_label_set_wrap(widget.c(), on ? 1 : 0) }
    public func setEllipsize(_ on: Bool) { gtk_label_set_ellipsize(widget.c(), on ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE) }
    public func setJustifyCenter() { gtk_label_set_justify(widget.c(), GTK_JUSTIFY_CENTER) }
    /// Lets the user select and copy the text (an error message, a command).
    public func setSelectable(_ on: Bool) { gtk_label_set_selectable(widget.c(), on ? 1 : 0) }
}

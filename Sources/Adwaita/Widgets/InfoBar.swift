// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A banner across the top of the window: alarmd unreachable, output muted.
/// (AdwBanner is libadwaita 1.3; Debian 12 has 1.2, so GtkInfoBar.)
public struct InfoBar: WidgetWrapper {
    public let widget: Widget
    public let title: Label
    public let detail: Label

    public init() {
        widget = Widget(gtk_info_bar_new())
        gtk_info_bar_set_message_type(widget.c(), GTK_MESSAGE_WARNING)
        let text = Box(vertical: true, spacing: 2)
        title = Label(classes: ["heading"])
        title.setXAlign(0)
        title.setWrap(true)
        detail = Label()
        detail.setXAlign(0)
        detail.setWrap(true)
        detail.setSelectable(true)
        text.append(title).append(detail)
        text.widget.expand(horizontally: true)
        gtk_info_bar_add_child(widget.c(), text.widget.pointer)
        // Shown and hidden at once, without the revealer's slide: the banner
        // often comes with the first frames, where an animation only delays
        // the window being ready.
        gtk_info_bar_set_revealed(widget.c(), 1)
        widget.isVisible = false
    }

    public func show(title: String, detail: String, error: Bool) {
        self.title.text = title
        self.detail.text = detail
        gtk_info_bar_set_message_type(widget.c(), error ? GTK_MESSAGE_ERROR : GTK_MESSAGE_WARNING)
        widget.isVisible = true
    }

    public func hide() { widget.isVisible = false }
}

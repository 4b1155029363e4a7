// SPDX-License-Identifier: Apache-2.0
import CAdwaita

public struct ScrolledWindow: WidgetWrapper {
    public let widget: Widget

    public init(_ child: some WidgetWrapper) {
        widget = Widget(gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(widget.c(), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(widget.c(), child.widget.pointer)
        widget.expand(vertically: true)
    }
}

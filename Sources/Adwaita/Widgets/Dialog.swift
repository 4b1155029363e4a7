// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A modal window of its own, over `parent`: the add and edit forms, with
/// Cancel and a default button in the header.
public struct Dialog: WidgetWrapper {
    public let widget: Widget

    public init(parent: some WidgetWrapper, title: String, content: some WidgetWrapper, width: Int32 = 420, height: Int32 = 600) {
        widget = Widget(adw_window_new())
        gtk_window_set_modal(widget.c(), 1)
        gtk_window_set_transient_for(widget.c(), parent.widget.c())
        gtk_window_set_title(widget.c(), title)
        gtk_window_set_default_size(widget.c(), width, height)
        gtk_window_set_destroy_with_parent(widget.c(), 1)
        adw_window_set_content(widget.c(), content.widget.pointer)
        // Escape closes it, as every GNOME dialog does.
        let shortcut = gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape"), gtk_named_action_new("window.close"))
        let controller = gtk_shortcut_controller_new()
        gtk_shortcut_controller_add_shortcut(controller, shortcut)
        gtk_widget_add_controller(widget.pointer, controller)
    }

    public func present() { gtk_window_present(widget.c()) }
    public func close() { gtk_window_close(widget.c()) }
    public func setDefault(_ button: some WidgetWrapper) { gtk_window_set_default_widget(widget.c(), button.widget.pointer) }
    public func onClose(_ handler: @escaping () -> Void) { Signal.connectHandled(widget.raw, "close-request") { handler(); return false } }
}

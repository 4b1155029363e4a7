import CAdwaita

/// A button that opens a menu of actions (a row's Skip next, Pause, Delete).
public struct MenuButton: WidgetWrapper {
    public let widget: Widget
    private let menu: ObjectReference

    public init(icon: String, accessibleName: String) {
        widget = Widget(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(widget.c(), icon)
        widget.setAccessibleLabel(accessibleName)
        widget.setTooltip(accessibleName)
        widget.align(vertical: GTK_ALIGN_CENTER)
        widget.addCSSClass("flat")
        menu = ObjectReference(taking: UnsafeMutableRawPointer(g_menu_new()))
        gtk_menu_button_set_menu_model(widget.c(), menu.c())
    }

    /// Replaces the items: (label, detailed action name) pairs.
    public func setItems(_ items: [(String, String)]) {
        g_menu_remove_all(menu.c())
        for (label, action) in items { g_menu_append(menu.c(), label, action) }
    }
}

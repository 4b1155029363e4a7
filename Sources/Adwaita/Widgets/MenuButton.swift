// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A button that opens a menu of actions (a row's Skip Next, Pause, Delete).
///
/// The menu is made when it is opened, from the items given last: a
/// GtkPopoverMenu builds a widget for every item whenever its model changes,
/// and a list row's items change each time the row is refilled while the
/// list scrolls, when nobody looks at them.
public final class MenuButton: WidgetWrapper {
    public let widget: Widget
    private var items: [(String, String)] = []
    private var isBuilt = false

    public init(icon: String, accessibleName: String) {
        widget = Widget(gtk_menu_button_new())
        gtk_menu_button_set_icon_name(widget.c(), icon)
        widget.setAccessibleLabel(accessibleName)
        widget.setTooltip(accessibleName)
        widget.align(vertical: GTK_ALIGN_CENTER)
        widget.addCSSClass("flat")
        let build: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
            MainContext.assertOwner()
            SignalHandler<() -> Void>.from(data)()
        }
        let release: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        // The widget keeps this object (and its items) as long as it lives.
        let handler: () -> Void = { self.build() }
        gtk_menu_button_set_create_popup_func(widget.c(), build, Unmanaged.passRetained(SignalHandler(handler)).toOpaque(), release)
    }

    /// Replaces the items: (label, detailed action name) pairs.
    public func setItems(_ items: [(String, String)]) {
        self.items = items
        guard isBuilt else { return }
        // Made again the next time it opens.
        isBuilt = false
        gtk_menu_button_set_menu_model(widget.c(), nil)
    }

    private func build() {
        let menu = g_menu_new()!
        for (label, action) in items { g_menu_append(menu, label, action) }
        gtk_menu_button_set_menu_model(widget.c(), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        g_object_unref(UnsafeMutableRawPointer(menu))
        isBuilt = true
    }
}

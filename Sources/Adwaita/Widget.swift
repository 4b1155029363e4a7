// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A non-owning handle on a widget in the tree (``ObjectReference`` says who
/// owns what). The typed wrappers (``Label``, ``Button``, …) each hold one.
public struct Widget {
    public let pointer: UnsafeMutablePointer<GtkWidget>

    public init(_ pointer: UnsafeMutablePointer<GtkWidget>) { self.pointer = pointer }

    /// The widget as a pointer to the C type a call expects: GTK's final
    /// types import as `OpaquePointer`, the others as typed pointers.
    public func c<T>() -> UnsafeMutablePointer<T> { UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self) }
    public func c() -> OpaquePointer { OpaquePointer(pointer) }
    public var raw: gpointer { UnsafeMutableRawPointer(pointer) }

    public func addCSSClass(_ name: String) { gtk_widget_add_css_class(pointer, name) }
    public func removeCSSClass(_ name: String) { gtk_widget_remove_css_class(pointer, name) }
    public func setCSSClass(_ name: String, _ on: Bool) { on ? addCSSClass(name) : removeCSSClass(name) }

    public var isVisible: Bool {
        get { gtk_widget_get_visible(pointer) != 0 }
        nonmutating set { gtk_widget_set_visible(pointer, newValue ? 1 : 0) }
    }

    public var isSensitive: Bool {
        get { gtk_widget_get_sensitive(pointer) != 0 }
        nonmutating set { gtk_widget_set_sensitive(pointer, newValue ? 1 : 0) }
    }

    public func setTooltip(_ text: String?) { gtk_widget_set_tooltip_text(pointer, text) }

    public func setMargins(top: Int32 = 0, bottom: Int32 = 0, start: Int32 = 0, end: Int32 = 0) {
        gtk_widget_set_margin_top(pointer, top)
        gtk_widget_set_margin_bottom(pointer, bottom)
        gtk_widget_set_margin_start(pointer, start)
        gtk_widget_set_margin_end(pointer, end)
    }

    public func setMargins(_ all: Int32) { setMargins(top: all, bottom: all, start: all, end: all) }

    public func expand(horizontally: Bool = false, vertically: Bool = false) {
        gtk_widget_set_hexpand(pointer, horizontally ? 1 : 0)
        gtk_widget_set_vexpand(pointer, vertically ? 1 : 0)
    }

    public func align(horizontal: GtkAlign? = nil, vertical: GtkAlign? = nil) {
        if let horizontal { gtk_widget_set_halign(pointer, horizontal) }
        if let vertical { gtk_widget_set_valign(pointer, vertical) }
    }

    public func setSizeRequest(width: Int32 = -1, height: Int32 = -1) { gtk_widget_set_size_request(pointer, width, height) }

    @discardableResult
    public func grabFocus() -> Bool { gtk_widget_grab_focus(pointer) != 0 }

    /// The name a screen reader reads, and what the AT-SPI tests find it by.
    public func setAccessibleLabel(_ text: String) { alarms_accessible_set_label(pointer, text) }

    /// Whether `other` is this widget or inside it (the focused widget in a
    /// list row, say).
    public func contains(_ other: UnsafeMutablePointer<GtkWidget>) -> Bool {
        other == pointer || gtk_widget_is_ancestor(other, pointer) != 0
    }

    /// The widget with the keyboard focus in this widget's window.
    public var focusInWindow: UnsafeMutablePointer<GtkWidget>? {
        guard let root = gtk_widget_get_root(pointer) else { return nil }
        return gtk_root_get_focus(root)
    }

    /// A key that invokes `action` (`win.delete`) while the focus is in this
    /// widget: Delete in a list, but not in a text field elsewhere.
    public func addShortcut(_ trigger: String, action: String) {
        let controller = gtk_shortcut_controller_new()
        gtk_shortcut_controller_add_shortcut(controller, gtk_shortcut_new(gtk_shortcut_trigger_parse_string(trigger), gtk_named_action_new(action)))
        gtk_widget_add_controller(pointer, controller)
    }

    /// Keeps `owner` (the Swift object whose handlers the widget's children
    /// call) alive until the widget is finalized, after every child and its
    /// handlers are gone: a dialog keeps the form that fills it.
    public func keepAlive(_ owner: AnyObject) {
        let release: GDestroyNotify = { data in
            guard let data else { return }
            Unmanaged<AnyObject>.fromOpaque(data).release()
        }
        g_object_set_data_full(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self), "alarms-owner",
                               Unmanaged.passRetained(owner).toOpaque(), release)
    }

    /// Puts an action group on the widget under `prefix` (`row.delete`).
    public func insertActionGroup(_ prefix: String, _ group: ObjectReference) {
        gtk_widget_insert_action_group(pointer, prefix, group.c())
    }
}

/// A value that wraps one widget.
public protocol WidgetWrapper {
    var widget: Widget { get }
}

extension Widget: WidgetWrapper {
    public var widget: Widget { self }
}

// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// Shows toasts over its child: "Alarm set for 8 h 5 min from now", "Deleted
/// “Work”" with Undo.
public struct ToastOverlay: WidgetWrapper {
    public let widget: Widget

    public init(_ child: some WidgetWrapper) {
        widget = Widget(adw_toast_overlay_new())
        adw_toast_overlay_set_child(widget.c(), child.widget.pointer)
    }

    /// Shows `title`; with `button`, a button that invokes `action`
    /// (`win.undo`).
    public func show(_ title: String, button: String? = nil, action: String? = nil, seconds: UInt32 = 5) {
        let toast = adw_toast_new(title)
        if let button, let action {
            adw_toast_set_button_label(toast, button)
            adw_toast_set_action_name(toast, action)
        }
        adw_toast_set_timeout(toast, seconds)
        // The overlay takes over the new toast's reference.
        adw_toast_overlay_add_toast(widget.c(), toast)
    }
}

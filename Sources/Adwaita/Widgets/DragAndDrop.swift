// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// Dragging a row onto another: the to-do list's reorder. The dragged value
/// is a string (the item's id).
public enum DragAndDrop {
    /// Makes `widget` draggable; `content` gives the id to drag, or `nil`.
    public static func makeSource(_ widget: Widget, content: @escaping () -> String?) {
        let source = gtk_drag_source_new()!
        gtk_drag_source_set_actions(source, GDK_ACTION_MOVE)
        Signal.connectPrepare(UnsafeMutableRawPointer(source)) { _, _ in
            guard let text = content() else { return nil }
            return UnsafeMutableRawPointer(alarms_content_provider_for_string(text))
        }
        // The widget takes over the controller's reference.
        gtk_widget_add_controller(widget.pointer, source)
    }

    /// Makes `widget` accept a dragged id; `drop` says whether it took it.
    public static func makeTarget(_ widget: Widget, drop: @escaping (String) -> Bool) {
        let target = gtk_drop_target_new(alarms_string_type(), GDK_ACTION_MOVE)!
        Signal.connectDrop(UnsafeMutableRawPointer(target)) { value, _, _ in
            guard let value, let text = String(glib: g_value_get_string(value)) else { return false }
            return drop(text)
        }
        gtk_widget_add_controller(widget.pointer, target)
    }
}

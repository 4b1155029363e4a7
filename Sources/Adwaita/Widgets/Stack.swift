// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// Pages shown one at a time, by name, with a crossfade.
public struct Stack: WidgetWrapper {
    public let widget: Widget

    public init() {
        widget = Widget(gtk_stack_new())
        gtk_stack_set_transition_type(widget.c(), GTK_STACK_TRANSITION_TYPE_CROSSFADE)
    }

    public func add(_ child: some WidgetWrapper, name: String) { gtk_stack_add_named(widget.c(), child.widget.pointer, name) }

    public var visibleName: String {
        get { String(glib: gtk_stack_get_visible_child_name(widget.c())) ?? "" }
        nonmutating set { gtk_stack_set_visible_child_name(widget.c(), newValue) }
    }
}

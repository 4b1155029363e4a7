// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A row or column of widgets.
public struct Box: WidgetWrapper {
    public let widget: Widget

    public init(vertical: Bool = false, spacing: Int32 = 0, classes: [String] = []) {
        widget = Widget(gtk_box_new(vertical ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL, spacing))
        classes.forEach(widget.addCSSClass)
    }

    @discardableResult
    public func append(_ child: some WidgetWrapper) -> Self {
        gtk_box_append(widget.c(), child.widget.pointer)
        return self
    }

    public func remove(_ child: some WidgetWrapper) { gtk_box_remove(widget.c(), child.widget.pointer) }
    public func setHomogeneous(_ on: Bool) { gtk_box_set_homogeneous(widget.c(), on ? 1 : 0) }
}

// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// Widgets laid out in rows that wrap to the width: the timer presets, five
/// in a wide window and fewer a row in a narrow one.
public struct FlowBox: WidgetWrapper {
    public let widget: Widget

    public init(maxPerLine: UInt32, spacing: UInt32 = 8) {
        widget = Widget(gtk_flow_box_new())
        gtk_flow_box_set_max_children_per_line(widget.c(), maxPerLine)
        gtk_flow_box_set_min_children_per_line(widget.c(), 1)
        gtk_flow_box_set_selection_mode(widget.c(), GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(widget.c(), 1)
        gtk_flow_box_set_row_spacing(widget.c(), spacing)
        gtk_flow_box_set_column_spacing(widget.c(), spacing)
    }

    public func append(_ child: some WidgetWrapper) { gtk_flow_box_insert(widget.c(), child.widget.pointer, -1) }
}

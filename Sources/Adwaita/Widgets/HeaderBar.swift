// SPDX-License-Identifier: Apache-2.0
import CAdwaita

public struct HeaderBar: WidgetWrapper {
    public let widget: Widget

    public init() { widget = Widget(adw_header_bar_new()) }

    public func setTitle(_ title: some WidgetWrapper) { adw_header_bar_set_title_widget(widget.c(), title.widget.pointer) }
    public func packStart(_ child: some WidgetWrapper) { adw_header_bar_pack_start(widget.c(), child.widget.pointer) }
    public func packEnd(_ child: some WidgetWrapper) { adw_header_bar_pack_end(widget.c(), child.widget.pointer) }
    /// A dialog's header: its own Cancel and Save instead of a close button.
    public func hideWindowButtons() {
        adw_header_bar_set_show_start_title_buttons(widget.c(), 0)
        adw_header_bar_set_show_end_title_buttons(widget.c(), 0)
    }
}

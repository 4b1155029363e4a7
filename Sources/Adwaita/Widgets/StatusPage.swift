// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A page that says what to do when there is nothing to show.
public struct StatusPage: WidgetWrapper {
    public let widget: Widget

    public init(icon: String, title: String, description: String) {
        widget = Widget(adw_status_page_new())
        adw_status_page_set_icon_name(widget.c(), icon)
        adw_status_page_set_title(widget.c(), title)
        adw_status_page_set_description(widget.c(), description)
        widget.expand(vertically: true)
    }
}

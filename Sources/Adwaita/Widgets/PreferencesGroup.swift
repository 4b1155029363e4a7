// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A titled group of rows, in a boxed list (a form's section).
public struct PreferencesGroup: WidgetWrapper {
    public let widget: Widget

    public init(title: String = "", description: String? = nil) {
        widget = Widget(adw_preferences_group_new())
        adw_preferences_group_set_title(widget.c(), title)
        if let description { adw_preferences_group_set_description(widget.c(), description) }
    }

    /// The title above the rows.
    public var title: String {
        get { String(glib: adw_preferences_group_get_title(widget.c())) ?? "" }
        nonmutating set { adw_preferences_group_set_title(widget.c(), newValue) }
    }

    public func add(_ child: some WidgetWrapper) { adw_preferences_group_add(widget.c(), child.widget.pointer) }
}

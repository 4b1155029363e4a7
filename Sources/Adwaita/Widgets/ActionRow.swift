// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A row of a boxed list: a title, a subtitle, and widgets at its end.
public struct ActionRow: WidgetWrapper {
    public let widget: Widget

    public init(title: String, subtitle: String? = nil) {
        widget = Widget(adw_action_row_new())
        adw_preferences_row_set_title(widget.c(), title)
        if let subtitle { adw_action_row_set_subtitle(widget.c(), subtitle) }
    }

    /// A row that `control` (a switch) turns on and off: `control` at its
    /// end, activated by activating the row (see ``setActivatable(_:)``).
    public init(title: String, subtitle: String? = nil, switchedBy control: some WidgetWrapper) {
        self.init(title: title, subtitle: subtitle)
        addSuffix(control)
        setActivatable(control)
    }

    /// A row with `control` (a number, a slider) at its end, centred in the
    /// row's height and named by the row's title for a screen reader.
    public init(title: String, subtitle: String? = nil, holding control: some WidgetWrapper) {
        self.init(title: title, subtitle: subtitle)
        control.widget.setAccessibleLabel(title)
        control.widget.align(vertical: GTK_ALIGN_CENTER)
        addSuffix(control)
    }

    public var title: String {
        get { String(glib: adw_preferences_row_get_title(widget.c())) ?? "" }
        nonmutating set { adw_preferences_row_set_title(widget.c(), newValue) }
    }

    public var subtitle: String {
        get { String(glib: adw_action_row_get_subtitle(widget.c())) ?? "" }
        nonmutating set { adw_action_row_set_subtitle(widget.c(), newValue) }
    }

    public func addSuffix(_ child: some WidgetWrapper) { adw_action_row_add_suffix(widget.c(), child.widget.pointer) }
    public func addPrefix(_ child: some WidgetWrapper) { adw_action_row_add_prefix(widget.c(), child.widget.pointer) }
    /// Activating the row (click, Enter) activates `child` (a switch toggles),
    /// and the row's title becomes `child`'s name for a screen reader: it
    /// needs no accessible label of its own (GTK 4.8 would read both).
    public func setActivatable(_ child: some WidgetWrapper) { adw_action_row_set_activatable_widget(widget.c(), child.widget.pointer) }
}

// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A button that stays pressed: a weekday of the repeat. `onToggled` fires
/// for the user's changes only.
public final class ToggleButton: WidgetWrapper {
    public let widget: Widget
    private let change: ChangeSignal

    /// Shows `text` ("Mon"); a screen reader says `accessibleName`
    /// ("Monday"), as for ``Button/init(text:accessibleName:classes:)``.
    public init(text: String, accessibleName: String) {
        widget = Widget(gtk_toggle_button_new())
        gtk_button_set_child(widget.c(), gtk_label_new(text))
        widget.setAccessibleLabel(accessibleName)
        change = ChangeSignal(widget.raw, "toggled")
    }

    public var isActive: Bool {
        get { gtk_toggle_button_get_active(widget.c()) != 0 }
        set { if newValue != isActive { change.quietly { gtk_toggle_button_set_active(widget.c(), newValue ? 1 : 0) } } }
    }

    public func onToggled(_ handler: @escaping (Bool) -> Void) { change.handler = { [unowned self] in handler(self.isActive) } }
}

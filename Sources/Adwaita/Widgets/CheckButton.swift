// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A check box: a to-do's done mark. `onToggled` fires for the user's
/// changes only.
public final class CheckButton: WidgetWrapper {
    public let widget: Widget
    private let change: ChangeSignal

    public init() {
        widget = Widget(gtk_check_button_new())
        change = ChangeSignal(widget.raw, "toggled")
    }

    public var isActive: Bool {
        get { gtk_check_button_get_active(widget.c()) != 0 }
        set { if newValue != isActive { change.quietly { gtk_check_button_set_active(widget.c(), newValue ? 1 : 0) } } }
    }

    public func onToggled(_ handler: @escaping (Bool) -> Void) { change.handler = { [unowned self] in handler(self.isActive) } }
}

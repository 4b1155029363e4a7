// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// An on/off switch. `onToggled` fires for the user's changes only.
public final class Switch: WidgetWrapper {
    public let widget: Widget
    private let change: ChangeSignal

    public init() {
        widget = Widget(gtk_switch_new())
        widget.align(vertical: GTK_ALIGN_CENTER)
        change = ChangeSignal(widget.raw, "notify::active")
    }

    public var isOn: Bool {
        get { gtk_switch_get_active(widget.c()) != 0 }
        set { if newValue != isOn { change.quietly { gtk_switch_set_active(widget.c(), newValue ? 1 : 0) } } }
    }

    public func onToggled(_ handler: @escaping (Bool) -> Void) { change.handler = { [unowned self] in handler(self.isOn) } }
}

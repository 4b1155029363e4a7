// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A number field with − and + steps. `onChanged` fires for the user's
/// changes only.
public final class SpinButton: WidgetWrapper {
    public let widget: Widget
    private let change: ChangeSignal

    public init(range: ClosedRange<Int>, step: Int = 1, value: Int, wraps: Bool = false, twoDigits: Bool = false) {
        widget = Widget(gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), Double(step)))
        gtk_spin_button_set_value(widget.c(), Double(value))
        gtk_spin_button_set_wrap(widget.c(), wraps ? 1 : 0)
        gtk_spin_button_set_numeric(widget.c(), 1)
        change = ChangeSignal(widget.raw, "value-changed")
        if twoDigits {
            // "07", as a clock shows it.
            Signal.connectHandled(widget.raw, "output") { [unowned self] () -> Bool in
                let text = self.value < 10 ? "0\(self.value)" : "\(self.value)"
                gtk_editable_set_text(self.widget.c(), text)
                return true
            }
        }
    }

    public var value: Int {
        get { Int(gtk_spin_button_get_value_as_int(widget.c())) }
        set { change.quietly { gtk_spin_button_set_value(widget.c(), Double(newValue)) } }
    }

    /// Makes the typed text the value (the user may type and press Save at once).
    public func commit() { gtk_spin_button_update(widget.c()) }

    public func onChanged(_ handler: @escaping (Int) -> Void) { change.handler = { [unowned self] in handler(self.value) } }
}

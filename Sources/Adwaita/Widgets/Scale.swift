// SPDX-License-Identifier: Apache-2.0
import CAdwaita

/// A horizontal slider over whole numbers.
public final class Scale: WidgetWrapper {
    public let widget: Widget
    private let change: ChangeSignal

    public init(range: ClosedRange<Int>, value: Int) {
        widget = Widget(gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, Double(range.lowerBound), Double(range.upperBound), 1))
        gtk_scale_set_digits(widget.c(), 0)
        gtk_scale_set_draw_value(widget.c(), 1)
        gtk_range_set_value(widget.c(), Double(value))
        widget.expand(horizontally: true)
        change = ChangeSignal(widget.raw, "value-changed")
    }

    public var value: Int {
        get { Int(gtk_range_get_value(widget.c()).rounded()) }
        set { change.quietly { gtk_range_set_value(widget.c(), Double(newValue)) } }
    }

    public func onChanged(_ handler: @escaping (Int) -> Void) { change.handler = { [unowned self] in handler(self.value) } }
}
